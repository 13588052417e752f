"""Dramatiq over Redis: one broker per process, per-service queues, leased outbox delivery, the
request id and the trace context carried in each message.

`configure_broker` must run before any actor module is imported (Dramatiq binds actors to the
global broker at declaration).

Dramatiq's own retries are off: a failed job is released to the outbox with a backoff, and the
outbox relay sends it again (see `outbox`), so every job has one retry policy and one record.
A worker process is declared dead by the other workers once Redis has heard nothing from it for
`WORKER_PRESENCE_TIMEOUT_MS`, and the messages it had fetched go back to their queue. Every worker
process polls its (always empty) delay queues at least every `dramatiq_worker_timeout`, which keeps
its presence fresh while it lives, however long its jobs run.

A worker process may be kept from giving all its threads to some queues (`queue_limits`): Dramatiq
fetches no more messages of a queue while as many as its prefetch are in hand, unacknowledged, so
a prefetch of N holds that queue to N threads.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import dramatiq
from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode
from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import Middleware, Retries, default_middleware

from feeds_runtime import context, redis_clients
from feeds_runtime.observability import tracing
from feeds_runtime.settings import InfraSettings

log = logging.getLogger("feeds.jobs")

OUTBOX_ID_OPTION = "outbox_id"
REQUEST_ID_OPTION = "request_id"
# W3C trace context headers of the span that sent the message.
TRACE_CONTEXT_OPTION = "trace_context"

WORKER_PRESENCE_TIMEOUT_MS = 5_000
# Out of a million Redis commands, how many also return a dead worker's messages to their queue:
# one in twenty, so an idle queue (polled ten times a second) is swept within seconds.
MAINTENANCE_CHANCE = 50_000


class RequestIdMiddleware(Middleware):
    """Carries the request id of the call that caused a job into the job's logs."""

    def before_process_message(self, broker: Any, message: MessageProxy) -> None:
        context.request_id.set(message.options.get(REQUEST_ID_OPTION))

    def after_process_message(self, broker: Any, message: MessageProxy, *, result=None, exception=None) -> None:
        context.request_id.set(None)

    def after_skip_message(self, broker: Any, message: MessageProxy) -> None:
        context.request_id.set(None)


class TraceContextMiddleware(Middleware):
    """Carries the trace through Dramatiq messages: a message takes the context current when it is
    enqueued (the relay's send span of an outbox row), and its job runs in a consumer span under
    it, so the job's SQL and the jobs it records join the trace of the request that caused them."""

    def __init__(self) -> None:
        self._current = threading.local()  # (span, context token) of the job this worker thread runs

    def before_enqueue(self, broker: Any, message: dramatiq.Message, delay: int | None) -> None:
        if TRACE_CONTEXT_OPTION not in message.options and (carrier := tracing.current_context()):
            message.options[TRACE_CONTEXT_OPTION] = carrier

    def before_process_message(self, broker: Any, message: MessageProxy) -> None:
        self._current.job = None
        if not tracing.enabled():
            return
        span = tracing.tracer().start_span(
            f"process {message.actor_name}", context=tracing.extract(message.options.get(TRACE_CONTEXT_OPTION)),
            kind=SpanKind.CONSUMER,
            attributes={"messaging.system": "dramatiq", "messaging.operation.type": "process",
                        "messaging.destination.name": message.queue_name, "messaging.message.id": message.message_id},
        )
        self._current.job = (span, otel_context.attach(trace.set_span_in_context(span)))

    def after_process_message(self, broker: Any, message: MessageProxy, *, result=None, exception=None) -> None:
        job = getattr(self._current, "job", None)
        if job is None:
            return
        self._current.job = None
        span, token = job
        if exception is not None:
            span.record_exception(exception)
            span.set_status(Status(StatusCode.ERROR, type(exception).__name__))
        span.end()
        otel_context.detach(token)

    def after_skip_message(self, broker: Any, message: MessageProxy) -> None:
        job = getattr(self._current, "job", None)
        if job is not None:
            job[0].set_attribute("feeds.job.skipped", True)  # already done, or a live job holds it
            self.after_process_message(broker, message)


class LimitedRedisBroker(RedisBroker):
    """Dramatiq's Redis broker, with at most `queue_limits[queue]` messages of a queue in a worker
    process's hands (fetched and not yet acknowledged) at any time."""

    def __init__(self, *, queue_limits: Mapping[str, int], **options: Any) -> None:
        super().__init__(**options)
        self.queue_limits = dict(queue_limits)

    def consume(self, queue_name: str, prefetch: int = 1, timeout: int = 5000) -> dramatiq.Consumer:
        return super().consume(queue_name, min(prefetch, self.queue_limits.get(queue_name, prefetch)), timeout)


def configure_broker(settings: InfraSettings, *, middleware: Sequence[Middleware] = (),
                     queue_limits: Mapping[str, int] | None = None) -> RedisBroker:
    broker = LimitedRedisBroker(
        queue_limits=queue_limits or {},
        client=redis_clients.connect(settings),
        namespace=settings.redis_namespace,
        middleware=[m() for m in default_middleware if m is not Retries],
        heartbeat_timeout=WORKER_PRESENCE_TIMEOUT_MS,
        maintenance_chance=MAINTENANCE_CHANCE,
    )
    broker.add_middleware(RequestIdMiddleware())
    # Before the service's middleware, so the job's span holds its outbox claim and acknowledgement.
    broker.add_middleware(TraceContextMiddleware())
    for item in middleware:
        broker.add_middleware(item)
    dramatiq.set_broker(broker)
    return broker


def redis_broker() -> RedisBroker:
    """The process's broker, set by `configure_broker`: actors that write to Redis themselves (an event
    stream) use its client."""
    broker = dramatiq.get_broker()
    if not isinstance(broker, RedisBroker):
        raise RuntimeError("configure_broker has not run in this process")
    return broker
