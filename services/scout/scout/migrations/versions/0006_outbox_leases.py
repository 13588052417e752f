"""Leased outbox delivery: the Redis id of the last message sent for a row, the running job's lease
and the backoff of a failed job.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

from feeds_runtime.outbox import LEASE_COLUMNS, add_leases

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_leases(op.get_bind(), "scout")


def downgrade() -> None:
    op.execute(f"ALTER TABLE scout.outbox {', '.join(f'DROP COLUMN {column}' for column in LEASE_COLUMNS)}")
