"""SQLAlchemy 2 engine and sessions over psycopg 3.

Services never commit: the RPC or actor boundary opens `transaction()` and owns the commit, or
`read()` for a read that is one statement, or `replica_read()` for a read that tolerates lag (it runs
on a read replica when the service has one, feeds_runtime.replicas).

No pre-ping on checkout: it costs a round trip on every call. When PostgreSQL restarts, the first
statement on a dead pooled connection fails; SQLAlchemy recognises the disconnect and invalidates the
whole pool, so the call after it (and the readiness check) opens fresh connections.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import psycopg
from sqlalchemy import Connection, CursorResult, Engine, MetaData, Result, create_engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from feeds_runtime.context import writer_key
from feeds_runtime.observability.pool import metered_pool_class
from feeds_runtime.replicas import WRITE_POSITION, WROTE, ReplicaSet, count_read

T = TypeVar("T")

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


def _connection_failed(error: Exception) -> bool:
    """A failure of the connection or the server rather than of the statement: a refused or cut
    connection, a server shutting down, a query cancelled by a standby's recovery. A hot read on the
    driver connection raises psycopg's own error, unwrapped."""
    if isinstance(error, DBAPIError):
        return error.connection_invalidated or isinstance(error.orig, psycopg.OperationalError)
    return isinstance(error, psycopg.OperationalError)


class Database:
    def __init__(self, engine: Engine, replicas: ReplicaSet | None = None) -> None:
        self.engine = engine
        self.replicas = replicas
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: commit on success, roll back on any exception. With replicas, a member's
        write also records the WAL position after its commit, so their next reads see it."""
        writer = writer_key() if self.replicas is not None else None
        if writer is None:
            with self._sessions.begin() as session:
                yield session
            return
        assert self.replicas is not None
        # The session is bound to one connection, so the position is read on it after the commit.
        with self.engine.connect() as connection:
            with Session(bind=connection, expire_on_commit=False) as session:
                with session.begin():
                    yield session
                    wrote = session.execute(WROTE).scalar_one()
            if wrote:
                # The write has committed: failing to read its position must not fail the call.
                try:
                    position = self._position_after_commit(connection)
                except psycopg.Error as error:
                    self.replicas.position_unrecorded(error)
                else:
                    self.replicas.record_write(writer, position)

    @staticmethod
    def _position_after_commit(connection: Connection) -> int:
        # On the driver connection in autocommit: one round trip, no BEGIN and ROLLBACK around it.
        driver = driver_connection(connection)
        driver.autocommit = True
        try:
            row = driver.execute(WRITE_POSITION).fetchone()
        finally:
            driver.autocommit = False
        assert row is not None
        return int(row[0])

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection in autocommit mode for a read that is a single statement (atomic by itself):
        no BEGIN and COMMIT round trips and no ORM session around it. Same `execute` as a session."""
        with self._autocommit.connect() as connection:
            yield connection

    def replica_read(self, work: Callable[[Connection], T]) -> T:
        """`work(connection)` for a read that tolerates replication lag, in autocommit as `read()`: on a
        replica that has replayed the calling member's last write, else on the primary. A replica
        failing on its connection costs nothing but time: `work` runs again on the primary."""
        if self.replicas is None:
            with self.read() as connection:
                return work(connection)
        choice = self.replicas.choose(writer_key())
        reason = choice.reason
        if choice.replica is not None:
            try:
                with choice.replica.engine.connect() as connection:
                    try:
                        result = work(connection)
                    except psycopg.Error as error:
                        # SQLAlchemy did not see it: the connection goes, not back to the pool.
                        if _connection_failed(error):
                            connection.invalidate()
                        raise
            except (DBAPIError, psycopg.Error) as error:
                if not _connection_failed(error):
                    raise
                self.replicas.failed(choice.replica, error)
                reason = "replica_failed"
            else:
                count_read(self.replicas.application, "replica")
                return result
        with self.read() as connection:
            result = work(connection)
        count_read(self.replicas.application, "primary", reason)
        return result

    def ping(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.engine.dispose()
        if self.replicas is not None:
            self.replicas.dispose()
