"""Durable integration events: an event log in the service's schema, read from a position.

A service records an event with `append()` in the transaction of the change it announces, so the
event exists exactly when the change does. The log is the record; the Redis stream
`<namespace>:<schema>:events` is only a notification that new positions exist.

Positions. A bigserial id is handed out at insert but rows become visible at commit, in another
order: a reader that saw id 11 could later meet id 10, committed after it, and skip it. So the id
orders nothing a consumer relies on. The relay gives each committed event its position instead
(`EventLog.sequence`): under a transaction-level advisory lock, one sequencer at a time numbers the
committed, unnumbered rows from the current head on, and commits. The positions of one batch become
visible at once, batches in lock order, so the visible positions are always the gapless prefix
1..head: a reader of `position > after` never meets a lower position later. Events written by
transactions still in flight are invisible to the sequencer and numbered by a later batch, after
everything already numbered. (The alternative, reading only below `pg_snapshot_xmin`, needs a
two-part position and is held back by any long transaction in the whole cluster.)

Retention. `EventLog.trim` drops the oldest events past the retention age, always a prefix of the
positions and never the newest event, so the oldest kept position tells whether a consumer's
position is still covered: one that fell behind the trimmed prefix is told so (`PositionExpired`)
instead of silently skipping events.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    DateTime,
    Engine,
    Index,
    MetaData,
    String,
    Table,
    delete,
    func,
    insert,
    literal_column,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import Session

from feeds_runtime.db import Database
from feeds_runtime.errors import DomainError, FailedPrecondition

log = logging.getLogger("feeds.events")

TABLE_NAME = "events"
MAX_PAGE = 1000
DEFAULT_PAGE = 100
# Notifications kept in the Redis stream: a consumer only needs the newest one to wake up.
NOTIFICATIONS_KEPT = 1000


def event_log_table(metadata: MetaData) -> Table:
    """The event log in a service's schema (add it to the service's models and migrations)."""
    return Table(
        TABLE_NAME,
        metadata,
        # Insert order only; see the module's docstring for why consumers never see it.
        Column("id", BigInteger, primary_key=True, autoincrement=True),
        # The read order, given by the relay once the writing transaction has committed; null until then.
        Column("position", BigInteger),
        Column("type", String(100), nullable=False),
        # The tenant the event belongs to, where the context has tenants: a reader sees only its own.
        Column("tenant_id", UUID),
        Column("payload", JSONB, nullable=False),
        Column("occurred_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
        Index("uq_events_position", "position", unique=True),
        # What the sequencer scans: committed events not yet numbered.
        Index("ix_events_unsequenced", "id", postgresql_where=text("position IS NULL")),
        # A tenant's reads from a position.
        Index("ix_events_tenant_position", "tenant_id", "position", postgresql_where=text("tenant_id IS NOT NULL")),
    )


def create_event_log(connection: Connection, schema: str) -> None:
    """The event log, and the trigger that wakes the relay on insert (the outbox's NOTIFY function,
    created with the outbox)."""
    event_log_table(MetaData(schema=schema)).create(connection)
    connection.execute(text(f"""
        CREATE TRIGGER events_notify AFTER INSERT ON "{schema}".{TABLE_NAME}
        FOR EACH STATEMENT EXECUTE FUNCTION "{schema}".outbox_notify()
    """))


def stream_key(namespace: str, schema: str) -> str:
    """The Redis stream that announces new positions of a service's log."""
    return f"{namespace}:{schema}:events"


def append(session: Session, table: Table, event_type: str, payload: dict[str, Any], tenant_id: Any = None) -> None:
    """Record an event in the caller's transaction: it exists if and only if the transaction commits."""
    session.execute(insert(table).values(type=event_type, payload=payload, tenant_id=tenant_id))


@dataclass(frozen=True)
class Event:
    position: int
    type: str
    payload: dict[str, Any]
    occurred_at: datetime


@dataclass(frozen=True)
class Page:
    events: list[Event]
    # The position to read after next time: the last event's, or the head the read covered when a
    # tenant's page skipped other tenants' events up to it.
    next_after: int


class PositionExpired(Exception):
    """The reader's position lies before events retention has already removed."""

    def __init__(self, after: int, oldest: int) -> None:
        super().__init__(f"events after position {after} are no longer kept; the oldest kept is {oldest}")
        self.after = after
        self.oldest = oldest


# The ErrorInfo reason of a read from an expired position, the same in every context.
EXPIRED_REASON = "events_expired"


def serve_list_events(database: Database, table: Table, request: Any, response_type: type,
                      invalid: Callable[[str], DomainError], tenant_id: Any = None) -> Any:
    """A service's `ListEvents(after, limit)`: `invalid(message)` is the context's validation error;
    `tenant_id` scopes the read where the context has tenants. Every service's messages have the
    same fields, so this one function answers for all."""
    after, limit = request.after, request.limit
    if after < 0:
        raise invalid("after must be a position (0 or more)")
    if not 0 <= limit <= MAX_PAGE:
        raise invalid(f"limit must be 1 to {MAX_PAGE} (0 for {DEFAULT_PAGE})")
    with database.read() as connection:
        try:
            page = list_events(connection, table, after, limit or DEFAULT_PAGE, tenant_id)
        except PositionExpired as expired:
            raise FailedPrecondition(EXPIRED_REASON, str(expired), oldest=expired.oldest) from None
    response = response_type(next_after=page.next_after)
    for event in page.events:
        message = response.events.add(position=event.position, type=event.type,
                                       payload_json=json.dumps(event.payload, sort_keys=True))
        message.occurred_at.FromDatetime(event.occurred_at)
    return response


