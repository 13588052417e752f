"""The verdicts of a viewer's lasting hiding word filters kept on its entries: a version per viewer's
set of word filters, drawn from a sequence at each change, and on each entry the version under which
those filters hide it (timeline.verdicts). Additive only: an entry without one is judged when read.

Revision ID: 0017
Revises: 0016
"""

from alembic import op

from timeline.migrations.policy_and_rebuilds import FILTER_VERDICTS

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(FILTER_VERDICTS[0])


def downgrade() -> None:
    op.execute(FILTER_VERDICTS[1])
