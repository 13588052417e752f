"""A queue with a limit takes no more of a worker's threads than the limit, however many of its
messages wait: a job of another queue sent behind them runs at once (real Redis, a real Dramatiq
worker in this process)."""

from __future__ import annotations

import threading
import uuid

import dramatiq
import pytest

from devstack.processes import wait_for
from feeds_runtime.jobs import LimitedRedisBroker

THREADS = 3
LIMIT = 2
WAIT = 60


@pytest.fixture
def broker(redis_url):
    broker = LimitedRedisBroker(url=redis_url, namespace=f"limits-{uuid.uuid4().hex[:8]}", middleware=[],
                                queue_limits={"bulk": LIMIT})
    yield broker
    broker.flush_all()
    broker.close()


def test_a_limited_queue_leaves_the_other_threads_to_other_queues(broker):
    lock, release, short_done = threading.Lock(), threading.Event(), threading.Event()
    running: list[int] = []
    finished: list[int] = []
    most = 0

    @dramatiq.actor(broker=broker, queue_name="bulk")
    def long_job(number: int) -> None:
        nonlocal most
        with lock:
            running.append(number)
            most = max(most, len(running))
        release.wait(WAIT)
        with lock:
            running.remove(number)
            finished.append(number)

    @dramatiq.actor(broker=broker, queue_name="other")
    def short_job() -> None:
        short_done.set()

    # Given more long jobs waiting than the worker has threads, and a short job of another queue behind them
    for number in range(THREADS + 2):
        long_job.send(number)
    short_job.send()
    # When a worker starts on both queues
    worker = dramatiq.Worker(broker, worker_threads=THREADS, worker_timeout=100)
    worker.start()
    try:
        # Then the short job runs while the long jobs hold their threads, as many as the limit
        assert short_done.wait(WAIT), "the short job waited behind the limited queue"
        wait_for(lambda: len(running) == LIMIT, "the limit's worth of long jobs running", None, timeout=WAIT)
        # and the worker has not fetched the other long jobs: Redis keeps them for any worker
        assert broker.client.llen(f"{broker.namespace}:bulk") == THREADS + 2 - LIMIT
        # and once released, every long job runs, never more than the limit at a time
        release.set()
        wait_for(lambda: len(finished) == THREADS + 2, "every long job finished", None, timeout=WAIT)
        assert most == LIMIT
    finally:
        release.set()
        worker.stop()