def list_events(connection: Connection, table: Table, after: int, limit: int, tenant_id: Any = None) -> Page:
    """Events after a position, in position order, at most `limit`; only `tenant_id`'s when given.
    One statement, so the bounds and the page come from one snapshot."""
    t = table
    bounds = select(func.min(t.c.position).label("oldest"), func.max(t.c.position).label("head")).cte("bounds")
    scoped = [t.c.tenant_id == tenant_id] if tenant_id is not None else []
    page = (
        select(t.c.position, t.c.type, t.c.payload, t.c.occurred_at)
        .where(t.c.position > after, *scoped)
        .order_by(t.c.position)
        .limit(limit)
        .lateral("page")
    )
    rows = connection.execute(
        select(bounds.c.oldest, bounds.c.head, page.c.position, page.c.type, page.c.payload, page.c.occurred_at)
        .select_from(bounds.outerjoin(page, true()))
        .order_by(page.c.position)
    ).all()
    oldest, head = rows[0].oldest, rows[0].head
    if oldest is not None and after < oldest - 1:
        raise PositionExpired(after, oldest)
    events = [Event(row.position, row.type, row.payload, row.occurred_at) for row in rows if row.position is not None]
    if len(events) == limit:
        return Page(events, events[-1].position)
    return Page(events, max(after, head or 0))


class EventLog:
    """The relay's side of the log: numbering committed events, announcing them, trimming old ones."""

    def __init__(self, engine: Engine, table: Table, redis: Any, stream: str, *, retention_seconds: float,
                 trim_interval_seconds: float = 60.0, batch_size: int = 1000) -> None:
        self._engine = engine
        self._table = table
        self._redis = redis
        self._stream = stream
        self._retention = retention_seconds
        self._trim_interval = trim_interval_seconds
        self._batch_size = batch_size
        self._trimmed_at = float("-inf")
        self._lock_key = func.hashtext(f"{table.schema}.{table.name}")

    def _sequence_batch(self) -> tuple[int, int]:
        """Number one batch of committed events after the head: (how many, the new head)."""
        t = self._table
        with self._engine.begin() as connection:
            # One sequencer at a time, so batches commit in position order (two relays may run).
            connection.execute(select(func.pg_advisory_xact_lock(self._lock_key)))
            # A statement after the lock: it sees the batch of the sequencer that held it before.
            head = connection.execute(select(func.coalesce(func.max(t.c.position), 0))).scalar_one()
            batch = select(t.c.id).where(t.c.position.is_(None)).order_by(t.c.id).limit(self._batch_size).subquery()
            numbered = select(batch.c.id, (head + func.row_number().over(order_by=batch.c.id)).label("position")
                              ).subquery()
            count = len(connection.execute(
                update(t).where(t.c.id == numbered.c.id).values(position=numbered.c.position).returning(t.c.id)
            ).all())
        return count, head + count

    def sequence_all(self) -> int:
        """Number every committed event that has no position, then announce the new head once (a
        Redis that is away costs one failed call per turn). Returns how many were numbered."""
        total = 0
        while True:
            count, head = self._sequence_batch()
            total += count
            if count < self._batch_size:
                break
        if total:
            self._notify(head)
        return total

    def _notify(self, head: int) -> None:
        # Best effort: a consumer that misses it still polls; the log holds the events.
        try:
            self._redis.xadd(self._stream, {"position": str(head)}, maxlen=NOTIFICATIONS_KEPT, approximate=True)
        except Exception:
            log.warning("could not announce events up to position %d; consumers find them on their next poll", head)

    def trim(self) -> int:
        """Drop the oldest events older than the retention age: a prefix of the positions, never the
        newest event. Returns how many were dropped."""
        t = self._table
        dropped = 0
        while True:
            with self._engine.begin() as connection:
                oldest = connection.execute(
                    select(t.c.position, t.c.occurred_at < func.now() - self._retention * literal_column("interval '1 second'"))
                    .where(t.c.position.is_not(None)).order_by(t.c.position).limit(self._batch_size)
                ).all()
                head = connection.execute(select(func.max(t.c.position))).scalar()
                expired = _expired_prefix(oldest, head)
                if expired is None:
                    return dropped
                dropped += connection.execute(delete(t).where(t.c.position <= expired)).rowcount
            if expired != oldest[-1].position:
                return dropped

    def trim_if_due(self) -> None:
        if time.monotonic() - self._trimmed_at < self._trim_interval:
            return
        self._trimmed_at = time.monotonic()
        dropped = self.trim()
        if dropped:
            log.info("dropped %d events past retention", dropped)


def _expired_prefix(rows: Sequence[Any], head: int | None) -> int | None:
    """The last position of the leading run of expired rows, below the head; None if there is none."""
    last = None
    for position, expired in rows:
        if not expired or position >= (head or 0):
            break
        last = position
    return last
