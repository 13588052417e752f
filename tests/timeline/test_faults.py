"""Faults during fan-out, each against a private Redis so emptying or stopping it touches no one
else: a worker killed mid-job, Redis emptied with jobs running and waiting, Redis down during
publish. After recovery every follower holds exactly one entry of each post; the first two recover
within 10 s of the fault at the default lease and presence settings.

To have a job mid-run at the moment of the fault, the test holds its posts' rows `FOR UPDATE`: a
fan-out job reads its post `FOR SHARE`, so it is claimed and then waits until the test lets go."""

from __future__ import annotations

import os
import signal
import time
import uuid
from contextlib import contextmanager

import psycopg
from psycopg import sql
from sqlalchemy import text
from sqlalchemy.engine import make_url

from devstack.host_client import Host
from devstack.infra import libpq_url
from devstack.processes import ProcessGroup, python_module

from .conftest import TENANTS, Rpc, TimelineStack, add_followers, materialized, private_stack, start_redis, wait_until

RECOVERY_SECONDS = 10.0


def progress(engine, post_id: str):
    with engine.connect() as connection:
        return connection.execute(text("SELECT chunks_done, chunks_pending, completed_at FROM timeline.fanout_progress "
                                       "WHERE post_id = :p"), {"p": post_id}).one()


def fanned_out(engine, post_id: str, followers: int) -> bool:
    return progress(engine, post_id).completed_at is not None and materialized(engine, post_id)[0] >= followers


def assert_converged(engine, post_id: str, followers: int, tenant: str, author: uuid.UUID) -> None:
    wait_until(lambda: fanned_out(engine, post_id, followers), "every follower materialized", timeout=120)
    assert materialized(engine, post_id) == (followers, followers)
    assert progress(engine, post_id).chunks_pending == []
    with engine.connect() as connection:
        posts = connection.execute(text("SELECT count(*) FROM timeline.posts WHERE tenant_id = :t AND author_id = :a"),
                                   {"t": tenant, "a": author}).scalar()
    assert posts == 1
    wait_until(lambda: _unacknowledged(engine, post_id) == 0, "every fan-out job acknowledged")


# A post's fan-out jobs: its first job and the jobs of its later follower ranges.
FANOUT_JOBS = "actor_name IN ('timeline.fanout_chunk', 'timeline.fanout_range')"


def _unacknowledged(engine, post_id: str) -> int:
    with engine.connect() as connection:
        return connection.execute(text(f"SELECT count(*) FROM timeline.outbox WHERE {FANOUT_JOBS} "
                                       "AND args->>1 = :p AND acked_at IS NULL"), {"p": post_id}).scalar()


def _count(engine, sql: str, **params) -> int:
    with engine.connect() as connection:
        return connection.execute(text(sql), params).scalar()


@contextmanager
def posts_held(engine, post_ids: list[str]):
    """Hold the posts' rows FOR UPDATE until the block ends, so their fan-out jobs wait mid-run."""
    with engine.connect() as connection:
        transaction = connection.begin()
        connection.execute(text("SELECT id FROM timeline.posts WHERE id = ANY(CAST(:ids AS uuid[])) FOR UPDATE"),
                           {"ids": post_ids})
        try:
            yield
        finally:
            transaction.rollback()


def jobs_waiting_mid_run(engine, count: int) -> bool:
    """`count` fan-out jobs claimed by a worker (leased) and blocked on a lock of this database."""
    leased = _count(engine, f"SELECT count(*) FROM timeline.outbox WHERE {FANOUT_JOBS} "
                            "AND acked_at IS NULL AND lease_token IS NOT NULL")
    blocked = _count(engine, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                             "AND wait_event_type = 'Lock'")
    return leased >= count and blocked >= count


def publish_all_relayed(stack, engine, tenant: str, authors: list[uuid.UUID], followers: int) -> list[str]:
    """One post by each author (each with `followers` followers), once its first fan-out job is in Redis."""
    rpc = Rpc(stack.address)
    post_ids = []
    for author in authors:
        add_followers(engine, tenant, author, followers)
        post_ids.append(rpc.publish(tenant, author).id)
    wait_until(lambda: _count(engine, "SELECT count(*) FROM timeline.outbox WHERE actor_name = 'timeline.fanout_chunk' "
                                      "AND args->>1 = ANY(:p) AND enqueued_at IS NOT NULL", p=post_ids) == len(post_ids),
               "first fan-out jobs relayed", group=stack.group)
    return post_ids


