"""The PostgreSQL primary failover drill (docs/architecture.md, "PostgreSQL failover"), shared by its
test and its benchmark: the timeline's server, worker and relay and the gateway on a primary and a
synchronous standby (`devstack.replication`), connected through the multi-host URL, under a publish
load of signed host calls. The primary crashes and the standby is promoted.

Each client publishes with an `Idempotency-Key` of its own per post and, on a 503, sends the same
publish again with the same key (and a fresh nonce, as every signed write has) until it is accepted,
as a host backend does. To have publishes whose outcome the client cannot know, the drill first
pauses the standby's replay: with `synchronous_commit = remote_apply`, commits then wait on the
primary for the standby, their WAL already on the standby's disk. The drill crashes the primary once
a publish waits so, the client hears a 503, promotion replays the publish, and the client's retry
must find it rather than publish it twice.

Afterwards the drill counts, on the new primary: accepted publishes missing or duplicated, posts no
client was told of, and home timeline entries missing or doubled for the followers of the authors.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

from devstack.host_client import Host
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for
from devstack.replication import PostgresCluster
from feeds_runtime.db import libpq_conninfo

DATABASE = "feeds"
HOST_KEY = {"tenant_id": str(uuid.uuid4()), "key_id": "failover-drill", "secret": uuid.uuid4().hex * 2}
# A client sends a publish refused with a 503 again after this long (shorter than the Retry-After of
# one second, so the recovery time is measured to a tenth of a second).
RETRY_SECONDS = 0.1
# A publish not accepted after this long counts as a failure of the drill.
GIVE_UP_SECONDS = 120.0
SETTLE_SECONDS = 120.0
# A publish in the timeline's transaction, waiting for the standby at its commit: it holds its row
# lock on timeline.posts until the commit returns.
PUBLISHES_WAITING = """
SELECT count(*) FROM pg_stat_activity a
WHERE a.wait_event = 'SyncRep' AND EXISTS (
    SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.relation = 'timeline.posts'::regclass
    AND l.mode = 'RowExclusiveLock')
