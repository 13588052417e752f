"""Reading another service's integration events from a position kept in the consumer's own database.

A consumer keeps, per source, the position of the last event it handled, in a row of its schema's
`event_positions` table. Each page is handled in one transaction that holds that row locked, runs
the handler on the consumer's connection and moves the position: the effect of an event and the
position past it commit together, so a consumer that dies, restarts or lost Redis resumes exactly
after the last event it handled — nothing missed, nothing handled twice — and two instances of one
consumer never handle the same page.

The source's Redis stream only wakes the consumer; it polls the source as well, so a lost
notification or an emptied Redis only delays it by the poll interval.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import grpc
import redis
from sqlalchemy import BigInteger, Column, Connection, DateTime, Engine, MetaData, String, Table, func, select
from sqlalchemy.dialects.postgresql import insert

from feeds_runtime.errors import error_info
from feeds_runtime.events import EXPIRED_REASON, Event, Page, PositionExpired

log = logging.getLogger("feeds.consumer")

POSITIONS_TABLE = "event_positions"
# A source's reader of one page: (after, limit) -> Page.
Source = Callable[[int, int], Page]
# Applies one event on the consumer's connection, inside the transaction that moves its position.
Handler = Callable[[Connection, Event], None]


def positions_table(metadata: MetaData) -> Table:
    """Where a consumer keeps its positions (add it to the consuming service's models and migrations)."""
    return Table(
        POSITIONS_TABLE,
        metadata,
        Column("consumer", String(100), primary_key=True),
        Column("source", String(100), primary_key=True),
        Column("position", BigInteger, nullable=False, server_default="0"),
        Column("updated_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    )


def grpc_source(list_events: Callable[..., Any], request_type: type, metadata: tuple[tuple[str, str], ...] = (),
                timeout: float = 10.0) -> Source:
    """A source reading a service's `ListEvents` RPC (every service's has the same shape)."""

    def read(after: int, limit: int) -> Page:
        try:
            response = list_events(request_type(after=after, limit=limit), metadata=metadata, timeout=timeout)
        except grpc.RpcError as error:
            info = error_info(error)
            if info is not None and info.reason == EXPIRED_REASON:
                raise PositionExpired(after, int(info.metadata.get("oldest", "0"))) from None
            raise
        events = [Event(e.position, e.type, json.loads(e.payload_json), e.occurred_at.ToDatetime(tzinfo=UTC))
                  for e in response.events]
        return Page(events, response.next_after)

    return read


class Consumer:
    def __init__(self, engine: Engine, positions: Table, name: str, source_name: str, source: Source,
                 handler: Handler, *, redis_client: redis.Redis | None = None, stream: str | None = None,
                 page_size: int = 100, poll_seconds: float = 2.0) -> None:
        self._engine = engine
        self._positions = positions
        self._name = name
        self._source_name = source_name
        self._source = source
        self._handler = handler
        self._redis = redis_client
        self._stream = stream
        self._page_size = page_size
        self._poll = poll_seconds
        self._stop = threading.Event()

    def position(self) -> int:
        t = self._positions
        with self._engine.connect() as connection:
            value = connection.execute(select(t.c.position).where(
                t.c.consumer == self._name, t.c.source == self._source_name)).scalar()
        return value or 0

    def step(self) -> int:
        """Read and handle one page after the kept position; returns how many events it held."""
        t = self._positions
        key = {"consumer": self._name, "source": self._source_name}
        with self._engine.begin() as connection:
            connection.execute(insert(t).values(**key).on_conflict_do_nothing())
            after = connection.execute(select(t.c.position).where(
                t.c.consumer == self._name, t.c.source == self._source_name).with_for_update()).scalar_one()
            page = self._source(after, self._page_size)
            for event in page.events:
                self._handler(connection, event)
            if page.next_after != after:
                connection.execute(t.update().where(t.c.consumer == self._name, t.c.source == self._source_name)
                                   .values(position=page.next_after, updated_at=datetime.now(UTC)))
        return len(page.events)

    def catch_up(self) -> int:
        """Handle every event the source has after the kept position; returns how many."""
        total = 0
        while (count := self.step()) == self._page_size:
            total += count
        return total + count

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        """Catch up, then wait for a notification or the poll interval, until stopped."""
        last_seen: Any = "$"  # only entries added from now on
        while not self._stop.is_set():
            try:
                self.catch_up()
            except PositionExpired:
                log.error("consumer %s fell behind %s's retention; it needs an operator", self._name, self._source_name)
                self._stop.wait(self._poll)
                continue
            except Exception:
                log.warning("consumer %s could not read %s; retrying", self._name, self._source_name, exc_info=True)
                self._stop.wait(self._poll)
                continue
            last_seen = self._wait(last_seen)

    def _wait(self, last_seen: Any) -> Any:
        """Until a notification newer than `last_seen` (a stream entry id) or the poll interval; the id
        to wait after next time."""
        if self._redis is None or self._stream is None:
            self._stop.wait(self._poll)
            return last_seen
        try:
            entries: Any = self._redis.xread({self._stream: last_seen}, count=1, block=int(self._poll * 1000))
        except redis.RedisError:
            self._stop.wait(self._poll)
            return last_seen
        if entries:
            _, messages = entries[0]
            return messages[-1][0]
        return last_seen
