"""A job's progress step as data (stage and search stage number), so no reader parses its summary.

Revision ID: 0004
Revises: 0003
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE scout.jobs ADD COLUMN progress_stage varchar(16) NOT NULL DEFAULT 'queued'")
    op.execute("ALTER TABLE scout.jobs ADD COLUMN progress_stage_number integer NOT NULL DEFAULT 0")
    # Jobs that already ended keep no step.
    op.execute("UPDATE scout.jobs SET progress_stage = 'finished' WHERE status NOT IN ('queued', 'running')")


def downgrade() -> None:
    op.execute("ALTER TABLE scout.jobs DROP COLUMN progress_stage_number")
    op.execute("ALTER TABLE scout.jobs DROP COLUMN progress_stage")
