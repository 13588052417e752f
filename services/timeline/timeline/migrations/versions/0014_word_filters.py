"""Word filters: a viewer's phrases, matched in the folded form of post bodies, which new posts
store (`posts.folded_body`). Additive only: a post without a folded body is folded when read.

Revision ID: 0014
Revises: 0013
"""

from alembic import op

from timeline.migrations.policy_and_rebuilds import WORD_FILTERS

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(WORD_FILTERS[0])


def downgrade() -> None:
    op.execute(WORD_FILTERS[1])
