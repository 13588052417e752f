"""Rebuilds a host requests for one viewer, run by a job, with their status and counts.

Revision ID: 0016
Revises: 0015
"""

from alembic import op

from timeline.migrations.policy_and_rebuilds import REBUILDS

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(REBUILDS[0])


def downgrade() -> None:
    op.execute(REBUILDS[1])
