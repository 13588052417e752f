"""Transactional outbox with leased delivery.

`add()` writes a job row in the caller's transaction. The relay claims due rows with
`FOR UPDATE SKIP LOCKED`, enqueues them on Dramatiq and marks them sent in the same transaction.
The Redis message is only a notification; the row is the record, and it says where the job stands:

- sent, not started: the message waits in Redis. The relay checks that Redis still knows it and
  sends it again at once when it does not (Redis flushed or restarted empty, a message dropped);
- running: the worker holds a short lease on the row (`OutboxLeases`), extended every third of its
  length while the job runs. A lease that lapses means the worker died or hangs: the relay sends
  the job again as soon as it has;
- failed: the worker releases the row with a backoff; the relay sends it again when that is over
  (the outbox is the only retry mechanism: Dramatiq's own retries are off, see `jobs`);
- acknowledged: done. The acknowledgement is retried across a database blip.

A message whose row is acknowledged or leased by a live job is skipped, so a duplicated message,
a second relay or a redelivery after a false alarm never runs a job twice at once, and a job's
effect happens once (actors are idempotent as well).
"""

from __future__ import annotations

import logging
import select as io_select
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import dramatiq
from dramatiq.broker import MessageProxy
from dramatiq.middleware import Middleware, SkipMessage
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
    and_,
    bindparam,
    func,
    insert,
    literal,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from feeds_runtime import context
from feeds_runtime.db import dedicated_connection
from feeds_runtime.events import EventLog
from feeds_runtime.jobs import OUTBOX_ID_OPTION, REQUEST_ID_OPTION
from feeds_runtime.observability import tracing

log = logging.getLogger("feeds.outbox")

TABLE_NAME = "outbox"
# Backoff of a failed job before it is sent again, unless its actor sets `min_backoff` / `max_backoff` (ms).
DEFAULT_MIN_BACKOFF_MS = 200
DEFAULT_MAX_BACKOFF_MS = 30_000


