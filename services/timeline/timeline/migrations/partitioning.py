"""DDL shared by the revisions that partition timeline_entries (0007 to 0009), frozen with them:
the mirror that keeps the partitioned copy `timeline_entries_next` equal to `timeline_entries`
while both exist."""

COLUMNS = "id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at, materialized_at"

# The columns after `id`, alike in both tables (the id is the key of the unpartitioned one only).
COLUMNS_AFTER_ID = """
    tenant_id uuid NOT NULL,
    viewer_id uuid NOT NULL,
    post_id uuid NOT NULL,
    author_id uuid NOT NULL,
    kind varchar(16) NOT NULL CONSTRAINT ck_timeline_entries_kind CHECK (kind IN ('self', 'following')),
    ranked_at timestamptz NOT NULL,
    materialized_at timestamptz NOT NULL DEFAULT now()
"""

# Statement-level, with transition tables: a fan-out chunk's thousands of rows are copied by one
# statement, not a trigger call per row. An update deletes the old key and writes the new row (the
# application only ever moves ranked_at). Creating the triggers waits for the transactions writing
# to the table, so every write committed afterwards is mirrored.
MIRROR = f"""
    CREATE FUNCTION timeline.timeline_entries_mirror() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            DELETE FROM timeline.timeline_entries_next n USING gone g
            WHERE n.tenant_id = g.tenant_id AND n.viewer_id = g.viewer_id AND n.post_id = g.post_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            INSERT INTO timeline.timeline_entries_next ({COLUMNS}) SELECT {COLUMNS} FROM added
            ON CONFLICT (tenant_id, viewer_id, post_id) DO UPDATE SET id = EXCLUDED.id,
                author_id = EXCLUDED.author_id, kind = EXCLUDED.kind, ranked_at = EXCLUDED.ranked_at,
                materialized_at = EXCLUDED.materialized_at;
        END IF;
        RETURN NULL;
    END
    $$;
    CREATE TRIGGER mirror_insert AFTER INSERT ON timeline.timeline_entries
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION timeline.timeline_entries_mirror();
    CREATE TRIGGER mirror_update AFTER UPDATE ON timeline.timeline_entries
        REFERENCING OLD TABLE AS gone NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION timeline.timeline_entries_mirror();
    CREATE TRIGGER mirror_delete AFTER DELETE ON timeline.timeline_entries
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION timeline.timeline_entries_mirror();
"""
