"""Backlogs read at scrape time by the relay: what waits in each Dramatiq queue in Redis and what
waits in the service's outbox. Dramatiq's own middleware counts messages as workers see them; a
queue nobody drains, or an outbox the relay cannot send, shows only here."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence

import dramatiq
from dramatiq.brokers.redis import RedisBroker
from dramatiq.common import dq_name
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import Engine, Table, func, select, text

log = logging.getLogger("feeds.metrics")

QUEUE_DEPTH = "feeds_queue_depth"
QUEUE_OLDEST_AGE = "feeds_queue_oldest_age_seconds"
OUTBOX_PENDING = "feeds_outbox_pending"
OUTBOX_OLDEST_AGE = "feeds_outbox_oldest_pending_age_seconds"
SERIES = (QUEUE_DEPTH, QUEUE_OLDEST_AGE, OUTBOX_PENDING, OUTBOX_OLDEST_AGE)


class QueueBacklog(Collector):
    """`feeds_queue_depth{queue}` and `feeds_queue_oldest_age_seconds{queue}` for each queue and its
    delay queue (messages waiting out a retry backoff), from Dramatiq's Redis layout: a list of
    message ids per queue and a hash of the encoded messages."""

    def __init__(self, broker: RedisBroker, queues: Sequence[str]) -> None:
        self._broker = broker
        self._queues = [name for queue in queues for name in (queue, dq_name(queue))]

    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily(QUEUE_DEPTH, "Messages waiting in a Dramatiq queue.", labels=["queue"])
        age = GaugeMetricFamily(QUEUE_OLDEST_AGE,
                                "Age of the oldest message waiting in a Dramatiq queue (0 when empty).",
                                labels=["queue"])
        client = self._broker.client
        namespace = self._broker.namespace
        try:
            with client.pipeline(transaction=False) as pipe:
                for queue in self._queues:
                    pipe.llen(f"{namespace}:{queue}")
                    pipe.lindex(f"{namespace}:{queue}", 0)
                answers = pipe.execute()
            now_ms = time.time() * 1000
            for index, queue in enumerate(self._queues):
                length, first = answers[2 * index], answers[2 * index + 1]
                depth.add_metric([queue], length)
                oldest = 0.0
                if first is not None:
                    encoded = client.hget(f"{namespace}:{queue}.msgs", first)
                    if encoded is not None:
                        oldest = max(0.0, (now_ms - dramatiq.Message.decode(encoded).message_timestamp) / 1000)
                age.add_metric([queue], oldest)
        except Exception as error:  # Redis down: the scrape still answers, without these series
            log.warning("queue backlog unreadable", extra={"error": type(error).__name__})
            return
        yield depth
        yield age


class OutboxBacklog(Collector):
    """`feeds_outbox_pending{service}` and `feeds_outbox_oldest_pending_age_seconds{service}`: rows
    written but not yet acknowledged by their actor."""

    def __init__(self, engine: Engine, table: Table, service: str) -> None:
        self._engine = engine
        self._table = table
        self._service = service

    def collect(self) -> Iterator[GaugeMetricFamily]:
        t = self._table
        pending_rows = t.c.acked_at.is_(None)
        try:
            with self._engine.begin() as connection:
                connection.execute(text("SET LOCAL statement_timeout = 2000"))
                pending = connection.execute(select(func.count()).select_from(t).where(pending_rows)).scalar_one()
                # The oldest pending row is the lowest id among them (the partial index on id).
                oldest = connection.execute(
                    select(func.extract("epoch", func.now() - t.c.created_at))
                    .where(pending_rows).order_by(t.c.id).limit(1)
                ).scalar()
        except Exception as error:  # PostgreSQL down: the scrape still answers, without these series
            log.warning("outbox backlog unreadable", extra={"error": type(error).__name__})
            return
        yield _gauge(OUTBOX_PENDING, "Outbox rows not yet acknowledged by their actor.", self._service, pending)
        yield _gauge(OUTBOX_OLDEST_AGE,
                     "Age of the oldest outbox row not yet acknowledged (0 when none).", self._service,
                     max(0.0, float(oldest or 0.0)))


def _gauge(name: str, documentation: str, service: str, value: float) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation, labels=["service"])
    family.add_metric([service], value)
    return family
