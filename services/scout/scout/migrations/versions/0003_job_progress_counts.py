"""A running job's current counts, so a queued or running run can show them (docs/scout.md flow E).

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

COLUMNS = ("progress_searched", "progress_duplicates", "progress_irrelevant")


def upgrade() -> None:
    for column in COLUMNS:
        op.execute(f"ALTER TABLE scout.jobs ADD COLUMN {column} integer NOT NULL DEFAULT 0")


def downgrade() -> None:
    for column in COLUMNS:
        op.execute(f"ALTER TABLE scout.jobs DROP COLUMN {column}")
