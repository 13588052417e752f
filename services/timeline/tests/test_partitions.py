"""timeline_entries is hash-partitioned by viewer: every statement about one viewer's entries is
planned against that viewer's partition alone (its plan names no other), and run as a prepared
statement it scans no other, the home read included."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import event, text

from timeline.repositories.home import FIRST_PAGE, NEXT_PAGE, PAST_HORIZON

from .conftest import WINDOW, Timeline, follow, users


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


def _literal(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return _literal("{" + ",".join(str(v) for v in value) + "}")
    text_value = value.isoformat() if isinstance(value, datetime) else str(value)
    return "'" + text_value.replace("'", "''") + "'"


def touched_partitions(timeline: Timeline, statement: str, params, *, generic: bool) -> set[str]:
    """The partitions of timeline_entries the statement reaches (psycopg placeholders). Planned
    for these parameter values: those its plan names (the planner pruned the rest). Or `generic`,
    as a prepared statement runs, one plan for any value pruned as it runs: those it scanned,
    by `EXPLAIN ANALYZE`, rolled back."""
    names_in_order = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", statement)))
    connection = timeline.database.engine.raw_connection()
    try:
        cursor = connection.cursor()
        if generic:
            numbered = re.sub(r"%\((\w+)\)s", lambda m: f"${names_in_order.index(m.group(1)) + 1}", statement)
            cursor.execute("SET plan_cache_mode = force_generic_plan")
            cursor.execute(f"PREPARE probe AS {numbered.replace('%%', '%')}")
            arguments = ", ".join(_literal(params[name]) for name in names_in_order)
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE probe({arguments})")
            plan = cursor.fetchone()[0]
            cursor.execute("DEALLOCATE probe")
        else:
            cursor.execute("EXPLAIN (FORMAT JSON) " + statement, params)
            plan = cursor.fetchone()[0]
    finally:
        connection.rollback()
        connection.close()
    names, nodes = set(), [plan[0]["Plan"]]
    while nodes:
        node = nodes.pop()
        if not generic or node["Actual Loops"]:
            names.add(node.get("Relation Name"))
        nodes.extend(node.get("Plans", []))
    return names & partitions(timeline)


@contextmanager
def recorded(timeline: Timeline) -> Iterator[list]:
    """The statements (as sent to the driver, with their parameters) run meanwhile that name
    timeline_entries."""
    statements: list = []

    def record(conn, cursor, statement, parameters, context, executemany):
        if "timeline.timeline_entries" in statement:
            statements.append((statement, parameters))

    event.listen(timeline.database.engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(timeline.database.engine, "before_cursor_execute", record)


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
              "at": last.ranked_at, "entry": last.entry_id}
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
    with recorded(small) as statements:
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