def live_workers(beats) -> int:
    return sum(1 for beat in beats.glob("worker-*") if _alive(int(beat.name.rpartition("-")[2])))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_worker_killed_mid_fanout_is_recovered_within_seconds(group, timeline_engine, tmp_path):
    tenant, author, followers = TENANTS[0]["tenant_id"], uuid.uuid4(), 1000
    beats = tmp_path / "heartbeats"
    stack, *_ = private_stack(group, {"TIMELINE_FANOUT_CHUNK_SIZE": "100", "TIMELINE_HEARTBEAT_DIR": str(beats)})
    stack.start(("server", "relay"))
    [post_id] = publish_all_relayed(stack, timeline_engine, tenant, [author], followers)
    env = stack.platform.service_env("timeline")
    with posts_held(timeline_engine, [post_id]):
        # Given a worker that claimed the post's first fan-out job and is in the middle of it
        doomed = group.start("timeline-worker-doomed", python_module("timeline", "worker"), env)
        wait_until(lambda: jobs_waiting_mid_run(timeline_engine, 1), "fan-out job mid-run", group=group)
        # and a second worker up and idle
        group.start("timeline-worker", python_module("timeline", "worker"), env)
        wait_until(lambda: live_workers(beats) == 2, "second worker up", group=group)
        # When the first worker and its children are killed without warning
        os.killpg(doomed.popen.pid, signal.SIGKILL)
        doomed.popen.wait()
        group.processes.remove(doomed)
        killed_at = time.monotonic()
    # Then the other worker takes the job over once its lease lapses, and finishes the run within
    # seconds, with nothing lost or duplicated
    wait_until(lambda: fanned_out(timeline_engine, post_id, followers), "fan-out finished after the kill",
               timeout=60, group=group)
    recovered = time.monotonic() - killed_at
    assert recovered <= RECOVERY_SECONDS, f"fan-out finished {recovered:.1f} s after the kill"
    assert_converged(timeline_engine, post_id, followers, tenant, author)


def test_redis_emptied_mid_fanout_is_recovered_within_seconds(group, timeline_engine):
    tenant, followers = TENANTS[0]["tenant_id"], 200
    authors = [uuid.uuid4() for _ in range(6)]
    stack, _, client, _ = private_stack(group, {"TIMELINE_FANOUT_CHUNK_SIZE": "50", "TIMELINE_WORKER_THREADS": "1"})
    stack.start(("server", "relay"))
    post_ids = publish_all_relayed(stack, timeline_engine, tenant, authors, followers)
    with posts_held(timeline_engine, post_ids):
        # Given a one-thread worker in the middle of one fan-out job, with others fetched or still queued
        group.start("timeline-worker", python_module("timeline", "worker"), stack.platform.service_env("timeline"))
        wait_until(lambda: jobs_waiting_mid_run(timeline_engine, 1), "fan-out job mid-run", group=group)
        assert client.llen(f"{stack.platform.group.env['REDIS_NAMESPACE']}:timeline.fanout") > 0
        # When Redis loses everything
        client.flushall()
        flushed_at = time.monotonic()
    # Then the relay sends the lost jobs again and every post's fan-out finishes within seconds,
    # each follower holding one entry of each post
    wait_until(lambda: all(fanned_out(timeline_engine, p, followers) for p in post_ids),
               "every fan-out finished after the flush", timeout=60, group=group)
    recovered = time.monotonic() - flushed_at
    assert recovered <= RECOVERY_SECONDS, f"fan-outs finished {recovered:.1f} s after the flush"
    for author, post_id in zip(authors, post_ids, strict=True):
        assert_converged(timeline_engine, post_id, followers, tenant, author)


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


@contextmanager
def connections_refused(database_url: str):
    """PostgreSQL down for one database: open sessions cut and new ones refused, as during a restart."""
    target = make_url(database_url)
    name = sql.Identifier(target.database)
    with psycopg.connect(libpq_url(target.set(database="postgres").render_as_string(hide_password=False)),
                         autocommit=True) as admin:
        admin.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS false").format(name))
        try:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (target.database,))
            yield
        finally:
            admin.execute(sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS true").format(name))


def test_database_outage_is_a_retryable_503(tmp_path, platform_env, fresh_database_url):
    group = ProcessGroup(log_dir=tmp_path / "logs", env={**platform_env, "DATABASE_URL": fresh_database_url})
    try:
        stack = TimelineStack(group)
        stack.start(("server",))
        stack.start_gateway()
        host, author = Host(stack.platform.gateway_url, TENANTS[0]), uuid.uuid4()

        def publish(body: str):
            return host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body={"body": body})

        assert publish("before").status_code == 201
        # Given PostgreSQL unreachable
        with connections_refused(fresh_database_url):
            # When a host publishes or reads, then it hears a clean 503 it may retry, in the timeline envelope
            for response in (publish("during"), host.request("GET", "/api/v1/timeline/home", viewer=author)):
                assert response.status_code == 503, response.text
                assert int(response.headers["Retry-After"]) >= 1
                assert response.json()["error"]["code"] == "unavailable"
        # Then once it is back, the same service publishes again without a restart
        wait_until(lambda: publish("after").status_code == 201, "publish after the outage", group=group)
    finally:
        group.stop()
