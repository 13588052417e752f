"""Fan-out runs track their pending chunks (planned keyset ranges run in parallel) instead of the
position of one sequential chain.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        ALTER TABLE timeline.fanout_progress DROP COLUMN after_follower_id, ADD COLUMN chunks_pending integer[]
        """
    )


def downgrade() -> None:
    op.execute(
        """
        ALTER TABLE timeline.fanout_progress DROP COLUMN chunks_pending, ADD COLUMN after_follower_id uuid
        """
    )
