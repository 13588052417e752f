"""A relay whose process is SIGKILLed right after its first enqueue, before it can mark the row."""

import os
import signal

from dramatiq.brokers.redis import RedisBroker

from feeds_runtime.db import make_engine
from feeds_runtime.outbox import Relay
from outbox_probe.app import outbox, settings


class DieAfterEnqueue(RedisBroker):
    def enqueue(self, message, *, delay=None):
        enqueued = super().enqueue(message, delay=delay)
        os.kill(os.getpid(), signal.SIGKILL)
        return enqueued


if __name__ == "__main__":
    s = settings()
    Relay(make_engine(s.database_url, pool_size=1), outbox,
          DieAfterEnqueue(url=s.redis_url, namespace=s.redis_namespace)).relay_once()
