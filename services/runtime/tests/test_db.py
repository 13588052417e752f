"""Database sessions: `read()` runs outside any transaction, and a database restart (every pooled
connection cut by the server) costs at most one failed call, after which reads, transactions and the
readiness ping work again, with no pre-ping on checkout. A node that refuses writes (a demoted primary
or a standby) counts as a disconnect, and with a list of hosts new connections go first to the host
that gave the last one."""

from __future__ import annotations

import socket
import threading
import uuid
from contextlib import ExitStack

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from feeds_runtime.db import Database, make_engine
from feeds_runtime.interceptors import store_unavailable

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


def test_a_node_refusing_writes_is_a_retryable_disconnect(database_url):
    # Given connections whose node accepts reads only, as a demoted primary or a standby does
    database = Database(make_engine(database_url, pool_size=2, session_settings={"default_transaction_read_only": "on"}))
    try:
        # When a transaction writes, it fails with 25006 (read-only transaction)
        with pytest.raises(DBAPIError) as caught:
            with database.transaction() as session:
                session.execute(text("CREATE TEMPORARY TABLE refused (id int)"))
        # Then the connection is dropped as after a disconnect, and a caller hears UNAVAILABLE
        assert getattr(caught.value.orig, "sqlstate", None) == "25006"
        assert caught.value.connection_invalidated
        assert store_unavailable(caught.value)
    finally:
        database.engine.dispose()


class GoneHost:
    """A listening port that drops every connection at once, as a host whose PostgreSQL is gone; it
    counts the connections it was offered."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.offered = 0
        threading.Thread(target=self._drop, daemon=True).start()

    def _drop(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.offered += 1
            connection.close()

    def close(self) -> None:
        self.listener.close()


def test_new_connections_try_the_host_that_gave_the_last_one_first(database_url):
    # Given a URL listing a gone host before the live one
    gone = GoneHost()
    live = make_url(database_url)
    _, params = live.get_dialect()().create_connect_args(live)
    listed = live.set(host=None, port=None, query={
        **{name: value for name, value in live.query.items() if name not in ("host", "port")},
        "host": f"127.0.0.1,{params['host']}", "port": f"{gone.port},{params.get('port', '')}"})
    database = Database(make_engine(listed.render_as_string(hide_password=False), pool_size=1))
    try:
        # When connections are opened one after another, each a new one
        for _ in range(5):
            database.ping()
            database.engine.dispose()
        # Then only the first tried the gone host: the others went to the live one first
        assert gone.offered == 1
    finally:
        database.engine.dispose()
        gone.close()
