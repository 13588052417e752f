"""The scout schema's transactional outbox.

Revision ID: 0001
Revises:
"""

from feeds_runtime.outbox import create_in_migration

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_in_migration("scout")


def downgrade() -> None:
    raise NotImplementedError("the first revision is not reversible")
