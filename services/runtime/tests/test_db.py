"""Database sessions: `read()` runs outside any transaction, and a database restart (every pooled
connection cut by the server) costs at most one failed call, after which reads, transactions and the
readiness ping work again, with no pre-ping on checkout."""

from __future__ import annotations

import uuid
from contextlib import ExitStack

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from feeds_runtime.db import Database, make_engine

POOL = 3


@pytest.fixture
def database(database_url):
    # A name of its own, so the test cuts only this pool's connections.
    name = f"db-test-{uuid.uuid4().hex[:8]}"
    database = Database(make_engine(database_url, pool_size=POOL, application_name=name))
    yield database, name
    database.engine.dispose()


def fill_pool(database: Database) -> None:
    """Hold POOL connections at once, so the pool keeps that many open after they are returned."""
    with ExitStack() as stack:
        for _ in range(POOL):
            stack.enter_context(database.engine.connect()).execute(text("SELECT 1"))


def cut_connections(database: Database, name: str) -> int:
    """What a PostgreSQL restart does to the pool: the server ends every backend it has."""
    with database.engine.connect() as admin:
        # The admin connection itself is one of the pool's; it is cut as well.
        return admin.execute(
            text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                 "WHERE application_name = :name AND pid <> pg_backend_pid()"),
            {"name": name},
        ).scalar_one() + 1


def test_read_runs_outside_a_transaction(database):
    db, _ = database
    with db.read() as connection:
        # now() differs between statements only outside a transaction block.
        first = connection.execute(text("SELECT now()")).scalar_one()
        second = connection.execute(text("SELECT pg_sleep(0.01), now()")).one()[1]
        assert second > first
    with db.transaction() as session:
        first = session.execute(text("SELECT now()")).scalar_one()
        second = session.execute(text("SELECT pg_sleep(0.01), now()")).one()[1]
        assert second == first


@pytest.mark.parametrize("first_call", ["read", "ping"])
def test_restart_costs_at_most_one_failed_call(database, first_call):
    db, name = database
    fill_pool(db)
    assert cut_connections(db, name) >= POOL

    def read() -> None:
        with db.read() as connection:
            assert connection.execute(text("SELECT 1")).scalar_one() == 1

    def write() -> None:
        with db.transaction() as session:
            assert session.execute(text("SELECT 2")).scalar_one() == 2

    calls = {"read": read, "ping": db.ping}
    failures = 0
    # Sequential calls cycle through the pool: without invalidation each stale connection would fail once.
    for call in [calls[first_call], read, write, db.ping, read, write, read]:
        try:
            call()
        except DBAPIError as error:
            assert error.connection_invalidated
            failures += 1
    assert failures <= 1
    fill_pool(db)  # every connection the pool holds now is live
