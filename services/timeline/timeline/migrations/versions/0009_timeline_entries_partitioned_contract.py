"""Partitioning timeline_entries by viewer, step 3 of 3 (contract): the partitioned copy replaces
the current table under its name, and the current table, its triggers and the copy function go.

Writes wait while the copy is checked complete (the current table is locked EXCLUSIVE: reads go
on); the swap itself holds an ACCESS EXCLUSIVE lock for the few catalogue changes. Statements the
application has prepared are planned anew against the partitioned table by name.

Revision ID: 0009
Revises: 0008
"""

from alembic import op

from timeline.migrations.partitioning import COLUMNS, COLUMNS_AFTER_ID, MIRROR

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        LOCK TABLE timeline.timeline_entries IN EXCLUSIVE MODE;
        DO $$
        BEGIN
            IF EXISTS (SELECT 1 FROM timeline.timeline_entries e WHERE NOT EXISTS (
                    SELECT 1 FROM timeline.timeline_entries_next n WHERE n.tenant_id = e.tenant_id
                    AND n.viewer_id = e.viewer_id AND n.post_id = e.post_id)) THEN
                RAISE EXCEPTION 'timeline_entries_next lacks rows of timeline_entries: run revision 0008 first';
            END IF;
        END
        $$;
        DROP TABLE timeline.timeline_entries;
        DROP FUNCTION timeline.timeline_entries_mirror();
        ALTER TABLE timeline.timeline_entries_next RENAME TO timeline_entries;
        ALTER INDEX timeline.ix_timeline_entries_next_page RENAME TO ix_timeline_entries_page;
        ALTER INDEX timeline.ix_timeline_entries_next_post RENAME TO ix_timeline_entries_post;
        """
    )


def downgrade() -> None:
    """Back to the state after 0008: the unpartitioned table under the name again, filled from the
    partitioned one, which stays beside it as the mirrored copy."""
    op.execute(
        f"""
        LOCK TABLE timeline.timeline_entries IN EXCLUSIVE MODE;
        ALTER TABLE timeline.timeline_entries RENAME TO timeline_entries_next;
        ALTER INDEX timeline.ix_timeline_entries_page RENAME TO ix_timeline_entries_next_page;
        ALTER INDEX timeline.ix_timeline_entries_post RENAME TO ix_timeline_entries_next_post;
        CREATE TABLE timeline.timeline_entries (
            id uuid PRIMARY KEY, {COLUMNS_AFTER_ID}
        );
        INSERT INTO timeline.timeline_entries ({COLUMNS}) SELECT {COLUMNS} FROM timeline.timeline_entries_next;
        CREATE UNIQUE INDEX uq_timeline_entries_viewer_post ON timeline.timeline_entries (tenant_id, viewer_id, post_id);
        CREATE INDEX ix_timeline_entries_page ON timeline.timeline_entries (tenant_id, viewer_id, ranked_at DESC, id DESC);
        CREATE INDEX ix_timeline_entries_post ON timeline.timeline_entries (tenant_id, post_id);
        """
    )
    op.execute(MIRROR)
