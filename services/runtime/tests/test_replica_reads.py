"""Read replicas with read-your-writes on a real primary and streaming standby (devstack.replication):
a member always reads their own write, other reads are the replica's, and a replica that stops costs
no error (the primary answers) until it is back."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
import redis
from sqlalchemy import Connection, text

from devstack.processes import wait_for
from feeds_runtime import context
from feeds_runtime.db import Database, driver_connection, make_engine
from feeds_runtime.replicas import ReplicaSet, WritePositions

WRITERS = 10


@pytest.fixture(scope="module")
def replicated(postgres_cluster, redis_url) -> Iterator[Database]:
    name = f"replica_reads_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(postgres_cluster.conninfo("primary"), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    with psycopg.connect(postgres_cluster.conninfo("primary", name), autocommit=True) as primary:
        primary.execute("CREATE TABLE notes (writer text NOT NULL, n int NOT NULL)")
    postgres_cluster.wait_replayed(timeout=60)
    positions = WritePositions(redis.Redis.from_url(redis_url), f"test-{uuid.uuid4().hex[:8]}:written:", 60)
    primary = make_engine(postgres_cluster.url(name, "primary"), pool_size=4)
    replicas = ReplicaSet(primary, [make_engine(postgres_cluster.url(name, "replica"), pool_size=4)], positions,
                          "replica-test", max_lag_seconds=30)
    database = Database(primary, replicas)
    yield database
    database.dispose()


@contextmanager
def acting_as(actor: str | None, tenant: str | None = None) -> Iterator[None]:
    """The identity the server interceptor sets from a call's metadata."""
    actor_token, tenant_token = context.actor_id.set(actor), context.tenant_id.set(tenant)
    try:
        yield
    finally:
        context.actor_id.reset(actor_token)
        context.tenant_id.reset(tenant_token)


def last_note(writer: str):
    def work(connection: Connection) -> tuple[int | None, int]:
        row = connection.execute(
            text("SELECT (SELECT max(n) FROM notes WHERE writer = :writer), inet_server_port()"),
            {"writer": writer}).one()
        return row[0], row[1]
    return work


def write_note(database: Database, writer: str, n: int) -> None:
    with database.transaction() as session:
        session.execute(text("INSERT INTO notes VALUES (:writer, :n)"), {"writer": writer, "n": n})


def test_a_member_reads_their_own_write_at_once(replicated, postgres_cluster):
    # Given members who each write and then read at once, one pair after another
    writers = [str(uuid.uuid4()) for _ in range(WRITERS)]
    served_by = {"primary": 0, "replica": 0}
    ports = {postgres_cluster.port("primary"): "primary", postgres_cluster.port("replica"): "replica"}
    for n in range(300):
        writer = writers[n % WRITERS]
        with acting_as(writer, "tenant-a"):
            write_note(replicated, writer, n)
            # Then every read shows the write just made, wherever it runs
            seen, port = replicated.replica_read(last_note(writer))
        assert seen == n
        served_by[ports[port]] += 1
    assert served_by["primary"] + served_by["replica"] == 300


def test_reads_of_no_pending_write_are_the_replicas(replicated, postgres_cluster):
    # Given a member with nothing unreplayed, and a guest
    member = str(uuid.uuid4())
    with acting_as(member):
        write_note(replicated, member, 1)
    postgres_cluster.wait_replayed(timeout=30)
    replica_port = postgres_cluster.port("replica")
    for actor in (member, None):
        with acting_as(actor):
            # Then their reads run on the replica once it is probed past the member's write (the
            # last probe may be up to PROBE_INTERVAL older than the replay)
            wait_for(lambda: replicated.replica_read(last_note(member)) == (1, replica_port), "a read on the replica",
                     timeout=30)
            for _ in range(20):
                assert replicated.replica_read(last_note(member)) == (1, replica_port)


def test_a_write_records_nothing_for_a_read_only_transaction(replicated):
    member = str(uuid.uuid4())
    with acting_as(member):
        with replicated.transaction() as session:
            session.execute(text("SELECT count(*) FROM notes"))
    assert replicated.replicas is not None and replicated.replicas.positions.get(f"/{member}") is None


def last_note_on_driver(writer: str):
    """The same read on the psycopg connection itself, as the home page's hot path runs it."""
    def work(connection: Connection) -> tuple[int | None, int]:
        row = driver_connection(connection).execute(
            "SELECT (SELECT max(n) FROM notes WHERE writer = %s), inet_server_port()", (writer,)).fetchone()
        assert row is not None
        return row[0], row[1]
    return work


@pytest.mark.parametrize("reading", [last_note, last_note_on_driver], ids=["statement", "driver"])
def test_a_replica_stopped_under_load_costs_no_error_and_reads_come_back(replicated, postgres_cluster, reading):
    # Given readers reading all the time, a member writing and reading, and the replica serving
    member = str(uuid.uuid4())
    with acting_as(member):
        write_note(replicated, member, 0)
    postgres_cluster.wait_replayed(timeout=30)
    replica_port = postgres_cluster.port("replica")
    ports: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                with acting_as(None):
                    seen, port = replicated.replica_read(reading(member))
                assert seen is not None
                ports.append(port)
            except BaseException as error:  # every failure is the test's to report
                errors.append(error)

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                with acting_as(member):
                    write_note(replicated, member, n)
                    seen, _ = replicated.replica_read(reading(member))
                assert seen == n, f"read {seen} after writing {n}"
            except BaseException as error:
                errors.append(error)

    threads = [threading.Thread(target=reader) for _ in range(3)] + [threading.Thread(target=writer)]
    for thread in threads:
        thread.start()
    try:
        wait_for(lambda: replica_port in ports[-20:], "reads on the replica", timeout=30)
        # When the replica stops under that load
        postgres_cluster.stop_replica()
        stopped_at = len(ports)
        try:
            # Then reads go on, from the primary
            wait_for(lambda: len(ports) > stopped_at + 100, "reads while the replica is down", timeout=60)
        finally:
            postgres_cluster.start_replica()
        # And once it is back, reads return to it
        back_at = len(ports)
        wait_for(lambda: replica_port in ports[back_at:], "reads back on the replica", timeout=60)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert errors == []
    assert postgres_cluster.port("primary") in ports[stopped_at:back_at]


def test_a_statement_error_on_the_replica_is_the_callers(replicated):
    # A failing statement is not a failing replica: it is raised, never run again on the primary.
    with acting_as(None), pytest.raises(Exception, match="no_such_table"):
        replicated.replica_read(lambda connection: connection.execute(text("SELECT * FROM no_such_table")).all())
