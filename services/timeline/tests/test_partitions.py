"""timeline_entries is hash-partitioned by viewer: every statement about one viewer's entries is
planned against that viewer's partition alone (its plan names no other), and run as a prepared
statement it scans no other, the home read included."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from timeline.repositories.home import FIRST_PAGE, NEXT_PAGE, PAST_HORIZON

from .conftest import WINDOW, Timeline, follow, generic_plan, plan_nodes, recorded, users


def partitions(timeline: Timeline) -> set[str]:
    with timeline.database.transaction() as session:
        return set(session.execute(text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'timeline.timeline_entries'::regclass")).scalars())


def partition_of(timeline: Timeline, viewer: uuid.UUID) -> str:
    """The partition that holds the viewer's entries, by PostgreSQL's own hash of the viewer id."""
    with timeline.database.transaction() as session:
        return session.execute(text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'timeline.timeline_entries'::regclass AND satisfies_hash_partition("
            "i.inhparent, 16, CAST(substring(pg_get_expr(c.relpartbound, c.oid) FROM 'remainder (\\d+)') AS integer), "
            "CAST(:v AS uuid))"), {"v": viewer}).scalar_one()


def touched_partitions(timeline: Timeline, statement: str, params, *, generic: bool) -> set[str]:
    """The partitions of timeline_entries the statement reaches (psycopg placeholders). Planned
    for these parameter values: those its plan names (the planner pruned the rest). Or `generic`,
    as a prepared statement runs, one plan for any value pruned as it runs: those it scanned."""
    if generic:
        plan = generic_plan(timeline, statement, params)
    else:
        connection = timeline.database.engine.raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute("EXPLAIN (FORMAT JSON) " + statement, params)
            plan = cursor.fetchone()[0][0]["Plan"]
        finally:
            connection.rollback()
            connection.close()
    return {node.get("Relation Name") for node in plan_nodes(plan)
            if not generic or node["Actual Loops"]} & partitions(timeline)


def test_the_home_read_touches_the_viewers_partition_only(small):
    viewer, other, author, big = users(4)
    follow(small, viewer, author)
    follow(small, viewer, big)
    follow(small, other, big)  # at the pull threshold: big's posts are pulled
    for i in range(WINDOW + 3):
        small.publish(author, f"p{i}")
        small.publish(big, f"big{i}")
    small.publish(viewer, "own")
    small.drain()
    first = small.home(viewer, 2)
    assert len(small.all_home(viewer, 2)) == len(small.expected_home(viewer)) == 2 * (WINDOW + 3) + 1
    own = partition_of(small, viewer)
    assert len(partitions(small)) == 16
    last = first.items[-1]
    params = {"tenant": small.tenant, "viewer": viewer, "limit": 2,
              "at": last.ranked_at, "entry": uuid.UUID(last.entry_id)}
    # The page statements read one partition, the viewer's; the pull below the horizon reads none
    for generic in (False, True):
        assert touched_partitions(small, FIRST_PAGE, params, generic=generic) == {own}
        assert touched_partitions(small, NEXT_PAGE, params, generic=generic) == {own}
        assert touched_partitions(small, PAST_HORIZON, params, generic=generic) == set()


def test_every_per_viewer_job_touches_one_partition(small):
    viewer, author, other = users(3)
    for i in range(WINDOW + 2):
        small.publish(author, f"p{i}")
    small.drain()
    with recorded(small, "timeline.timeline_entries") as statements:
        follow(small, viewer, author)  # pair sync: clean-up, merge, horizon, trim
        small.publish(viewer, "own")  # the self entry
        small.projection(lambda p: p.trim_viewers(small.tenant, [viewer]))
        small.projection(lambda p: p.rebuild(small.tenant, viewer))
        small.projection(lambda p: p.audit(small.tenant, viewer))
        small.service(lambda s: s.block(small.tenant, viewer, author))
        small.drain()  # pair sync: the author's entries go
        small.projection(lambda p: p.sync_pair(small.tenant, viewer, other))
    assert len(statements) >= 8
    for statement, params in statements:
        planned = touched_partitions(small, statement, params, generic=False)
        if "FROM timeline.timeline_entries" in statement:  # reads or deletes: the viewers' partitions
            own = {partition_of(small, v) for v in params.get("viewers", [params.get("viewer")])}
            assert planned == own, statement
            assert touched_partitions(small, statement, params, generic=True) <= own, statement
        else:  # an insert routes each row to its partition, which the plan does not name
            assert planned == set(), statement
    assert small.projection(lambda p: p.audit(small.tenant, viewer)).in_sync
