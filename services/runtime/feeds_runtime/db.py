"""SQLAlchemy 2 engine and sessions over psycopg 3.

Services never commit: the RPC or actor boundary opens `transaction()` and owns the commit, or
`read()` for a read that is one statement, or `replica_read()` for a read that tolerates lag (it runs
on a read replica when the service has one, feeds_runtime.replicas).

No pre-ping on checkout: it costs a round trip on every call. When PostgreSQL restarts, the first
statement on a dead pooled connection fails; SQLAlchemy recognises the disconnect and invalidates the
whole pool, so the call after it (and the readiness check) opens fresh connections.

`DATABASE_URL` may list several hosts with `target_session_attrs=read-write` (libpq's multi-host
URL): a connection goes to whichever of them is the primary, so after a standby's promotion the
fresh connections find the new primary. A node that is no longer the primary (read-only, shutting
down) counts as a disconnect too, and new connections try the host that last gave one first
(docs/architecture.md, "PostgreSQL failover").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import psycopg
from psycopg.conninfo import make_conninfo
from sqlalchemy import Connection, CursorResult, Engine, MetaData, Result, create_engine, event, text
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

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


# Errors that leave a connection open but of no further use: the node it reached is not the primary
# any more (25006, a write in a read-only transaction: a demoted node or a standby) or is going away
# (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now). As for a dropped connection,
# SQLAlchemy then invalidates the pool, the caller hears a retryable error and the next connections
# go to whichever host is the primary.
NOT_PRIMARY_SQLSTATES = frozenset({"25006", "57P01", "57P02", "57P03"})


def _not_primary(context: ExceptionContext) -> None:
    if getattr(context.original_exception, "sqlstate", None) in NOT_PRIMARY_SQLSTATES:
        context.is_disconnect = True


class PrimaryFirst:
    """Host order for a multi-host URL. libpq tries the hosts in the order given, waiting up to
    `connect_timeout` on one that does not answer (a host gone from the network) before the next, on
    every new connection; so each connection tries first the host that gave the last one. After a
    failover, only the connections opened until one reaches the new primary wait for the old one."""

    def __init__(self) -> None:
        self.last: tuple[str, int] | None = None

    def order(self, dialect: object, record: ConnectionPoolEntry, cargs: list[object],
              cparams: dict[str, object]) -> None:
        hosts = str(cparams.get("host", "")).split(",")
        if self.last is None or len(hosts) < 2:
            return
        ports = str(cparams.get("port", "")).split(",")
        pairs = list(zip(hosts, ports if len(ports) == len(hosts) else ports * len(hosts), strict=True))
        host, port = self.last
        first = next((pair for pair in pairs if pair[0] == host and pair[1] in ("", str(port))), None)
        if first is not None:
            pairs.remove(first)
            cparams["host"] = ",".join(pair[0] for pair in [first, *pairs])
            cparams["port"] = ",".join(pair[1] for pair in [first, *pairs])

    def remember(self, dbapi_connection: psycopg.Connection, record: ConnectionPoolEntry) -> None:
        self.last = (dbapi_connection.info.host, dbapi_connection.info.port)


def make_engine(database_url: str, *, pool_size: int = 10, application_name: str = "feeds",
                session_settings: Mapping[str, str] | None = None) -> Engine:
    """`session_settings`: PostgreSQL settings every connection starts with (besides the UTC time
    zone), sent in the startup packet (libpq `options`), so they cost no round trip."""
    connect_args: dict[str, object] = {"application_name": application_name, "connect_timeout": 5}
    settings = {**SESSION_TIMEZONE, **(session_settings or {})}
    connect_args["options"] = " ".join(f"-c {name}={value}" for name, value in settings.items())
    engine = create_engine(
        database_url,
        poolclass=metered_pool_class(application_name),
        pool_size=pool_size,
        max_overflow=pool_size,
        connect_args=connect_args,
    )
    event.listen(engine, "handle_error", _not_primary)
    hosts = PrimaryFirst()
    event.listen(engine, "do_connect", hosts.order)
    event.listen(engine, "connect", hosts.remember)
    return engine


def libpq_conninfo(database_url: str) -> str:
    """The libpq connection string of a SQLAlchemy URL (`normalize_database_url`'s), its host list
    included, for a connection of psycopg's own."""
    url = make_url(database_url)
    _, params = url.get_dialect()().create_connect_args(url)
    return make_conninfo("", **{name: value for name, value in params.items() if name != "context"})


def dedicated_connection(engine: Engine) -> psycopg.Connection:
    """A connection of the engine's (its host order, time-outs and session settings) that leaves its
    pool and is closed by whoever holds it: for a session kept open, such as a LISTEN."""
    pooled = engine.raw_connection()
    connection = cast(psycopg.Connection, pooled.driver_connection)
    pooled.detach()
    return connection


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
