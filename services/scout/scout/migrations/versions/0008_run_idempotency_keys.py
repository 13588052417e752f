"""A run keeps the Idempotency-Key it was created under and the fingerprint of its brief, so a scan
retried past the gateway's record (a 503 whose commit is unknown) finds its run rather than making a
second one. Additive: the columns are nullable and existing runs carry no key; the unique index is
built concurrently, so scans go on while it builds.

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE scout.runs ADD COLUMN IF NOT EXISTS idempotency_key varchar(255), "
               "ADD COLUMN IF NOT EXISTS request_fingerprint varchar(64)")
    with op.get_context().autocommit_block():
        # An interrupted concurrent build leaves an invalid index behind; it is built again.
        op.execute("DROP INDEX CONCURRENTLY IF EXISTS scout.uq_runs_idempotency")
        op.execute("CREATE UNIQUE INDEX CONCURRENTLY uq_runs_idempotency ON scout.runs (owner_id, idempotency_key) "
                   "WHERE idempotency_key IS NOT NULL")


def downgrade() -> None:
    op.execute("DROP INDEX scout.uq_runs_idempotency")
    op.execute("ALTER TABLE scout.runs DROP COLUMN request_fingerprint, DROP COLUMN idempotency_key")
