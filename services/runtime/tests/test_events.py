"""The event log against real PostgreSQL and Redis: positions follow commits (an event whose
transaction commits late is read after the ones already read, never skipped), concurrent
sequencers and writers leave a gapless order that a reader follows exactly once, retention trims a
prefix and says when a position has expired, and a consumer moves its position with its effects."""

from __future__ import annotations

import threading
import uuid

import pytest
import redis
from sqlalchemy import Column, Connection, String, Table, select, text
from sqlalchemy.orm import Session

from devstack.infra import free_port
from feeds_runtime.consumer import Consumer, positions_table
from feeds_runtime.db import make_engine, schema_metadata
from feeds_runtime.events import (
    EventLog,
    PositionExpired,
    append,
    create_event_log,
    event_log_table,
    list_events,
)
from feeds_runtime.outbox import create_outbox

SCHEMA = "events_probe"
metadata = schema_metadata(SCHEMA)
events = event_log_table(metadata)
positions = positions_table(metadata)
handled = Table("handled", metadata, Column("key", String, primary_key=True))


@pytest.fixture
def engine(database_url):
    engine = make_engine(database_url, pool_size=12)
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE"))
        connection.execute(text(f"CREATE SCHEMA {SCHEMA}"))
        create_outbox(connection, SCHEMA)  # its NOTIFY function wakes the relay for events too
        create_event_log(connection, SCHEMA)
        positions.create(connection)
        handled.create(connection)
    yield engine
    engine.dispose()


@pytest.fixture
def log(engine, redis_url):
    client = redis.Redis.from_url(redis_url)
    yield EventLog(engine, events, client, f"events-probe-{uuid.uuid4().hex}", retention_seconds=3600, batch_size=50)
    client.close()


def write(engine, key: str, tenant: uuid.UUID | None = None) -> None:
    with Session(engine) as session, session.begin():
        append(session, events, "probe.happened", {"key": key}, tenant_id=tenant)


def read(engine, after: int, limit: int = 1000, tenant: uuid.UUID | None = None):
    with engine.connect() as connection:
        return list_events(connection, events, after, limit, tenant)


def keys(page) -> list[str]:
    return [event.payload["key"] for event in page.events]


def test_an_event_committed_late_is_read_after_the_ones_already_read(engine, log):
    # Given a transaction that wrote an event (the lower id) and has not committed
    late = Session(engine)
    late.begin()
    append(late, events, "probe.happened", {"key": "late"})
    late.flush()
    # and a later one that wrote its event and committed
    write(engine, "early")
    log.sequence_all()
    # When a reader reads the log
    first = read(engine, 0)
    assert keys(first) == ["early"] and first.next_after == 1
    # and the first transaction commits afterwards
    late.commit()
    late.close()
    log.sequence_all()
    # Then the reader, going on from its position, meets the late event: nothing was skipped
    second = read(engine, first.next_after)
    assert keys(second) == ["late"] and [e.position for e in second.events] == [2]
    with engine.connect() as connection:
        ids = dict(connection.execute(select(events.c.payload["key"].astext, events.c.id)).all())
    assert ids["late"] < ids["early"], "the late event has the lower id: ordering by id would have skipped it"


def test_concurrent_writers_and_sequencers_give_a_gapless_order_read_once(engine, log):
    writers, per_writer = 4, 40
    done = threading.Event()

    def writer(n: int) -> None:
        for i in range(per_writer):
            write(engine, f"{n}-{i}")

    def sequencer() -> None:
        while not done.is_set():
            log.sequence_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    relays = [threading.Thread(target=sequencer) for _ in range(2)]
    for thread in threads + relays:
        thread.start()
    # A reader follows the log from its position while events are written and numbered
    seen: list[str] = []
    seen_positions: list[int] = []
    after = 0
    while len(seen) < writers * per_writer:
        page = read(engine, after, limit=7)
        seen += keys(page)
        seen_positions += [e.position for e in page.events]
        after = page.next_after
        if not page.events and not any(t.is_alive() for t in threads):
            log.sequence_all()
    done.set()
    for thread in threads + relays:
        thread.join()
    # Every event exactly once, at positions 1..N in order
    assert sorted(seen) == sorted(f"{n}-{i}" for n in range(writers) for i in range(per_writer))
    assert seen_positions == list(range(1, writers * per_writer + 1))


def test_a_tenant_reads_only_its_events_and_moves_past_the_others(engine, log):
    mine, theirs = uuid.uuid4(), uuid.uuid4()
    write(engine, "mine-1", mine)
    write(engine, "theirs-1", theirs)
    write(engine, "theirs-2", theirs)
    log.sequence_all()
    page = read(engine, 0, tenant=mine)
    assert keys(page) == ["mine-1"] and page.next_after == 3
    assert keys(read(engine, 0, tenant=theirs)) == ["theirs-1", "theirs-2"]


def test_retention_trims_the_oldest_prefix_and_an_expired_position_is_refused(engine, log):
    for n in range(5):
        write(engine, f"e{n}")
    log.sequence_all()
    # Given events 1 and 2 older than the retention, 3 recent, 4 old again, 5 old and the newest
    with engine.begin() as connection:
        connection.execute(text(f"UPDATE {SCHEMA}.events SET occurred_at = now() - interval '2 hours' "
                                "WHERE position IN (1, 2, 4, 5)"))
    # When the log is trimmed
    assert log.trim() == 2
    # Then only the leading run went (4 stays behind 3, so no reader meets a hole); the newest stays
    assert [e.position for e in read(engine, 2).events] == [3, 4, 5]
    with pytest.raises(PositionExpired) as expired:
        read(engine, 1)
    assert expired.value.oldest == 3
    # and with everything old, the newest event is kept, so the head stays known
    with engine.begin() as connection:
        connection.execute(text(f"UPDATE {SCHEMA}.events SET occurred_at = now() - interval '2 hours'"))
    assert log.trim() == 2
    assert [e.position for e in read(engine, 4).events] == [5]


def test_the_relay_announces_new_positions_on_the_stream(engine, log, redis_url):
    write(engine, "a")
    write(engine, "b")
    assert log.sequence_all() == 2
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    [(_, fields)] = client.xrange(log._stream)
    assert fields == {"position": "2"}


def test_events_are_numbered_and_readable_while_redis_is_away(engine):
    gone = redis.Redis(port=free_port(), socket_connect_timeout=0.5)
    log = EventLog(engine, events, gone, "events-probe-away", retention_seconds=3600, batch_size=2)
    for key in ["a", "b", "c"]:
        write(engine, key)
    assert log.sequence_all() == 3
    assert keys(read(engine, 0)) == ["a", "b", "c"]


def test_a_consumer_moves_its_position_with_its_effects(engine, log):
    def handle(connection: Connection, event) -> None:
        if event.payload["key"] == "poison":
            raise RuntimeError("handler failed")
        connection.execute(handled.insert().values(key=event.payload["key"]))

    def source(after: int, limit: int):
        return read(engine, after, limit)

    consumer = Consumer(engine, positions, "probe", "events_probe", source, handle, page_size=2)
    for key in ["a", "b", "c"]:
        write(engine, key)
    log.sequence_all()
    assert consumer.catch_up() == 3 and consumer.position() == 3
    # A failing handler leaves neither its page's effects nor a moved position
    write(engine, "d")
    write(engine, "poison")
    log.sequence_all()
    with pytest.raises(RuntimeError):
        consumer.catch_up()
    assert consumer.position() == 3
    with engine.connect() as connection:
        assert sorted(connection.execute(select(handled.c.key)).scalars()) == ["a", "b", "c"]
