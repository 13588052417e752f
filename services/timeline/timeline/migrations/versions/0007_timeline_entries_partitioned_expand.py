"""Partitioning timeline_entries by viewer, step 1 of 3 (expand): the partitioned table is created
beside the current one as `timeline_entries_next`, and triggers on the current table copy every
insert, update and delete into it from now on. The application keeps using `timeline_entries`
unchanged; 0008 copies the rows written before this step and 0009 swaps the tables.

The new table is keyed by (tenant_id, viewer_id, post_id): a key of a partitioned table must hold
the partition key, and entry ids derive from that triple anyway.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

from timeline.migrations.partitioning import COLUMNS_AFTER_ID, MIRROR

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

PARTITIONS = 16


def upgrade() -> None:
    partitions = "\n".join(
        f"CREATE TABLE timeline.timeline_entries_p{n} PARTITION OF timeline.timeline_entries_next "
        f"FOR VALUES WITH (MODULUS {PARTITIONS}, REMAINDER {n});"
        for n in range(PARTITIONS)
    )
    op.execute(
        f"""
        CREATE TABLE timeline.timeline_entries_next (
            id uuid NOT NULL, {COLUMNS_AFTER_ID},
            CONSTRAINT pk_timeline_entries PRIMARY KEY (tenant_id, viewer_id, post_id)
        ) PARTITION BY HASH (viewer_id);
        {partitions}
        CREATE INDEX ix_timeline_entries_next_page
            ON timeline.timeline_entries_next (tenant_id, viewer_id, ranked_at DESC, id DESC);
        CREATE INDEX ix_timeline_entries_next_post ON timeline.timeline_entries_next (tenant_id, post_id);

        {MIRROR}
        """
    )


def downgrade() -> None:
    op.execute(
        """
        DROP FUNCTION timeline.timeline_entries_mirror() CASCADE;
        DROP TABLE timeline.timeline_entries_next;
        """
    )
