"""Transactional outbox.

`add()` writes a job row in the caller's transaction. The relay claims unsent rows with
`FOR UPDATE SKIP LOCKED`, enqueues them on Dramatiq and marks them enqueued in the same
transaction. The actor's success acknowledges its row (`OutboxAck`). A row enqueued but never
acknowledged — the relay died before its commit, Redis lost the message, a worker died — is sent
again after `redeliver_after`, so every job runs at least once; actors are idempotent, so its
effect happens once.
"""

from __future__ import annotations

import logging
import select as io_select
import threading
from datetime import timedelta
from collections.abc import Callable, Sequence
from typing import Any

import dramatiq
import psycopg
from dramatiq.broker import MessageProxy
from dramatiq.middleware import Middleware
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    DateTime,
    Engine,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Session

from feeds_runtime import context
from feeds_runtime.jobs import OUTBOX_ID_OPTION, REQUEST_ID_OPTION

log = logging.getLogger("feeds.outbox")

TABLE_NAME = "outbox"


def outbox_table(metadata: MetaData) -> Table:
    """The outbox table in a service's schema (add it to the service's models and first migration)."""
    return Table(
        TABLE_NAME,
        metadata,
        Column("id", BigInteger, primary_key=True, autoincrement=True),
        Column("queue_name", String(100), nullable=False),
        Column("actor_name", String(100), nullable=False),
        Column("args", JSONB, nullable=False),
        Column("request_id", String(64)),
        Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("enqueued_at", DateTime(timezone=True)),
        Column("acked_at", DateTime(timezone=True)),
        Column("attempts", Integer, nullable=False, server_default="0"),
        # What the relay scans: the rows not yet acknowledged.
        Index("ix_outbox_pending", "id", postgresql_where=text("acked_at IS NULL")),
    )


def create_outbox(connection: Connection, schema: str) -> None:
    """The outbox table with its pending index, and the NOTIFY trigger that wakes the relay (a
    service's first Alembic revision calls this with `op.get_bind()`)."""
    outbox_table(MetaData(schema=schema)).create(connection)
    for statement in [
        f"""
        CREATE OR REPLACE FUNCTION "{schema}".outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_notify('{schema}_outbox', ''); RETURN NULL; END $$
        """,
        f"""
        CREATE TRIGGER outbox_notify AFTER INSERT ON "{schema}".{TABLE_NAME}
        FOR EACH STATEMENT EXECUTE FUNCTION "{schema}".outbox_notify()
        """,
    ]:
        connection.execute(text(statement))


def add(session: Session, table: Table, queue_name: str, actor_name: str, *args: Any) -> None:
    """Record a job in the caller's transaction; it reaches Dramatiq only if the transaction commits."""
    add_many(session, table, queue_name, actor_name, [args])


def add_many(session: Session, table: Table, queue_name: str, actor_name: str, args_list: Sequence[Sequence[Any]]) -> None:
    if not args_list:
        return
    rid = context.request_id.get()
    session.execute(
        insert(table),
        [{"queue_name": queue_name, "actor_name": actor_name, "args": list(args), "request_id": rid} for args in args_list],
    )


class OutboxAck(Middleware):
    """Marks an outbox row acknowledged once its actor has succeeded."""

    def __init__(self, engine: Engine, table: Table) -> None:
        self._engine = engine
        self._table = table

    def after_process_message(self, broker: Any, message: MessageProxy, *, result=None, exception=None) -> None:
        outbox_id = message.options.get(OUTBOX_ID_OPTION)
        if exception is not None or outbox_id is None:
            return
        with self._engine.begin() as connection:
            connection.execute(
                update(self._table)
                .where(self._table.c.id == outbox_id, self._table.c.acked_at.is_(None))
                .values(acked_at=func.now())
            )


class Relay:
    def __init__(
        self,
        engine: Engine,
        table: Table,
        broker: dramatiq.Broker,
        *,
        batch_size: int = 500,
        redeliver_after: float = 60.0,
        max_attempts: int = 20,
        poll_seconds: float = 1.0,
        on_cycle: Callable[[], None] | None = None,
    ) -> None:
        self._engine = engine
        self._table = table
        self._broker = broker
        self._batch_size = batch_size
        self._redeliver_after = redeliver_after
        self._max_attempts = max_attempts
        self._poll = poll_seconds
        # Called on every turn of the loop (the liveness heartbeat).
        self._on_cycle = on_cycle or (lambda: None)
        self._stop = threading.Event()

    def relay_once(self) -> int:
        """Claim, enqueue and mark one batch; returns how many rows were sent."""
        t = self._table
        with self._engine.begin() as connection:
            due = or_(t.c.enqueued_at.is_(None), t.c.enqueued_at < func.now() - timedelta(seconds=self._redeliver_after))
            rows = connection.execute(
                select(t.c.id, t.c.queue_name, t.c.actor_name, t.c.args, t.c.request_id)
                .where(t.c.acked_at.is_(None), t.c.attempts < self._max_attempts, due)
                .order_by(t.c.id)
                .limit(self._batch_size)
                .with_for_update(skip_locked=True)
            ).all()
            for row in rows:
                self._broker.enqueue(
                    dramatiq.Message(
                        queue_name=row.queue_name,
                        actor_name=row.actor_name,
                        args=tuple(row.args),
                        kwargs={},
                        options={OUTBOX_ID_OPTION: row.id, REQUEST_ID_OPTION: row.request_id},
                    )
                )
            if rows:
                connection.execute(
                    update(t)
                    .where(t.c.id.in_([row.id for row in rows]))
                    .values(enqueued_at=func.now(), attempts=t.c.attempts + 1)
                )
        return len(rows)

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        """Relay until stopped: woken by NOTIFY on insert, polling as a fallback and for redelivery."""
        channel = f"{self._table.schema}_outbox"
        url = self._engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as listener:
                    listener.execute(f'LISTEN "{channel}"')
                    while not self._stop.is_set():
                        self._on_cycle()
                        while self.relay_once() == self._batch_size:
                            pass
                        # Wait for a NOTIFY or the poll interval, whichever comes first.
                        ready, _, _ = io_select.select([listener.fileno()], [], [], self._poll)
                        if ready:
                            for _ in listener.notifies(timeout=0):
                                pass
            except Exception:
                log.exception("relay error; retrying")
                self._on_cycle()  # alive and retrying: a database outage is not a hung relay
                self._stop.wait(1.0)
