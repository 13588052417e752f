"""The timeline schema's transactional outbox.

Revision ID: 0001
Revises:
"""

from alembic import op

from feeds_runtime.outbox import create_outbox

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_outbox(op.get_bind(), "timeline")


def downgrade() -> None:
    raise NotImplementedError("the first revision is not reversible")
