"""DDL of the revision that adds follower counts (0011), frozen with it; the partitioning migration
test gives the application of today this table below that revision."""


def _count(rows: str, sign: str) -> str:
    """Add each author's effective follows among `rows` (a transition table), times `sign`."""
    return f"""
        SELECT tenant_id, followee_id, {sign} count(*) FROM {rows} WHERE ended_at IS NULL
        GROUP BY tenant_id, followee_id"""


def _apply(deltas: str) -> str:
    # In key order, so two statements changing the same authors lock their rows in the same order.
    return f"""
        INSERT INTO timeline.follower_counts AS c (tenant_id, author_id, followers)
        SELECT tenant_id, followee_id, sum(n) FROM ({deltas}) d (tenant_id, followee_id, n)
        GROUP BY tenant_id, followee_id HAVING sum(n) <> 0 ORDER BY tenant_id, followee_id
        ON CONFLICT (tenant_id, author_id) DO UPDATE SET followers = c.followers + EXCLUDED.followers;"""


# Statement-level triggers with transition tables, as for the partitioning mirror: a bulk follow is
# one upsert per author, not a trigger call per row. An upsert that revives a follow fires the
# update trigger for it. Creating the table, the triggers and the first counts in one transaction,
# with follows locked against writes, counts every follow exactly once.
CREATE = f"""
    CREATE TABLE timeline.follower_counts (
        tenant_id uuid NOT NULL,
        author_id uuid NOT NULL,
        followers bigint NOT NULL,
        CONSTRAINT pk_follower_counts PRIMARY KEY (tenant_id, author_id)
    );
    LOCK TABLE timeline.follows IN SHARE MODE;
    CREATE FUNCTION timeline.follows_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            {_apply(_count("added", ""))}
        ELSIF TG_OP = 'UPDATE' THEN
            {_apply(_count("added", "") + " UNION ALL " + _count("gone", "-"))}
        ELSE
            {_apply(_count("gone", "-"))}
        END IF;
        RETURN NULL;
    END
    $$;
    CREATE TRIGGER count_insert AFTER INSERT ON timeline.follows
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION timeline.follows_count();
    CREATE TRIGGER count_update AFTER UPDATE ON timeline.follows
        REFERENCING OLD TABLE AS gone NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION timeline.follows_count();
    CREATE TRIGGER count_delete AFTER DELETE ON timeline.follows
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION timeline.follows_count();
    INSERT INTO timeline.follower_counts (tenant_id, author_id, followers)
    {_count("timeline.follows", "")};
"""

DROP = """
    DROP TRIGGER count_insert ON timeline.follows;
    DROP TRIGGER count_update ON timeline.follows;
    DROP TRIGGER count_delete ON timeline.follows;
    DROP FUNCTION timeline.follows_count();
    DROP TABLE timeline.follower_counts;
"""
