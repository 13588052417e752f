"""Dramatiq over Redis: one broker per process, per-service queues, outbox acknowledgement.

`configure_broker` must run before any actor module is imported (Dramatiq binds actors to the
global broker at declaration).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import dramatiq
from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import Middleware

from feeds_runtime import context
from feeds_runtime.settings import InfraSettings

log = logging.getLogger("feeds.jobs")

OUTBOX_ID_OPTION = "outbox_id"
REQUEST_ID_OPTION = "request_id"


class RequestIdMiddleware(Middleware):
    """Carries the request id of the call that caused a job into the job's logs."""

    def before_process_message(self, broker: Any, message: MessageProxy) -> None:
        context.request_id.set(message.options.get(REQUEST_ID_OPTION))

    def after_process_message(self, broker: Any, message: MessageProxy, *, result=None, exception=None) -> None:
        context.request_id.set(None)

    def after_skip_message(self, broker: Any, message: MessageProxy) -> None:
        context.request_id.set(None)


def configure_broker(settings: InfraSettings, *, middleware: Sequence[Middleware] = ()) -> RedisBroker:
    broker = RedisBroker(url=settings.redis_url, namespace=settings.redis_namespace)
    broker.add_middleware(RequestIdMiddleware())
    for item in middleware:
        broker.add_middleware(item)
    dramatiq.set_broker(broker)
    return broker
