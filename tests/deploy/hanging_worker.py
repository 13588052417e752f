"""Dramatiq entry module for the liveness tests: a worker with the heartbeat middleware and one actor
that blocks in C code, where its time limit cannot interrupt it (the hung worker a probe must catch)."""

import os
import threading

import dramatiq
from dramatiq.brokers.redis import RedisBroker

from feeds_runtime.heartbeat import WorkerHeartbeat

QUEUE = "liveness.hang"

broker = RedisBroker(url=os.environ["REDIS_URL"], namespace=os.environ["REDIS_NAMESPACE"])
broker.add_middleware(WorkerHeartbeat(os.environ["HEARTBEAT_DIR"], interval=0.2, grace=0.5))
dramatiq.set_broker(broker)


@dramatiq.actor(queue_name=QUEUE, actor_name="block_forever", time_limit=500, max_retries=0)
def block_forever() -> None:
    lock = threading.Lock()
    lock.acquire()
    lock.acquire()
