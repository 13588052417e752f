"""Labels: the labels a host puts on posts, and what each does per tenant and per viewer. Additive
only: existing posts carry no label.

Revision ID: 0015
Revises: 0014
"""

from alembic import op

from timeline.migrations.policy_and_rebuilds import LABELS

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(LABELS[0])


def downgrade() -> None:
    op.execute(LABELS[1])