def outbox_table(metadata: MetaData) -> Table:
    """The outbox table in a service's schema (add it to the service's models and migrations)."""
    return Table(
        TABLE_NAME,
        metadata,
        Column("id", BigInteger, primary_key=True, autoincrement=True),
        Column("queue_name", String(100), nullable=False),
        Column("actor_name", String(100), nullable=False),
        Column("args", JSONB, nullable=False),
        Column("request_id", String(64)),
        # W3C trace context of the span that recorded the job (`tracing.current_context()`); null
        # outside any trace. The relay sends the job's message under it.
        Column("trace_context", JSONB),
        Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Column("enqueued_at", DateTime(timezone=True)),
        Column("acked_at", DateTime(timezone=True)),
        Column("attempts", Integer, nullable=False, server_default="0"),
        # Redis id of the message last sent for the row, to ask Redis whether it still holds it.
        Column("message_id", String(64)),
        # The running job's claim: who holds it and until when, unless extended.
        Column("lease_token", String(64)),
        Column("lease_until", DateTime(timezone=True)),
        # A failed job is not sent again before this.
        Column("available_at", DateTime(timezone=True)),
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


LEASE_COLUMNS = ("message_id", "lease_token", "lease_until", "available_at")
TRACE_CONTEXT_COLUMNS = ("trace_context",)


def add_columns(connection: Connection, schema: str, names: Sequence[str]) -> None:
    """Columns of `outbox_table`, as it declares them, for an outbox created before them (each a
    no-op where the column exists: a newer outbox has it from its first revision)."""
    declared = outbox_table(MetaData(schema=schema)).c
    columns = ", ".join(f"ADD COLUMN IF NOT EXISTS {name} {declared[name].type.compile(dialect=connection.dialect)}"
                        for name in names)
    connection.execute(text(f'ALTER TABLE "{schema}".{TABLE_NAME} {columns}'))


def add_leases(connection: Connection, schema: str) -> None:
    """The columns of leased delivery."""
    add_columns(connection, schema, LEASE_COLUMNS)


def add(session: Session, table: Table, queue_name: str, actor_name: str, *args: Any) -> None:
    """Record a job in the caller's transaction; it reaches Dramatiq only if the transaction commits."""
    add_many(session, table, queue_name, actor_name, [args])


def add_many(session: Session, table: Table, queue_name: str, actor_name: str, args_list: Sequence[Sequence[Any]]) -> None:
    if not args_list:
        return
    rid = context.request_id.get()
    trace_context = tracing.current_context()
    session.execute(
        insert(table),
        [{"queue_name": queue_name, "actor_name": actor_name, "args": list(args), "request_id": rid,
          "trace_context": trace_context} for args in args_list],
    )


def _seconds_from_now(seconds: Any):
    return func.now() + seconds * literal_column("interval '1 second'")


def _retrying(operation: Callable[[], Any], seconds: float, what: str) -> Any:
    """Run a database operation, retrying it for up to `seconds` while the database is away."""
    deadline = time.monotonic() + seconds
    delay = 0.05
    while True:
        try:
            return operation()
        except SQLAlchemyError:
            if time.monotonic() + delay > deadline:
                raise
            log.warning("%s failed; retrying", what, exc_info=log.isEnabledFor(logging.DEBUG))
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class OutboxLeases(Middleware):
    """The worker's side of leased delivery.

    Before a job runs, one UPDATE claims its row: only an unacknowledged row that no live job holds
    can be claimed, and a message whose row cannot be is skipped. While the job runs, a thread of
    the worker extends the leases it holds every third of `lease_seconds`. Afterwards the row is
    acknowledged (success) or released with a backoff (failure); both are retried while the
    database is away, for up to `settle_seconds`, with the lease still extended meanwhile.
    """

    @property
    def actor_options(self) -> set[str]:
        return {"min_backoff", "max_backoff"}

    def __init__(self, engine: Engine, table: Table, *, lease_seconds: float = 5.0, settle_seconds: float = 60.0) -> None:
        self._engine = engine
        self._table = table
        self._lease_seconds = lease_seconds
        self._settle_seconds = settle_seconds
        self._held: dict[str, int] = {}  # lease token -> outbox id
        self._held_lock = threading.Lock()
        self._current = threading.local()  # the token of the job this worker thread runs
        self._stop = threading.Event()
        t = table
        self._claim = (
            update(t)
            .where(t.c.id == bindparam("outbox_id"), t.c.acked_at.is_(None),
                   or_(t.c.lease_until.is_(None), t.c.lease_until < func.now()))
            .values(lease_token=bindparam("token"), lease_until=self._lease_end())
            .returning(t.c.id)
        )
        self._renew = (
            update(t)
            .where(t.c.lease_token.in_(bindparam("tokens", expanding=True)), t.c.acked_at.is_(None))
            .values(lease_until=self._lease_end())
        )
        self._ack = (
            update(t)
            .where(t.c.id == bindparam("outbox_id"), t.c.acked_at.is_(None))
            .values(acked_at=func.now(), lease_token=None, lease_until=None)
        )
        backoff_seconds = func.least(
            bindparam("max_backoff"), bindparam("min_backoff") * func.power(2, func.greatest(t.c.attempts - 1, 0))
        )
        self._release = (
            update(t)
            .where(t.c.id == bindparam("outbox_id"), t.c.lease_token == bindparam("token"), t.c.acked_at.is_(None))
            .values(lease_token=None, lease_until=None, enqueued_at=None,
                    available_at=_seconds_from_now(backoff_seconds))
        )

    def _lease_end(self):
        return _seconds_from_now(literal(self._lease_seconds))

    # Worker process lifecycle: the renewing thread lives in each forked worker process.

    def after_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        threading.Thread(target=self._renew_loop, name="outbox-leases", daemon=True).start()

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        # Only once the jobs a stopping worker lets finish are done: their leases hold until then.
        self._stop.set()

    def _renew_loop(self) -> None:
        while not self._stop.wait(self._lease_seconds / 3):
            with self._held_lock:
                tokens = list(self._held)
            if not tokens:
                continue
            try:
                with self._engine.begin() as connection:
                    connection.execute(self._renew, {"tokens": tokens})
            except SQLAlchemyError:
                log.warning("could not extend %d job leases; retrying", len(tokens))

    # One message.

    def before_process_message(self, broker: dramatiq.Broker, message: MessageProxy) -> None:
        self._current.token = None
        outbox_id = message.options.get(OUTBOX_ID_OPTION)
        if outbox_id is None:
            return
        token = uuid.uuid4().hex
        try:
            claimed = _retrying(lambda: self._execute(self._claim, outbox_id=outbox_id, token=token).first(),
                                self._lease_seconds, "job claim")
        except SQLAlchemyError:
            # The row stays sent and unclaimed; the relay sends it again once Redis has dropped this message.
            log.warning("job claim failed; the job is sent again later", extra={"outbox_id": outbox_id})
            raise SkipMessage() from None
        if claimed is None:
            raise SkipMessage()  # acknowledged already, or a live job holds it
        with self._held_lock:
            self._held[token] = outbox_id
        self._current.token = token

    def after_process_message(self, broker: dramatiq.Broker, message: MessageProxy, *, result=None,
                              exception=None) -> None:
        token = getattr(self._current, "token", None)
        if token is None:
            return
        self._current.token = None
        outbox_id = message.options[OUTBOX_ID_OPTION]
        try:
            if exception is None:
                _retrying(lambda: self._execute(self._ack, outbox_id=outbox_id), self._settle_seconds, "acknowledgement")
            else:
                min_ms, max_ms = self._backoff_ms(broker, message)
                _retrying(lambda: self._execute(self._release, outbox_id=outbox_id, token=token,
                                                min_backoff=min_ms / 1000, max_backoff=max_ms / 1000),
                          self._settle_seconds, "job release")
        except SQLAlchemyError:
            # The lease lapses and the relay sends the job again: at worst one more idempotent run.
            log.error("could not settle a job; it runs again", extra={"outbox_id": outbox_id})
        finally:
            with self._held_lock:
                self._held.pop(token, None)

    def after_skip_message(self, broker: dramatiq.Broker, message: MessageProxy) -> None:
        token = getattr(self._current, "token", None)
        if token is not None:  # claimed here, then skipped by a later middleware: let it be sent again
            self.after_process_message(broker, message, exception=SkipMessage())

    def _execute(self, statement, **params):
        with self._engine.begin() as connection:
            return connection.execute(statement, params)

    @staticmethod
    def _backoff_ms(broker: dramatiq.Broker, message: MessageProxy) -> tuple[int, int]:
        try:
            options = broker.get_actor(message.actor_name).options
        except dramatiq.ActorNotFound:
            options = {}
        return (options.get("min_backoff", DEFAULT_MIN_BACKOFF_MS), options.get("max_backoff", DEFAULT_MAX_BACKOFF_MS))


def message_known(broker: Any, queue_names: Sequence[str], message_ids: Sequence[str]) -> list[bool]:
    """Whether Redis still holds each message (queued, or fetched by a worker and not yet acknowledged).
    Dramatiq's Redis broker keeps every such message in the hash `<namespace>:<queue>.msgs`."""
    pipeline = broker.client.pipeline(transaction=False)
    for queue_name, message_id in zip(queue_names, message_ids):
        pipeline.hexists(f"{broker.namespace}:{queue_name}.msgs", message_id)
    return [bool(known) for known in pipeline.execute()]


class Relay:
    def __init__(
        self,
        engine: Engine,
        table: Table,
        broker: dramatiq.Broker,
        *,
        batch_size: int = 500,
        check_batch_size: int = 5000,
        max_attempts: int = 20,
        poll_seconds: float = 1.0,
        on_cycle: Callable[[], None] | None = None,
        events: EventLog | None = None,
    ) -> None:
        self._engine = engine
        self._table = table
        self._broker = broker
        self._batch_size = batch_size
        self._check_batch_size = check_batch_size
        self._max_attempts = max_attempts
        self._poll = poll_seconds
        # Called on every turn of the loop (the liveness heartbeat).
        self._on_cycle = on_cycle or (lambda: None)
        # The service's event log, numbered and trimmed by the same loop (`feeds_runtime.events`).
        self._events = events
        self._stop = threading.Event()
        self._checked_upto = 0  # the presence check walks the sent rows in id order, batch by batch

    def _send(self, connection: Connection, rows: Sequence[Any]) -> None:
        """Enqueue rows locked by the caller's transaction and mark them sent."""
        if not rows:
            return
        t = self._table
        sent = []
        for row in rows:
            # The message takes the send span's context (`jobs.TraceContextMiddleware`).
            with tracing.producer_span(f"send {row.actor_name}", row.trace_context, {
                "messaging.system": "dramatiq", "messaging.operation.type": "send",
                "messaging.destination.name": row.queue_name, "feeds.outbox.id": row.id,
            }):
                message = self._broker.enqueue(
                    dramatiq.Message(
                        queue_name=row.queue_name,
                        actor_name=row.actor_name,
                        args=tuple(row.args),
                        kwargs={},
                        options={OUTBOX_ID_OPTION: row.id, REQUEST_ID_OPTION: row.request_id},
                    )
                )
            sent.append({"row_id": row.id, "sent_message_id": message.options["redis_message_id"]})
        connection.execute(
            update(t).where(t.c.id == bindparam("row_id")).values(
                enqueued_at=func.now(), attempts=t.c.attempts + 1, message_id=bindparam("sent_message_id"),
                lease_token=None, lease_until=None, available_at=None),
            sent,
        )

    def relay_once(self) -> int:
        """Send one batch of due rows: never sent, failed and past their backoff, or whose job's
        lease lapsed. Returns how many rows were sent."""
        t = self._table
        with self._engine.begin() as connection:
            due = or_(
                and_(t.c.enqueued_at.is_(None), or_(t.c.available_at.is_(None), t.c.available_at <= func.now())),
                t.c.lease_until < func.now(),
            )
            rows = connection.execute(
                select(t.c.id, t.c.queue_name, t.c.actor_name, t.c.args, t.c.request_id, t.c.trace_context)
                .where(t.c.acked_at.is_(None), t.c.attempts < self._max_attempts, due)
                .order_by(t.c.id)
                .limit(self._batch_size)
                .with_for_update(skip_locked=True)
            ).all()
            self._send(connection, rows)
        return len(rows)

    def recover_lost(self) -> int:
        """Send again the rows sent but not started whose message Redis no longer holds; returns how many."""
        t = self._table
        waiting = and_(t.c.acked_at.is_(None), t.c.enqueued_at.is_not(None), t.c.lease_until.is_(None))
        columns = (t.c.id, t.c.queue_name, t.c.actor_name, t.c.args, t.c.request_id, t.c.trace_context, t.c.message_id)
        with self._engine.connect() as connection:
            rows = connection.execute(
                select(*columns).where(waiting, t.c.id > self._checked_upto).order_by(t.c.id)
                .limit(self._check_batch_size)
            ).all()
        self._checked_upto = rows[-1].id if len(rows) == self._check_batch_size else 0
        suspects = [row.id for row, known in zip(rows, self._known(rows)) if not known]
        if not suspects:
            return 0
        with self._engine.begin() as connection:
            # Locked, then asked again: a worker may have claimed or finished one meanwhile.
            locked = connection.execute(
                select(*columns).where(waiting, t.c.id.in_(suspects)).with_for_update(skip_locked=True)
            ).all()
            lost = [row for row, known in zip(locked, self._known(locked)) if not known]
            self._send(connection, lost)
        if lost:
            log.warning("sent again %d jobs Redis no longer held", len(lost))
        return len(lost)

    def _known(self, rows: Sequence[Any]) -> list[bool]:
        if not rows:
            return []
        return message_known(self._broker, [row.queue_name for row in rows], [row.message_id or "" for row in rows])

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        """Relay until stopped: woken by NOTIFY on insert (of a job or an event), polling as a
        fallback, for backoffs, lapsed leases and lost messages."""
        channel = f"{self._table.schema}_outbox"
        while not self._stop.is_set():
            try:
                # The engine's connection: its primary among the URL's hosts, its connect time-out.
                with dedicated_connection(self._engine) as listener:
                    listener.autocommit = True
                    listener.execute(f'LISTEN "{channel}"')
                    while not self._stop.is_set():
                        self._on_cycle()
                        # Events first: numbering them needs only PostgreSQL, so consumers read
                        # them while Redis is away and the jobs below fail.
                        if self._events is not None:
                            self._events.sequence_all()
                            self._events.trim_if_due()
                        while self.relay_once() == self._batch_size:
                            pass
                        self.recover_lost()
                        # Wait for a NOTIFY or the poll interval, whichever comes first.
                        ready, _, _ = io_select.select([listener.fileno()], [], [], self._poll)
                        if ready:
                            for _ in listener.notifies(timeout=0):
                                pass
            except Exception:
                log.exception("relay error; retrying")
                self._on_cycle()  # alive and retrying: a database outage is not a hung relay
                self._stop.wait(1.0)
