"""Partitioning timeline_entries by viewer, step 2 of 3: copy the rows written before 0007 into the
partitioned table, in batches that each commit on their own, so the copy holds no long transaction
and the application keeps writing meanwhile.

Each batch locks the rows it copies `FOR SHARE` until it commits: a concurrent delete or update of
such a row waits, then its trigger (0007) applies the change to the copy, instead of the copy
bringing back a row deleted while it was read. Rows the triggers already copied are left as they
are (they are at least as recent). Running it again copies nothing twice.

Revision ID: 0008
Revises: 0007
"""

from alembic import op
from sqlalchemy import text

from timeline.migrations.partitioning import COLUMNS

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

BATCH = 20_000

# Keyset over the current table's primary key (id); returns the last id of the batch.
_COPY_BATCH = f"""
    WITH batch AS (
        SELECT {COLUMNS} FROM timeline.timeline_entries
        WHERE CAST(:after AS uuid) IS NULL OR id > :after
        ORDER BY id LIMIT :batch FOR SHARE
    ), copied AS (
        INSERT INTO timeline.timeline_entries_next ({COLUMNS}) SELECT {COLUMNS} FROM batch
        ON CONFLICT (tenant_id, viewer_id, post_id) DO NOTHING
    )
    SELECT id FROM batch ORDER BY id DESC LIMIT 1
"""


def upgrade() -> None:
    connection = op.get_bind()
    with op.get_context().autocommit_block():
        after = None
        while True:
            after = connection.execute(text(_COPY_BATCH), {"after": after, "batch": BATCH}).scalar()
            if after is None:
                break
    op.execute("ANALYZE timeline.timeline_entries_next")


def downgrade() -> None:
    """Nothing to undo: the copy goes with the table when 0007 is downgraded."""