"""


@dataclass
class Answer:
    key: str
    sent: float  # time.monotonic() of the request
    answered: float
    status: int  # 0: no HTTP answer (the connection failed or timed out)
    post_id: str | None


@dataclass
class FailoverReport:
    clients: int
    followers: int
    answers: list[Answer]
    # time.monotonic() when the primary was stopped, and when a bare psycopg client retrying every
    # 10 ms through the same URL first wrote after it.
    stopped: float
    raw_written: float
    # Accepted publishes (2xx): key -> post id answered.
    accepted: dict[str, str]
    # Accepted publishes not found on the new primary, or found under another id than answered.
    missing: int
    # Keys with more than one post, and posts whose key no client saw accepted.
    duplicated: int
    unannounced: int
    # Publishes answered 503 that had committed before the crash (their retry found them).
    in_doubt: int
    # Followers' entries of the accepted posts: expected, found, doubled.
    home_expected: int
    home_found: int
    home_doubled: int
    # A follower's home timeline read through the gateway: accepted posts missing, and shown twice.
    page_missing: int
    page_doubled: int
    statuses: Counter[int] = field(default_factory=Counter)

    @property
    def recovery_seconds(self) -> float:
        """Primary stopped → the first publish sent after it accepted."""
        return min(a.answered for a in self.answers if a.sent > self.stopped and 200 <= a.status < 300) - self.stopped

    @property
    def raw_recovery_seconds(self) -> float:
        """Primary stopped → a bare client's first write through the multi-host URL (the database's
        own part of the recovery, the baseline of `recovery_seconds`)."""
        return self.raw_written - self.stopped

    @property
    def errors(self) -> Counter[int]:
        """Answers that are neither a success nor a 503."""
        return Counter({status: n for status, n in self.statuses.items() if not (200 <= status < 300 or status == 503)})


class _Client(threading.Thread):
    """Publishes one post after another for its author, each retried on a 503 until accepted."""

    def __init__(self, base_url: str, author: uuid.UUID, answers: list[Answer], stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.host = Host(base_url, HOST_KEY, timeout=GIVE_UP_SECONDS)
        self.author = author
        self.answers = answers
        self.stop = stop

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.publish(uuid.uuid4().hex)
        finally:
            self.host.close()

    def publish(self, key: str) -> None:
        give_up = time.monotonic() + GIVE_UP_SECONDS
        while time.monotonic() < give_up:
            sent = time.monotonic()
            try:
                response = self.host.request("POST", "/api/v1/timeline/posts", viewer=self.author,
                                             json_body={"body": f"drill {key}"}, headers={"Idempotency-Key": key})
                status = response.status_code
                post_id = response.json()["data"]["id"] if 200 <= status < 300 else None
            except httpx.HTTPError:
                status, post_id = 0, None
            self.answers.append(Answer(key, sent, time.monotonic(), status, post_id))
            if status != 503:
                return
            time.sleep(RETRY_SECONDS)


class _RawWriter(threading.Thread):
    """A bare psycopg client: a new connection through the multi-host URL every 10 ms, writing (a
    transaction id taken) until it succeeds once after `armed` is set."""

    def __init__(self, conninfo: str) -> None:
        super().__init__(daemon=True)
        self.conninfo = conninfo
        self.armed = threading.Event()
        self.written = threading.Event()
        self.at = 0.0

    def run(self) -> None:
        self.armed.wait()
        give_up = time.monotonic() + GIVE_UP_SECONDS
        while time.monotonic() < give_up:
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as connection:
                    connection.execute("SELECT pg_current_xact_id()")
                self.at = time.monotonic()
                self.written.set()
                return
            except psycopg.Error:
                time.sleep(0.01)


def _scalar(conninfo: str, query: str, params: tuple[Any, ...] = ()) -> Any:
    with psycopg.connect(conninfo, autocommit=True) as connection:
        row = connection.execute(query, params).fetchone()
    assert row is not None
    return row[0]


def run_drill(data_dir: Path, redis_url: str, redis_namespace: str, *, clients: int = 4, followers: int = 50,
              warmup: int = 20, after: int = 20) -> FailoverReport:
    """`clients` authors publish at once, each followed by the same `followers`; the primary crashes
    after `warmup` accepted publishes, and the load goes on until `after` publishes sent after the
    promotion were accepted."""
    cluster = PostgresCluster(data_dir / "cluster")
    group = ProcessGroup(log_dir=data_dir / "logs", env={
        "DATABASE_URL": "", "REDIS_URL": redis_url, "REDIS_NAMESPACE": redis_namespace, "PYTHONUNBUFFERED": "1"})
    stop = threading.Event()
    workers: list[_Client] = []
    try:
        cluster.start()
        primary, standby = cluster.conninfo("primary"), cluster.conninfo("replica")
        with psycopg.connect(primary, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {DATABASE}")
            # Only the primary's configuration: the promoted standby waits for no standby of its own.
            connection.execute("ALTER SYSTEM SET synchronous_standby_names = '*'")
            connection.execute("ALTER SYSTEM SET synchronous_commit = 'remote_apply'")
            connection.execute("SELECT pg_reload_conf()")
        wait_for(lambda: _scalar(primary, "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") == 1,
                 "the standby to be synchronous", group)
        group.env["DATABASE_URL"] = cluster.multi_host_url(DATABASE)
        platform = Platform(group, ports=Ports.free(), extra_env={
            # Publishes wait at their commit for as long as the drill keeps the standby paused, which
            # is no part of a failover: on a loaded machine that may outlast the 10 s default deadline.
            "gateway": {"TIMELINE_HOST_KEYS": json.dumps([HOST_KEY]),
                        "GATEWAY_RPC_DEADLINE_SECONDS": str(GIVE_UP_SECONDS)},
            "timeline": {"TIMELINE_WORKER_THREADS": "2"}})
        group.run("timeline-migrate", python_module("timeline", "migrate"), platform.service_env("timeline"))
        platform.start_service("timeline")
        platform.start_gateway()
        wait_for(lambda: grpc_serving(platform.grpc_address("timeline")), "timeline SERVING", group)
        wait_for(lambda: http_ok(f"{platform.gateway_url}/healthz"), "gateway", group)

        authors = [uuid.uuid4() for _ in range(clients)]
        viewers = [uuid.uuid4() for _ in range(followers)]
        feeds = cluster.conninfo("primary", DATABASE)
        with psycopg.connect(feeds, autocommit=True) as connection:
            connection.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                               "SELECT %s, v, a FROM unnest(%s::uuid[]) v, unnest(%s::uuid[]) a",
                               (HOST_KEY["tenant_id"], viewers, authors))

        answers: list[Answer] = []
        workers = [_Client(platform.gateway_url, author, answers, stop) for author in authors]
        for worker in workers:
            worker.start()

        def accepted_since(moment: float) -> int:
            return sum(1 for a in answers if a.sent > moment and 200 <= a.status < 300)

        wait_for(lambda: accepted_since(0) >= warmup, f"{warmup} accepted publishes", group, GIVE_UP_SECONDS)
        # Commits now wait on the primary for a standby that has their WAL and does not apply it.
        with psycopg.connect(standby, autocommit=True) as connection:
            connection.execute("SELECT pg_wal_replay_pause()")
        wait_for(lambda: _scalar(feeds, PUBLISHES_WAITING) >= 1, "a publish waiting at its commit", group)
        flushed = _scalar(primary, "SELECT pg_current_wal_flush_lsn()::text")
        wait_for(lambda: _scalar(standby, "SELECT pg_last_wal_receive_lsn() >= %s::pg_lsn", (flushed,)),
                 "the standby to receive the waiting commits", group)
        raw = _RawWriter(libpq_conninfo(cluster.multi_host_url(DATABASE)))
        raw.start()
        stopped, stopped_wall = time.monotonic(), time.time()
        cluster.stop_primary("immediate")
        raw.armed.set()
        # Promotion ends the pause and replays every commit the standby received.
        cluster.promote_replica()
        promoted = time.monotonic()
        wait_for(raw.written.is_set, "a bare client's write", group)
        wait_for(lambda: accepted_since(promoted) >= after, f"{after} publishes accepted after the promotion",
                 group, GIVE_UP_SECONDS)
        stop.set()
        for worker in workers:
            worker.join(GIVE_UP_SECONDS)

        new_primary = cluster.conninfo("replica", DATABASE)
        wait_for(lambda: _scalar(new_primary, "SELECT count(*) FROM timeline.outbox WHERE acked_at IS NULL") == 0,
                 "every job after the promotion acknowledged", group, SETTLE_SECONDS)
        return _report(new_primary, platform.gateway_url, clients, viewers, answers, stopped, stopped_wall, raw.at)
    finally:
        stop.set()
        for worker in workers:
            worker.join(GIVE_UP_SECONDS)
        group.stop()
        cluster.stop()


def _report(feeds: str, gateway_url: str, clients: int, viewers: list[uuid.UUID], answers: list[Answer],
            stopped: float, stopped_wall: float, raw_written: float) -> FailoverReport:
    accepted = {a.key: a.post_id for a in answers if 200 <= a.status < 300 and a.post_id}
    answered_503 = {a.key for a in answers if a.status == 503}
    with psycopg.connect(feeds, autocommit=True) as connection:
        posts = connection.execute(
            "SELECT idempotency_key, id::text, extract(epoch FROM published_at) FROM timeline.posts "
            "WHERE tenant_id = %s", (HOST_KEY["tenant_id"],)).fetchall()
        home_found, home_distinct = connection.execute(
            "SELECT count(*), count(DISTINCT (viewer_id, post_id)) FROM timeline.timeline_entries "
            "WHERE tenant_id = %s AND kind = 'following' AND post_id = ANY(%s::uuid[])",
            (HOST_KEY["tenant_id"], list(accepted.values()))).fetchone() or (0, 0)
    by_key = Counter(key for key, _, _ in posts)
    post_of = {key: post_id for key, post_id, _ in posts}
    in_doubt = sum(1 for key, _, published in posts if key in answered_503 and float(published) < stopped_wall)
    shown = _home_page_posts(gateway_url, viewers[0])
    shown_counts = Counter(shown)
    return FailoverReport(
        clients=clients, followers=len(viewers), answers=answers, stopped=stopped, raw_written=raw_written,
        accepted=accepted,
        missing=sum(1 for key, post_id in accepted.items() if post_of.get(key) != post_id),
        duplicated=sum(n - 1 for n in by_key.values() if n > 1),
        unannounced=sum(1 for key in by_key if key not in accepted),
        in_doubt=in_doubt,
        home_expected=len(accepted) * len(viewers), home_found=home_distinct, home_doubled=home_found - home_distinct,
        page_missing=sum(1 for post_id in accepted.values() if post_id not in shown_counts),
        page_doubled=sum(n - 1 for n in shown_counts.values() if n > 1),
        statuses=Counter(a.status for a in answers),
    )


def _home_page_posts(gateway_url: str, viewer: uuid.UUID) -> list[str]:
    """Every post id on the viewer's home timeline, page by page through the gateway."""
    host = Host(gateway_url, HOST_KEY)
    shown: list[str] = []
    cursor = ""
    try:
        while True:
            query = "limit=100" + (f"&cursor={cursor}" if cursor else "")
            response = host.request("GET", "/api/v1/timeline/home", query=query, viewer=viewer)
            response.raise_for_status()
            page = response.json()
            shown += [item["post_id"] for item in page["data"]]
            cursor = page["page"]["next_cursor"] or ""
            if not cursor:
                return shown
    finally:
        host.close()
