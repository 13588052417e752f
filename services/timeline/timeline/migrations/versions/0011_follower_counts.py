"""Authors' effective follower counts, kept by triggers on follows, so a publish decides push or
pull by reading one row instead of counting up to the pull threshold's worth of follows. Filled from
the follows as they stand.

Revision ID: 0011
Revises: 0010
"""

from alembic import op

from timeline.migrations.follower_counts import CREATE, DROP

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(CREATE)


def downgrade() -> None:
    op.execute(DROP)
