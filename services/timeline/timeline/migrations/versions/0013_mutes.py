"""Mutes: a viewer's muted authors, each optionally until a time, applied by home reads.

Revision ID: 0013
Revises: 0012
"""

from alembic import op

from timeline.migrations.policy_and_rebuilds import MUTES

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(MUTES[0])


def downgrade() -> None:
    op.execute(MUTES[1])
