"""Read replicas with read-your-writes on a real primary and streaming standby (devstack.replication):
a member always reads their own write, other reads are the replica's, and a replica that stops costs
no error (the primary answers) until it is back."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
import redis
from sqlalchemy import Connection, text

from devstack.processes import wait_for
from feeds_runtime import context
from feeds_runtime.db import Database, make_engine
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
    replicas = ReplicaSet([make_engine(postgres_cluster.url(name, "replica"), pool_size=4)], positions,
                          "replica-test", max_lag_seconds=30)
    database = Database(make_engine(postgres_cluster.url(name, "primary"), pool_size=4), replicas)
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
    for actor in (member, None):
        with acting_as(actor):
            # Then their reads run on the replica (it is probed on the first one)
            for _ in range(20):
                seen, port = replicated.replica_read(last_note(member))
                assert (seen, port) == (1, postgres_cluster.port("replica"))


def test_a_write_records_nothing_for_a_read_only_transaction(replicated):
    member = str(uuid.uuid4())
    with acting_as(member):
        with replicated.transaction() as session:
            session.execute(text("SELECT count(*) FROM notes"))
    assert replicated.replicas is not None and replicated.replicas.positions.get(f"/{member}") is None


def test_a_stopped_replica_costs_no_error_and_reads_come_back_when_it_does(replicated, postgres_cluster):
    member = str(uuid.uuid4())
    with acting_as(member):
        write_note(replicated, member, 7)
    postgres_cluster.wait_replayed(timeout=30)
    replica_port = postgres_cluster.port("replica")

    def read() -> int:
        with acting_as(None):
            seen, port = replicated.replica_read(last_note(member))
        assert seen == 7
        return port

    wait_for(lambda: read() == replica_port, "a read on the replica", timeout=30)
    # When the replica stops, the pooled connections to it dead
    postgres_cluster.stop_replica()
    try:
        # Then every read answers, from the primary
        for _ in range(50):
            assert read() == postgres_cluster.port("primary")
    finally:
        postgres_cluster.start_replica()
    # And once it is back, reads return to it
    wait_for(lambda: read() == replica_port, "reads back on the replica", timeout=60)


def test_a_statement_error_on_the_replica_is_the_callers(replicated):
    # A failing statement is not a failing replica: it is raised, never run again on the primary.
    with acting_as(None), pytest.raises(Exception, match="no_such_table"):
        replicated.replica_read(lambda connection: connection.execute(text("SELECT * FROM no_such_table")).all())
