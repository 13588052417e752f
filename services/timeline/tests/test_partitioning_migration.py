"""The move of timeline_entries to a table partitioned by viewer, as an expand/contract migration
(revisions 0007 to 0009): every entry is kept, the application reads and writes correctly at every
step, and a delete that races the copy is not undone by it."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest
from alembic import command
from sqlalchemy import text

from feeds_runtime import migrations
from feeds_runtime.db import Database, make_engine
from feeds_runtime.events import create_event_log
from timeline.app import SERVICE
from timeline.migrations import follower_counts, policy_and_rebuilds

from .conftest import WINDOW, Timeline, blocked_or_done, follow, users

ROWS = ("SELECT id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at, materialized_at "
        "FROM timeline.{table} ORDER BY tenant_id, viewer_id, post_id")


@pytest.fixture
def fresh(fresh_database_url, timeline_settings) -> Iterator[Timeline]:
    """The small-window timeline on a database of its own, migrated up to the revision before 0007."""
    database = Database(make_engine(fresh_database_url, pool_size=4, application_name="timeline-migration-test",
                                    session_settings=SERVICE.session_settings))
    migrations.upgrade(database.engine, SERVICE.migrations_dir, SERVICE.schema, "0006")
    add_later_tables(database)
    yield Timeline(database, timeline_settings.model_copy(
        update={"window_entries": WINDOW, "trim_every": 1, "pull_threshold": 3}))
    database.engine.dispose()


def add_later_tables(database: Database) -> None:
    """The application of today records events in the log that a later revision (0010) adds, reads
    follower counts that 0011 adds and viewer policies that 0013 on add: below them, the test gives
    the application the tables those revisions create."""
    with database.engine.begin() as connection:
        create_event_log(connection, SERVICE.schema)
        connection.execute(text(follower_counts.CREATE))
        for upgrade, _ in policy_and_rebuilds.REVISIONS:
            connection.execute(text(upgrade))


def migrate(timeline: Timeline, revision: str) -> None:
    if revision == "head":  # the revisions that create the log, the counts and the policies create them again
        with timeline.database.engine.begin() as connection:
            for _, downgrade in reversed(policy_and_rebuilds.REVISIONS):
                connection.execute(text(downgrade))
            connection.execute(text(follower_counts.DROP))
            connection.execute(text("DROP TABLE timeline.events"))
    migrations.upgrade(timeline.database.engine, SERVICE.migrations_dir, SERVICE.schema, revision)


def rows(timeline: Timeline, table: str = "timeline_entries") -> list:
    with timeline.database.transaction() as session:
        return [tuple(row) for row in session.execute(text(ROWS.format(table=table)))]


def assert_reads_are_right(timeline: Timeline, viewers) -> None:
    for viewer in viewers:
        assert [uuid.UUID(item.post_id) for item in timeline.all_home(viewer, 2)] == timeline.expected_home(viewer)


def activity(timeline: Timeline, viewers, authors, step: int) -> None:
    """What the application does at any time: publish, follow and unfollow, delete, block, with the
    fan-out, pair syncs, trims and clean-ups this queues."""
    for author in authors:
        timeline.publish(author, f"step {step}")
    follow(timeline, viewers[step % len(viewers)], authors[step % len(authors)])
    post = timeline.publish(authors[0], f"deleted at step {step}")
    timeline.drain()
    timeline.service(lambda s: s.delete_post(timeline.tenant, authors[0], post.id))
    timeline.service(lambda s: s.unfollow(timeline.tenant, viewers[0], authors[1]))
    timeline.drain()
    timeline.service(lambda s: s.follow(timeline.tenant, viewers[0], authors[1]))
    timeline.drain()
    assert_reads_are_right(timeline, viewers + authors)


def test_every_step_keeps_the_entries_and_the_application_working(fresh):
    viewers, authors = users(4), users(3)
    for viewer in viewers:
        for author in authors:
            follow(fresh, viewer, author)
    for i in range(WINDOW + 2):
        activity(fresh, viewers, authors, i)  # enough to trim: horizons and history below them
    # Expand: the application goes on against the current table, mirrored into the partitioned one
    migrate(fresh, "0007")
    activity(fresh, viewers, authors, 10)
    copied_later = rows(fresh, "timeline_entries_next")
    assert copied_later and set(copied_later) <= set(rows(fresh))
    # Copy: the rows from before the expand join the mirrored ones
    migrate(fresh, "0008")
    assert rows(fresh, "timeline_entries_next") == rows(fresh)
    activity(fresh, viewers, authors, 11)
    assert rows(fresh, "timeline_entries_next") == rows(fresh)
    before = rows(fresh)
    # Contract: the partitioned table is timeline_entries, with every entry
    migrate(fresh, "head")
    assert rows(fresh) == before
    assert_reads_are_right(fresh, viewers + authors)
    activity(fresh, viewers, authors, 12)
    assert all(fresh.projection(lambda p, v=v: p.audit(fresh.tenant, v)).in_sync for v in viewers)
    migrations.check(fresh.database.engine, SERVICE.migrations_dir, SERVICE.schema)
    # and the contract step goes back and forth without losing a row
    after = rows(fresh)
    config = migrations.alembic_config(SERVICE.migrations_dir, SERVICE.schema)
    with fresh.database.engine.connect() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0008")
        connection.commit()
    add_later_tables(fresh.database)
    assert rows(fresh) == rows(fresh, "timeline_entries_next") == after
    activity(fresh, viewers, authors, 13)
    assert rows(fresh) == rows(fresh, "timeline_entries_next")
    migrate(fresh, "head")
    assert_reads_are_right(fresh, viewers + authors)


def test_a_delete_racing_the_copy_is_not_undone(fresh):
    viewer, author = users(2)
    follow(fresh, viewer, author)
    posts = [fresh.publish(author, f"p{i}") for i in range(2)]
    fresh.drain()
    migrate(fresh, "0007")
    # Given a delete of an entry from before the expand, not committed yet when the copy starts
    with fresh.database.transaction() as session:
        session.execute(text("DELETE FROM timeline.timeline_entries WHERE tenant_id = :t AND viewer_id = :v "
                             "AND post_id = :p"), {"t": fresh.tenant, "v": viewer, "p": posts[0].id})
        copy = threading.Thread(target=migrate, args=(fresh, "0008"))
        copy.start()
        blocked_or_done(fresh, copy)
    copy.join(30)
    assert not copy.is_alive()
    # Then the copy holds exactly what the table holds: the deleted entry is in neither
    assert rows(fresh, "timeline_entries_next") == rows(fresh)
    assert (viewer, posts[0].id) not in {(row[2], row[3]) for row in rows(fresh)}
