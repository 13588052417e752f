"""The planner is told that follows have many distinct followees. The timeline's statements keep one
generic plan (force_generic_plan), which estimates `followee_id = $n` as the table's rows divided by
the distinct followees in ANALYZE's sample; a sample dominated by a few big accounts finds one or
two, so every per-author statement (a fan-out chunk, its plan of chunks) was planned as reading the
whole table and scanned it, even for an author with ten followers. Planned for an author of a
hundred followers, they use the followers index. The setting takes effect at the next ANALYZE, run
here; every later one keeps it.

Revision ID: 0012
Revises: 0011
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE timeline.follows ALTER COLUMN followee_id SET (n_distinct = -0.01)")
    op.execute("ANALYZE timeline.follows")


def downgrade() -> None:
    op.execute("ALTER TABLE timeline.follows ALTER COLUMN followee_id RESET (n_distinct)")
    op.execute("ANALYZE timeline.follows")
