"""Statements about one author's followers are planned, as the service runs them (one generic plan
per prepared statement), for an author of a typical size, even when a big account holds nearly all
of the follows ANALYZE samples: read by the followers index, never a scan of the whole table."""

from __future__ import annotations

from sqlalchemy import text

from .conftest import TEST_CHUNK_SIZE, Timeline, follow, generic_plan, plan_nodes, recorded, users

BIG_FOLLOWERS = 30_000


def analyze_follows(timeline: Timeline, statistics: int) -> None:
    with timeline.database.engine.begin() as connection:
        connection.execute(text(f"ALTER TABLE timeline.follows ALTER COLUMN followee_id SET STATISTICS {statistics}"))
        connection.execute(text("ANALYZE timeline.follows"))


def test_a_small_authors_fanout_is_planned_for_its_size_beside_a_big_account(timeline: Timeline):
    big, author = users(2)
    with timeline.database.transaction() as session:
        session.execute(text("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                             "SELECT :t, gen_random_uuid(), :a FROM generate_series(1, :n)"),
                        {"t": timeline.tenant, "a": big, "n": BIG_FOLLOWERS})
    for viewer in users(TEST_CHUNK_SIZE + 1):
        follow(timeline, viewer, author)
    # A sample of 3,000 rows, nearly all the big account's, as on a graph of millions of follows
    analyze_follows(timeline, 10)
    try:
        with recorded(timeline, "f.followee_id = ") as statements:
            timeline.publish(author)
            timeline.drain()
        assert len(statements) >= 3  # the plan of chunks and a fan-out per chunk
        for statement, params in statements:
            nodes = plan_nodes(generic_plan(timeline, statement, params))
            assert {node["Index Name"] for node in nodes if "follows" in node.get("Index Name", "")} == {
                "ix_follows_followers"}, statement
            scans = [node for node in nodes if node.get("Relation Name") == "follows"]
            assert scans and all(node["Node Type"] != "Seq Scan" for node in scans), statement
            assert all(node["Plan Rows"] <= BIG_FOLLOWERS // 100 for node in scans), statement
    finally:
        analyze_follows(timeline, -1)
