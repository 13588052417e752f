"""The Redis master killed mid fan-out, with the timeline's server, worker, relay and the gateway
running on a real Sentinel set (a master, its replica, three Sentinels): the Sentinels promote the
replica, every process finds the new master, and afterwards each follower holds exactly one entry
of each post. Writes made during the gap land (a publish needs only PostgreSQL; its jobs wait in
the outbox), and a request that needs Redis then is a clean 503 its client retries.

To be sure the master dies mid fan-out, the test holds the post's row `FOR UPDATE` once some of
its chunks are written: the later chunks, which read the post `FOR SHARE`, wait until it lets go.
How soon the fan-out resumes after the promotion is a figure of the benchmark
(`services/timeline/bench/run.py --only failover`); here it is only printed."""

from __future__ import annotations

import time
import uuid

from devstack.host_client import Host
from devstack.processes import ProcessGroup

from .conftest import TENANTS, Rpc, TimelineStack, add_followers, wait_until
from .test_faults import assert_converged, posts_held, progress

FOLLOWERS = 2000
CHUNK = 100  # twenty chunks, so the kill falls between the first ones and the last


class HostWrite:
    """A host's publish sent until it lands, as a client retries it: the same Idempotency-Key and
    acting user, a fresh nonce each time."""

    def __init__(self, host: Host) -> None:
        self.host, self.key, self.viewer = host, str(uuid.uuid4()), uuid.uuid4()
        self.post_id: str | None = None
        self.unavailable = 0

    def send(self):
        return self.host.request("POST", "/api/v1/timeline/posts", viewer=self.viewer, json_body={"body": "host write"},
                                 headers={"Idempotency-Key": self.key})

    def lands(self) -> bool:
        answer = self.send()
        # 503 while no master answers, 409 while an earlier try's claim on the key is still held
        assert answer.status_code in (201, 409, 503), answer.text
        if answer.status_code != 201:
            assert answer.headers.get("Retry-After") or answer.status_code == 409, answer.headers
            self.unavailable += answer.status_code == 503
            return False
        self.post_id = answer.json()["data"]["id"]
        return True


def test_redis_master_killed_mid_fanout_loses_and_doubles_nothing(sentinel_set, timeline_engine, tmp_path,
                                                                   platform_env):
    group = ProcessGroup(log_dir=tmp_path / "logs", env={**platform_env, "REDIS_URL": "", **sentinel_set.env()})
    try:
        stack = TimelineStack(group, {"TIMELINE_FANOUT_CHUNK_SIZE": str(CHUNK)})
        stack.start()
        stack.start_gateway()
        tenant, author, late_author = TENANTS[0]["tenant_id"], uuid.uuid4(), uuid.uuid4()
        add_followers(timeline_engine, tenant, author, FOLLOWERS)
        add_followers(timeline_engine, tenant, late_author, FOLLOWERS)
        rpc, host = Rpc(stack.address), Host(stack.platform.gateway_url, TENANTS[0])
        # Given a post whose fan-out is under way, held after its first chunks
        post_id = rpc.publish(tenant, author).id
        wait_until(lambda: progress(timeline_engine, post_id).chunks_done >= 2, "the first chunks written",
                   group=group)
        with posts_held(timeline_engine, [post_id]):
            done = progress(timeline_engine, post_id)
            assert done.completed_at is None and done.chunks_done < FOLLOWERS // CHUNK
            # When the Redis master's process is killed
            old_master = sentinel_set.kill_master()
            killed_at = time.monotonic()
            # Then a publish lands all the same: its fan-out waits in the outbox
            late_post_id = rpc.publish(tenant, late_author, "published while Redis fails over").id
            # and a host's write, whose nonce the gateway must keep in Redis, is a clean 503 until a
            # master answers again (or lands, should the promotion come first)
            write = HostWrite(host)
            wait_until(write.lands, "the host's write landing after the failover", timeout=120, group=group)
        new_master = sentinel_set.wait_for_failover(60)
        promoted_at = time.monotonic()
        assert new_master != old_master
        # And the held fan-out and the late one finish on the new master, each follower holding one
        # entry of each post, each job acknowledged once
        wait_until(lambda: progress(timeline_engine, post_id).completed_at is not None, "the fan-out resumed",
                   timeout=120, group=group)
        finished_at = time.monotonic()
        assert_converged(timeline_engine, post_id, FOLLOWERS, tenant, author)
        assert_converged(timeline_engine, late_post_id, FOLLOWERS, tenant, late_author)
        print(f"failover {promoted_at - killed_at:.1f} s after the kill, {write.unavailable} answers 503 meanwhile; "
              f"fan-out finished "
              f"{finished_at - promoted_at:.1f} s after the promotion")
        # And the host's write landed once: its retry under the same key answers the same post
        assert write.send().json()["data"]["id"] == write.post_id
        host.close()
    finally:
        group.stop()
