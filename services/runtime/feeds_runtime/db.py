"""SQLAlchemy 2 engine and sessions over psycopg 3.

Services never commit: the RPC or actor boundary opens `transaction()` and owns the commit, or
`read()` for a read that is one statement.

No pre-ping on checkout: it costs a round trip on every call. When PostgreSQL restarts, the first
statement on a dead pooled connection fails; SQLAlchemy recognises the disconnect and invalidates the
whole pool, so the call after it (and the readiness check) opens fresh connections.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

import psycopg
from sqlalchemy import Connection, CursorResult, Engine, MetaData, Result, create_engine, text
from sqlalchemy.orm import Session, sessionmaker

from feeds_runtime.observability.pool import metered_pool_class

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def schema_metadata(schema: str) -> MetaData:
    """Metadata for one service: every table in the service's own schema, constraints named."""
    return MetaData(schema=schema, naming_convention=NAMING_CONVENTION)


# What a repository runs its statements on: the caller's session (a transaction), or an autocommit
# connection for a read that is one statement (`Database.read()`).
Executor = Session | Connection


def affected(result: Result[Any]) -> int:
    """How many rows an INSERT, UPDATE or DELETE touched. `Session.execute` is declared to return a
    plain `Result`; for such a statement it is always a `CursorResult`, which counts them."""
    return cast(CursorResult[Any], result).rowcount


# Every connection speaks UTC, whatever the server's default: psycopg then loads timestamptz values
# with `datetime.timezone.utc`, whose arithmetic and offsets cost a fraction of a `ZoneInfo`'s (as
# 'Etc/UTC', a common server default, would give).
SESSION_TIMEZONE = {"timezone": "UTC"}


def make_engine(database_url: str, *, pool_size: int = 10, application_name: str = "feeds",
                session_settings: Mapping[str, str] | None = None) -> Engine:
    """`session_settings`: PostgreSQL settings every connection starts with (besides the UTC time
    zone), sent in the startup packet (libpq `options`), so they cost no round trip."""
    connect_args: dict[str, object] = {"application_name": application_name, "connect_timeout": 5}
    settings = {**SESSION_TIMEZONE, **(session_settings or {})}
    connect_args["options"] = " ".join(f"-c {name}={value}" for name, value in settings.items())
    return create_engine(
        database_url,
        poolclass=metered_pool_class(application_name),
        pool_size=pool_size,
        max_overflow=pool_size,
        connect_args=connect_args,
    )


def driver_connection(executor: Executor) -> psycopg.Connection:
    """The psycopg connection under a session or connection (in its transaction, if any): for a hot
    read whose rows go straight to tuples, skipping SQLAlchemy's statement and result layers.
    Placeholders are psycopg's (`%(name)s`); psycopg still prepares a statement it sees repeatedly."""
    connection = executor.connection() if isinstance(executor, Session) else executor
    return cast(psycopg.Connection, connection.connection.driver_connection)


class Database:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: commit on success, roll back on any exception."""
        with self._sessions.begin() as session:
            yield session

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection in autocommit mode for a read that is a single statement (atomic by itself):
        no BEGIN and COMMIT round trips and no ORM session around it. Same `execute` as a session."""
        with self._autocommit.connect() as connection:
            yield connection

    def ping(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
