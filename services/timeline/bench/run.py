"""Timeline benchmarks (`make bench-timeline`), output per docs/architecture.md via devstack.bench.

1. Fan-out of one post to N followers: seconds from the publish call until the last follower entry
   exists, with 1 and 2 worker processes. Baseline: one raw `INSERT … SELECT` of the same rows.
2. A home page of 50 for a viewer with 10k entries, p50 and p99, over gRPC and over signed REST.
   Baselines: the raw SQL page query, and a no-op round trip through the same transport
   (TimelineAdmin.Ping; GET /api/v1/timeline/ping through the gateway).
3. The cost of metrics: the REST home page p50 through a gateway and timeline server with metrics on
   (as deployed), against a second pair with metrics off, sampled in alternating blocks. The cost of
   traces the same way: a pair exporting every span over OTLP (to a local receiver) against the
   pair with metrics on and tracing off.
4. The same REST page for a viewer following 5 big (pulled) and 200 normal authors. Baseline: the
   page of a viewer following only the same 200 normal authors, sampled in alternating blocks.
5. Hybrid fan-out: publish → the post is on a sampled follower's home page, for a 1M-follower
   author (pulled). Baseline: the same for a 10-follower author (pushed).
6. Head of line: publish → home page, for a 10-follower author's post published 1 s after a post of
   an author with the largest following of figure 1 (100k, pushed: the biggest fan-out the workers
   run; a pulled author queues nothing). Baseline: the same post with no job in flight. Bar: a
   ratio ≤ 2, a small post is not held up behind the chunks of a big fan-out.
7. Rows kept for a viewer after 10,000 followed posts (fan-out, trims). Baseline: the window.
8. Policy at read time: a page of 50 over gRPC and over signed REST for a viewer with 100 mutes and 50 word filters
   where 90% of its entries are filtered out (half by mutes, in the page's statement; four in five of
   the rest by the lasting hiding filters, whose verdicts their creation marked on the entries, in
   the statement too), p50. Baseline: a twin viewer with the same entries and no policy, sampled in
   alternating blocks. The entries the read judged per page, against TIMELINE_HOME_EXAMINE_MAX, are
   reported beside it.
9. Mute to effect: 1,000 times a mute through the gateway, then at once the next home read, then an
   unmute and the next read; a read still showing a muted author's post (or missing an unmuted one)
   is stale. Baseline: the reads made.
10. Rebuild of a viewer following 1,000 authors with 100k posts, requested through the gateway:
   seconds the job ran (started to finished) and from the request until it reads succeeded.
   Baseline: one raw `INSERT … SELECT` of the same rows (the window's most recent posts) for a twin.
11. Failover: the drill of `devstack.failover` (a primary and a synchronous standby, the primary
   crashed under a publish load through the gateway, the standby promoted): seconds from the crash
   to the first publish accepted after it. Baseline: a bare psycopg client reconnecting through the
   same multi-host URL every 10 ms, from the crash to its first write. The answers (only 2xx and
   503), publishes in doubt at the crash, and lost or doubled posts and entries are in its params.
12. The Redis master killed mid fan-out: a timeline server, worker and relay on a Sentinel set (a
   master, its replica, three Sentinels; devstack.sentinel), a post by an author with 20k followers,
   the master SIGKILLed once a few of its chunks are written. Seconds from the promotion to the next
   chunk written, against the Sentinels' own failover time (kill to promotion); and seconds from the
   publish to the last entry against the same fan-out with no fault. Lost and duplicated entries are
   reported (both must be 0).

The server pulls authors from PULL_THRESHOLD followers on, above the 10k and 100k of the push
fan-out figures, so those stay comparable with runs before hybrid fan-out.

    python services/timeline/bench/run.py [--followers 10000,100000] [--runs 300]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import psycopg

from devstack import infra
from devstack.bench import BENCH_DATA_DIR, latencies_ms, percentile, record
from devstack.failover import run_drill
from devstack.host_client import Host
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for
from devstack.sentinel import SentinelSet
from devstack.tls import DEV_CA
from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.db import Database, make_engine
from timeline.service import TimelineService
from timeline.settings import TimelineSettings

TENANT = str(uuid.uuid4())
HOST_KEY = {"tenant_id": TENANT, "key_id": "bench", "secret": uuid.uuid4().hex}
PAGE = 50
HOME_ENTRIES = 10_000
PULL_THRESHOLD = 200_000
WINDOW = 1000
BIG_FOLLOWERS = 1_000_000

ENTRY_ID = "md5(CAST({t} AS text) || '/' || CAST({v} AS text) || '/' || CAST({p} AS text))::uuid"

RAW_PAGE = """
SELECT e.id, e.post_id, e.ranked_at, p.author_id, p.body, p.published_at, s.like_count, s.reply_count, s.share_count
FROM timeline.timeline_entries e
JOIN timeline.posts p ON p.tenant_id = e.tenant_id AND p.id = e.post_id
LEFT JOIN timeline.post_stats s ON s.tenant_id = e.tenant_id AND s.post_id = e.post_id
WHERE e.tenant_id = %(t)s AND e.viewer_id = %(v)s
  AND p.deleted_at IS NULL AND p.moderation_state = 'visible' AND (p.visibility = 'public' OR p.author_id = %(v)s)
  AND NOT EXISTS (SELECT 1 FROM timeline.blocks b WHERE b.tenant_id = %(t)s
      AND ((b.blocker_id = %(v)s AND b.blocked_id = p.author_id) OR (b.blocker_id = p.author_id AND b.blocked_id = %(v)s)))
ORDER BY e.ranked_at DESC, e.id DESC LIMIT %(n)s
"""


def metadata(actor: uuid.UUID | None = None) -> list[tuple[str, str]]:
    return [("x-tenant-id", TENANT)] + ([("x-actor-id", str(actor))] if actor else [])


def add_followers(conn: psycopg.Connection, author: uuid.UUID, count: int) -> None:
    conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                 "SELECT %s, gen_random_uuid(), %s FROM generate_series(1, %s)", (TENANT, author, count))


def a_follower(conn: psycopg.Connection, author: uuid.UUID) -> uuid.UUID:
    return conn.execute("SELECT follower_id FROM timeline.follows WHERE tenant_id = %s AND followee_id = %s LIMIT 1",
                        (TENANT, author)).fetchone()[0]


def publish(stub, author: uuid.UUID, body: str):
    return stub.PublishPost(pb.PublishPostRequest(body=body, visibility=pb.VISIBILITY_PUBLIC),
                            metadata=metadata(author), timeout=30).post


def fanout_running(conn: psycopg.Connection, post_id: str) -> bool:
    return conn.execute("SELECT EXISTS (SELECT 1 FROM timeline.fanout_progress WHERE post_id = %s "
                        "AND completed_at IS NULL)", (post_id,)).fetchone()[0]


def entries_of(conn: psycopg.Connection, post_id: str) -> int:
    return conn.execute("SELECT count(*) FROM timeline.timeline_entries WHERE post_id = %s AND kind = 'following'",
                        (post_id,)).fetchone()[0]


def raw_fanout_seconds(conn: psycopg.Connection, author: uuid.UUID) -> float:
    """The same rows as the fan-out writes, in one statement, for a post id of its own."""
    fake_post = uuid.uuid4()
    started = time.perf_counter()
    with conn.transaction():
        conn.execute(
            f"""
            INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
            SELECT {ENTRY_ID.format(t='f.tenant_id', v='f.follower_id', p='CAST(%(p)s AS uuid)')}, f.tenant_id,
                   f.follower_id, %(p)s, %(a)s, 'following', now()
            FROM timeline.follows f
            WHERE f.tenant_id = %(t)s AND f.followee_id = %(a)s AND f.ended_at IS NULL
            ON CONFLICT (tenant_id, viewer_id, post_id) DO NOTHING
            """,
            {"p": fake_post, "a": author, "t": TENANT},
        )
    elapsed = time.perf_counter() - started
    with conn.transaction():
        conn.execute("DELETE FROM timeline.timeline_entries WHERE post_id = %s", (fake_post,))
    return elapsed


def fanout_once(stub, conn, followers: int) -> tuple[float, float, tuple]:
    """(publish → last entry seconds, raw INSERT … SELECT seconds, (server lag, chunks)) for a new author."""
    author = uuid.uuid4()
    with conn.transaction():
        add_followers(conn, author, followers)
    conn.execute("ANALYZE timeline.follows")
    baseline = raw_fanout_seconds(conn, author)
    started = time.perf_counter()
    post = publish(stub, author, "bench")
    # The run completes in the transaction of its last chunk, so the last entry exists from that
    # commit on; polling the progress row (a key lookup) keeps the clock free of count(*) scans.
    while fanout_running(conn, post.id):
        time.sleep(0.005)
    elapsed = time.perf_counter() - started
    written = entries_of(conn, post.id)
    if written != followers:
        raise SystemExit(f"fan-out of {post.id} completed with {written} of {followers} entries")
    lag = conn.execute("SELECT extract(epoch FROM completed_at - published_at), chunks_done "
                       "FROM timeline.fanout_progress WHERE post_id = %s", (post.id,)).fetchone()
    return elapsed, baseline, lag


def bench_fanout(platform: Platform, stub, conn, followers: int, workers: int, repeats: int) -> None:
    """Medians over `repeats` posts (each with its own followers), so one slow hop does not decide."""
    samples = [fanout_once(stub, conn, followers) for _ in range(repeats)]
    elapsed = statistics.median(sample[0] for sample in samples)
    baseline = statistics.median(sample[1] for sample in samples)
    lags = [float(sample[2][0]) for sample in samples if sample[2] and sample[2][0]]
    record(f"timeline_fanout_{followers}_followers_{workers}_worker",
           {"followers": followers, "worker_processes": workers, "repeats": repeats,
            "chunks": samples[0][2][1] if samples[0][2] else None,
            "server_lag_seconds_median": statistics.median(lags) if lags else None},
           "seconds_publish_to_last_entry", elapsed, "s", "raw_insert_select", baseline)


def seed_home(conn: psycopg.Connection, viewer: uuid.UUID) -> None:
    """A viewer with 10k following entries over 100 authors, as fan-out would leave them."""
    with conn.transaction():
        conn.execute(
            """
            INSERT INTO timeline.posts (id, tenant_id, author_id, body, visibility, published_at)
            SELECT gen_random_uuid(), %(t)s, md5('author' || (i %% 100))::uuid, 'post ' || i, 'public',
                   now() - make_interval(secs => i)
            FROM generate_series(1, %(n)s) i
            """,
            {"t": TENANT, "n": HOME_ENTRIES},
        )
        conn.execute("INSERT INTO timeline.post_stats (post_id, tenant_id) SELECT id, tenant_id FROM timeline.posts "
                     "WHERE tenant_id = %s ON CONFLICT DO NOTHING", (TENANT,))
        conn.execute(
            f"""
            INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
            SELECT {ENTRY_ID.format(t='p.tenant_id', v='CAST(%(v)s AS uuid)', p='p.id')}, p.tenant_id, %(v)s, p.id,
                   p.author_id, 'following', p.published_at
            FROM timeline.posts p WHERE p.tenant_id = %(t)s AND p.body LIKE 'post %%'
            """,
            {"t": TENANT, "v": viewer},
        )
    conn.execute("ANALYZE timeline.timeline_entries")
    conn.execute("ANALYZE timeline.posts")


def signed_get(host: Host, path: str, query: str, viewer: uuid.UUID) -> None:
    host.request("GET", path, query=query, viewer=viewer).raise_for_status()


def record_latency(name: str, samples: list[float], baseline_name: str, baseline_parts: list[list[float]], runs: int) -> None:
    for p in (50, 99):
        baseline = sum(percentile(part, p) for part in baseline_parts)
        record(f"{name}_p{p}", {"page_size": PAGE, "viewer_entries": HOME_ENTRIES, "runs": runs},
               f"p{p}_latency", percentile(samples, p), "ms", baseline_name, baseline)


def bench_home(platform: Platform, stub, admin, conn, runs: int, blocks: int = 10) -> None:
    """The pages and their baselines are sampled in alternating blocks, as for the overhead figures,
    so load drifting on the machine falls on both sides of a ratio alike."""
    viewer = uuid.uuid4()
    seed_home(conn, viewer)
    params = {"t": TENANT, "v": viewer, "n": PAGE + 1}
    request = pb.GetHomeTimelineRequest(limit=PAGE)
    host = Host(platform.gateway_url, HOST_KEY, timeout=10)
    operations = {
        "raw_sql": lambda: conn.execute(RAW_PAGE, params, prepare=True).fetchall(),
        "grpc_home": lambda: stub.GetHomeTimeline(request, metadata=metadata(viewer), timeout=10),
        "grpc_noop": lambda: admin.Ping(pb.PingRequest(), metadata=metadata(viewer), timeout=10),
        "rest_home": lambda: signed_get(host, "/api/v1/timeline/home", f"limit={PAGE}", viewer),
        "rest_noop": lambda: signed_get(host, "/api/v1/timeline/ping", "", viewer),
    }
    sampled: dict[str, list[float]] = {name: [] for name in operations}
    try:
        for block in range(blocks):
            for name in list(operations) if block % 2 == 0 else list(operations)[::-1]:
                sampled[name] += latencies_ms(operations[name], max(1, runs // blocks), warmup=5)
    finally:
        host.close()
    raw_sql, grpc_home, grpc_noop = sampled["raw_sql"], sampled["grpc_home"], sampled["grpc_noop"]
    rest_home, rest_noop = sampled["rest_home"], sampled["rest_noop"]
    record_latency("timeline_home_grpc", grpc_home, "noop_grpc_plus_raw_sql", [grpc_noop, raw_sql], runs)
    record_latency("timeline_home_rest", rest_home, "noop_rest_plus_raw_sql", [rest_noop, raw_sql], runs)
    for name, samples in [("timeline_home_raw_sql", raw_sql), ("timeline_noop_grpc", grpc_noop),
                          ("timeline_noop_rest", rest_noop)]:
        print(json.dumps({"name": name, "p50_ms": round(percentile(samples, 50), 3),
                          "p99_ms": round(percentile(samples, 99), 3)}), flush=True)


def bench_overhead(figure: str, on: Platform, off: Platform, baseline: str, conn: psycopg.Connection, runs: int,
                   blocks: int = 10) -> None:
    """REST home page p50 through `on` against `off`; blocks alternate so load drifting on the
    machine falls on both alike."""
    viewer = uuid.uuid4()
    seed_home(conn, viewer)
    samples: dict[str, list[float]] = {"on": [], "off": []}
    hosts = {"on": Host(on.gateway_url, HOST_KEY, timeout=10), "off": Host(off.gateway_url, HOST_KEY, timeout=10)}
    try:
        for block in range(blocks):
            for key in ("on", "off") if block % 2 == 0 else ("off", "on"):
                samples[key] += latencies_ms(
                    lambda host=hosts[key]: signed_get(host, "/api/v1/timeline/home", f"limit={PAGE}", viewer),
                    max(1, runs // blocks), warmup=5)
    finally:
        for host in hosts.values():
            host.close()
    record(figure, {"page_size": PAGE, "viewer_entries": HOME_ENTRIES, "runs": runs},
           "p50_latency", percentile(samples["on"], 50), "ms", baseline, percentile(samples["off"], 50))


class TraceReceiver:
    """Accepts OTLP/HTTP exports and drops them: the traced pair pays for recording and sending
    every span, as it would to a collector."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", 0)))
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    def __init__(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self.Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def materialize(conn: psycopg.Connection, viewers: list[uuid.UUID], authors: list[uuid.UUID]) -> None:
    """The fan-out's entries of the authors' posts in each viewer's home, written in one statement."""
    conn.execute(
        f"""
        INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
        SELECT {ENTRY_ID.format(t='p.tenant_id', v='v', p='p.id')}, p.tenant_id, v, p.id, p.author_id,
               'following', p.published_at
        FROM timeline.posts p CROSS JOIN unnest(%(viewers)s::uuid[]) v
        WHERE p.tenant_id = %(t)s AND p.author_id = ANY(%(authors)s::uuid[])
        """,
        {"t": TENANT, "viewers": viewers, "authors": authors},
    )


def seed_mixed(conn: psycopg.Connection, mixed: uuid.UUID, normal_only: uuid.UUID) -> None:
    """200 normal authors with 50 posts each, fanned out to both viewers (entries as fan-out leaves
    them), and 5 big authors with 200 pulled posts each, followed by `mixed` only."""
    normal = [uuid.uuid4() for _ in range(200)]
    big = [uuid.uuid4() for _ in range(5)]
    with conn.transaction():
        conn.execute(
            """
            INSERT INTO timeline.posts (id, tenant_id, author_id, body, visibility, delivery, published_at)
            SELECT gen_random_uuid(), %(t)s, a.author, 'mixed ' || i, 'public', a.delivery,
                   now() - make_interval(secs => i * 3 + a.n)
            FROM unnest(%(authors)s::uuid[], %(deliveries)s::text[]) WITH ORDINALITY AS a(author, delivery, n)
            CROSS JOIN generate_series(1, CASE a.delivery WHEN 'pull' THEN 200 ELSE 50 END) i
            """,
            {"t": TENANT, "authors": normal + big, "deliveries": ["push"] * len(normal) + ["pull"] * len(big)},
        )
        conn.execute("INSERT INTO timeline.post_stats (post_id, tenant_id) SELECT id, tenant_id FROM timeline.posts "
                     "WHERE tenant_id = %s ON CONFLICT DO NOTHING", (TENANT,))
        conn.execute("INSERT INTO timeline.pulled_authors (tenant_id, author_id) SELECT %s, unnest(%s::uuid[])",
                     (TENANT, big))
        conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                     "SELECT %s, v, unnest(%s::uuid[]) FROM unnest(%s::uuid[]) v",
                     (TENANT, normal, [mixed, normal_only]))
        conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                     "SELECT %s, %s, unnest(%s::uuid[])", (TENANT, mixed, big))
        materialize(conn, [mixed, normal_only], normal)
    for table in ("timeline_entries", "posts", "follows", "pulled_authors"):
        conn.execute(f"ANALYZE timeline.{table}")


def bench_home_mixed(platform: Platform, conn, runs: int, blocks: int = 10) -> None:
    mixed, normal_only = uuid.uuid4(), uuid.uuid4()
    seed_mixed(conn, mixed, normal_only)
    host = Host(platform.gateway_url, HOST_KEY, timeout=10)
    samples: dict[uuid.UUID, list[float]] = {mixed: [], normal_only: []}
    try:
        # Alternating blocks, as for the overhead figures, so load drifting on the machine falls on both alike.
        for block in range(blocks):
            for viewer in (mixed, normal_only) if block % 2 == 0 else (normal_only, mixed):
                samples[viewer] += latencies_ms(
                    lambda viewer=viewer: signed_get(host, "/api/v1/timeline/home", f"limit={PAGE}", viewer),
                    max(1, runs // blocks), warmup=5)
    finally:
        host.close()
    record("timeline_home_mixed_rest_p50", {"page_size": PAGE, "big_authors": 5, "normal_authors": 200, "runs": runs},
           "p50_latency", percentile(samples[mixed], 50), "ms", "same_page_normal_authors_only_rest_p50",
           percentile(samples[normal_only], 50))


def on_home(stub, viewer: uuid.UUID, post_id: str) -> bool:
    page = stub.GetHomeTimeline(pb.GetHomeTimelineRequest(limit=5), metadata=metadata(viewer), timeout=10)
    return any(item.post_id == post_id for item in page.items)


def publish_to_home_seconds(stub, author: uuid.UUID, follower: uuid.UUID) -> float:
    started = time.perf_counter()
    post = publish(stub, author, "hybrid")
    while not on_home(stub, follower, post.id):
        time.sleep(0.002)
    return time.perf_counter() - started


def bench_hybrid_fanout(stub, conn, repeats: int) -> None:
    """A sampled follower of each author; the authors' followers are seeded once."""
    big, small = uuid.uuid4(), uuid.uuid4()
    with conn.transaction():
        add_followers(conn, big, BIG_FOLLOWERS)
        add_followers(conn, small, 10)
    conn.execute("ANALYZE timeline.follows")
    big_follower, small_follower = a_follower(conn, big), a_follower(conn, small)
    pulled = statistics.median(publish_to_home_seconds(stub, big, big_follower) for _ in range(repeats))
    pushed = statistics.median(publish_to_home_seconds(stub, small, small_follower) for _ in range(repeats))
    record(f"timeline_fanout_hybrid_{BIG_FOLLOWERS}_followers",
           {"followers": BIG_FOLLOWERS, "pull_threshold": PULL_THRESHOLD, "repeats": repeats},
           "seconds_publish_to_follower_home", pulled, "s", "same_for_10_follower_author", pushed)


def jobs_idle(conn) -> bool:
    return not conn.execute("SELECT EXISTS (SELECT 1 FROM timeline.outbox WHERE acked_at IS NULL)").fetchone()[0]


def bench_head_of_line(stub, conn, followers: int, workers: int, repeats: int, delay: float = 1.0) -> None:
    """Each repeat measures the small post once behind the big one and once alone, both from no job in
    flight, in alternating order, so load drifting on the machine falls on both alike."""
    big, small = uuid.uuid4(), uuid.uuid4()
    with conn.transaction():
        add_followers(conn, big, followers)
        add_followers(conn, small, 10)
    conn.execute("ANALYZE timeline.follows")
    follower = a_follower(conn, small)
    samples: dict[str, list[float]] = {"behind": [], "alone": []}
    overlapped = 0

    def behind() -> float:
        nonlocal overlapped
        started = time.perf_counter()
        post = publish(stub, big, "head of line")
        time.sleep(max(0.0, delay - (time.perf_counter() - started)))
        seconds = publish_to_home_seconds(stub, small, follower)
        # Whether the big fan-out was still running when the small post arrived (else nothing was ahead).
        overlapped += fanout_running(conn, post.id)
        return seconds

    for repeat in range(repeats):
        for key in ("behind", "alone") if repeat % 2 == 0 else ("alone", "behind"):
            wait_for(lambda: jobs_idle(conn), "timeline jobs drained", None, timeout=600)
            samples[key].append(behind() if key == "behind" else publish_to_home_seconds(stub, small, follower))
    record("timeline_fanout_head_of_line",
           {"big_author_followers": followers, "small_author_followers": 10, "delay_seconds": delay,
            "pull_threshold": PULL_THRESHOLD, "worker_processes": workers, "repeats": repeats,
            "overlapped_repeats": overlapped},
           "seconds_publish_to_follower_home", statistics.median(samples["behind"]), "s",
           "same_post_nothing_in_flight", statistics.median(samples["alone"]))


def bench_entries_per_viewer(stub, conn, posts: int) -> None:
    """A viewer following 20 authors who publish `posts` posts between them, through the real
    publish, fan-out and trim jobs; the authors have no other followers."""
    viewer, authors = uuid.uuid4(), [uuid.uuid4() for _ in range(20)]
    with conn.transaction():
        conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                     "SELECT %s, %s, unnest(%s::uuid[])", (TENANT, viewer, authors))

    def publish(i: int) -> None:
        stub.PublishPost(pb.PublishPostRequest(body=f"window {i}", visibility=pb.VISIBILITY_PUBLIC),
                         metadata=metadata(authors[i % len(authors)]), timeout=30)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(publish, range(posts)))
    wait_for(lambda: jobs_idle(conn), "timeline jobs drained", None, timeout=1800)
    kept = conn.execute("SELECT count(*) FROM timeline.timeline_entries WHERE tenant_id = %s AND viewer_id = %s",
                        (TENANT, viewer)).fetchone()[0]
    record("timeline_entries_per_viewer", {"followed_posts": posts, "window_entries": WINDOW},
           "rows_kept", kept, "rows", "window_entries", WINDOW)


POLICY_AUTHORS = 200
POLICY_POSTS_PER_AUTHOR = 25
POLICY_MUTES = 100
POLICY_FILTERS = 50


def seed_policy(conn: psycopg.Connection, viewer: uuid.UUID, twin: uuid.UUID) -> list[uuid.UUID]:
    """Both viewers follow 200 authors with 25 posts each, interleaved in time, all fanned out to
    them. `viewer` mutes every other author; of the other authors' posts, four in five name one of
    the 50 filtered topics. Returns the authors to mute."""
    authors = [uuid.uuid4() for _ in range(POLICY_AUTHORS)]
    with conn.transaction():
        conn.execute(
            """
            INSERT INTO timeline.posts (id, tenant_id, author_id, body, folded_body, visibility, published_at)
            SELECT gen_random_uuid(), %(t)s, (%(authors)s::uuid[])[i %% %(n)s + 1], b.body, lower(b.body), 'public',
                   now() - make_interval(secs => i)
            FROM generate_series(0, %(posts)s - 1) i
            CROSS JOIN LATERAL (SELECT CASE WHEN (i / %(n)s + i %% %(n)s) %% 5 = 0 THEN 'Plain news number ' || i
                                            ELSE 'All about Topic' || (i %% 50) || ' today' END AS body) b
            """,
            {"t": TENANT, "authors": authors, "n": POLICY_AUTHORS, "posts": POLICY_AUTHORS * POLICY_POSTS_PER_AUTHOR},
        )
        conn.execute("INSERT INTO timeline.post_stats (post_id, tenant_id) SELECT id, tenant_id FROM timeline.posts "
                     "WHERE tenant_id = %s ON CONFLICT DO NOTHING", (TENANT,))
        conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                     "SELECT %s, v, unnest(%s::uuid[]) FROM unnest(%s::uuid[]) v", (TENANT, authors, [viewer, twin]))
        materialize(conn, [viewer, twin], authors)
    for table in ("timeline_entries", "posts", "post_stats", "follows"):
        conn.execute(f"ANALYZE timeline.{table}")
    # Author k wrote posts k, k + 200, …; of every 200 consecutive posts, four in five of the odd
    # authors' name a topic.
    return authors[::2][:POLICY_MUTES]


def examined_per_page(database_url: str, redis_url: str, viewer: uuid.UUID, pages: int) -> list[int]:
    """Entries the viewer's filters judged for each of its first pages, read by the service itself."""
    settings = TimelineSettings(DATABASE_URL=database_url, REDIS_URL=redis_url)
    database = Database(make_engine(settings.database_url, pool_size=1))
    counts, cursor = [], ""
    try:
        with database.read() as connection:
            for _ in range(pages):
                page = TimelineService(connection, settings).home(uuid.UUID(TENANT), viewer, PAGE, cursor)
                counts.append(page.examined)
                if page.next_cursor is None:
                    break
                cursor = page.next_cursor
    finally:
        database.engine.dispose()
    return counts


def bench_policy_page(platform: Platform, stub, policy, conn, database_url: str, redis_url: str, runs: int,
                      blocks: int = 10) -> None:
    viewer, twin = uuid.uuid4(), uuid.uuid4()
    for author in seed_policy(conn, viewer, twin):
        policy.MuteAuthor(pb.MuteAuthorRequest(author_id=str(author)), metadata=metadata(viewer), timeout=10)
    for topic in range(POLICY_FILTERS):
        policy.CreateWordFilter(pb.CreateWordFilterRequest(phrase=f"topic{topic}", action=pb.FILTER_ACTION_HIDE),
                                metadata=metadata(viewer), timeout=10)
    for table in ("mutes", "word_filters"):  # statistics, as autovacuum keeps them
        conn.execute(f"ANALYZE timeline.{table}")
    request = pb.GetHomeTimelineRequest(limit=PAGE)
    pages = {who: stub.GetHomeTimeline(request, metadata=metadata(who), timeout=10) for who in (viewer, twin)}
    assert len(pages[viewer].items) == len(pages[twin].items) == PAGE
    assert all(item.body.startswith("Plain news") for item in pages[viewer].items)
    host = Host(platform.gateway_url, HOST_KEY, timeout=10)
    operations = {
        "grpc": lambda who: stub.GetHomeTimeline(request, metadata=metadata(who), timeout=10),
        "rest": lambda who: signed_get(host, "/api/v1/timeline/home", f"limit={PAGE}", who),
    }
    samples: dict[tuple[str, uuid.UUID], list[float]] = {(via, who): [] for via in operations for who in (viewer, twin)}
    try:
        for block in range(blocks):
            for key in list(samples) if block % 2 == 0 else list(samples)[::-1]:
                via, who = key
                samples[key] += latencies_ms(lambda via=via, who=who: operations[via](who), max(1, runs // blocks),
                                             warmup=5)
    finally:
        host.close()
    examined = examined_per_page(database_url, redis_url, viewer, 5)
    bound = TimelineSettings.model_fields["home_examine_max"].default
    for via in operations:
        record(f"timeline_home_policy_{via}_p50",
               {"page_size": PAGE, "mutes": POLICY_MUTES, "word_filters": POLICY_FILTERS, "filtered_share": 0.9,
                "viewer_entries": POLICY_AUTHORS * POLICY_POSTS_PER_AUTHOR, "runs": runs,
                "examined_per_page": examined, "examine_bound": bound},
               "p50_latency", percentile(samples[(via, viewer)], 50), "ms", f"same_entries_no_policy_{via}_p50",
               percentile(samples[(via, twin)], 50))
    record("timeline_home_policy_examined_per_page", {"page_size": PAGE, "pages": len(examined)},
           "examined_entries_max", max(examined), "entries", "examine_bound", bound)


def bench_mute_to_effect(platform: Platform, conn, tries: int) -> None:
    """Each try is a viewer of its own (a signed write is never sent twice) that reads two authors:
    it mutes one and reads at once, then unmutes and reads at once."""
    viewers, author, other = [uuid.uuid4() for _ in range(tries)], uuid.uuid4(), uuid.uuid4()
    host = Host(platform.gateway_url, HOST_KEY, timeout=10)
    stale = 0
    try:
        for who in (author, other):
            host.request("POST", "/api/v1/timeline/posts", viewer=who, json_body={"body": "hello"}).raise_for_status()
        with conn.transaction():  # the follows and the entries their merges would write (no worker runs here)
            conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                         "SELECT %s, v, unnest(%s::uuid[]) FROM unnest(%s::uuid[]) v", (TENANT, [author, other], viewers))
            conn.execute(
                f"""
                INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                SELECT {ENTRY_ID.format(t='p.tenant_id', v='v', p='p.id')}, p.tenant_id, v, p.id, p.author_id,
                       'following', p.published_at
                FROM timeline.posts p CROSS JOIN unnest(%(viewers)s::uuid[]) v
                WHERE p.tenant_id = %(t)s AND p.author_id = ANY(%(authors)s::uuid[])
                """,
                {"t": TENANT, "viewers": viewers, "authors": [author, other]},
            )
        everyone = {str(author), str(other)}

        def authors_read(viewer: uuid.UUID) -> set[str]:
            page = host.request("GET", "/api/v1/timeline/home", query="limit=10", viewer=viewer)
            page.raise_for_status()
            return {item["author_id"] for item in page.json()["data"]}

        for viewer in viewers:
            assert authors_read(viewer) == everyone
            host.request("PUT", f"/api/v1/timeline/mutes/{author}", viewer=viewer).raise_for_status()
            stale += authors_read(viewer) != {str(other)}
            host.request("DELETE", f"/api/v1/timeline/mutes/{author}", viewer=viewer).raise_for_status()
            stale += authors_read(viewer) != everyone
    finally:
        host.close()
    record("timeline_mute_stale_reads", {"tries": tries, "reads": 2 * tries, "via": "signed REST"},
           "stale_reads", stale, "reads", "reads_made", 2 * tries)


REBUILD_AUTHORS = 1000
REBUILD_POSTS = 100_000


def seed_rebuild(conn: psycopg.Connection, viewer: uuid.UUID, twin: uuid.UUID) -> None:
    """1,000 authors with 100 posts each, interleaved in time, followed by both viewers."""
    authors = [uuid.uuid4() for _ in range(REBUILD_AUTHORS)]
    with conn.transaction():
        conn.execute(
            """
            INSERT INTO timeline.posts (id, tenant_id, author_id, body, visibility, published_at)
            SELECT gen_random_uuid(), %(t)s, (%(authors)s::uuid[])[i %% %(n)s + 1], 'rebuild ' || i, 'public',
                   now() - make_interval(secs => i)
            FROM generate_series(0, %(posts)s - 1) i
            """,
            {"t": TENANT, "authors": authors, "n": REBUILD_AUTHORS, "posts": REBUILD_POSTS},
        )
        conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                     "SELECT %s, v, unnest(%s::uuid[]) FROM unnest(%s::uuid[]) v", (TENANT, authors, [viewer, twin]))
    for table in ("posts", "follows"):
        conn.execute(f"ANALYZE timeline.{table}")


# The rows a rebuild writes for a viewer without entries: the window's most recent followed posts.
RAW_REBUILD = f"""
INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
SELECT {ENTRY_ID.format(t='p.tenant_id', v='CAST(%(v)s AS uuid)', p='p.id')}, p.tenant_id, %(v)s, p.id, p.author_id,
       'following', p.published_at
FROM timeline.follows f JOIN timeline.posts p ON p.tenant_id = f.tenant_id AND p.author_id = f.followee_id
WHERE f.tenant_id = %(t)s AND f.follower_id = %(v)s AND f.ended_at IS NULL
ORDER BY p.published_at DESC LIMIT %(window)s
"""


def bench_rebuild(platform: Platform, conn, repeats: int) -> None:
    host = Host(platform.gateway_url, HOST_KEY, timeout=30)
    run_seconds, request_seconds, raw_seconds, written = [], [], [], []
    try:
        for _ in range(repeats):
            viewer, twin = uuid.uuid4(), uuid.uuid4()
            seed_rebuild(conn, viewer, twin)
            started = time.perf_counter()
            accepted = host.request("POST", f"/api/v1/timeline/viewers/{viewer}/rebuild")
            accepted.raise_for_status()
            path = accepted.headers["Location"]

            def status(path: str = path) -> dict:
                return host.request("GET", path).json()["data"]

            wait_for(lambda: status()["status"] in ("succeeded", "failed"), "the rebuild", platform.group, 600)
            request_seconds.append(time.perf_counter() - started)
            done = status()
            assert done["status"] == "succeeded", done
            written.append(done["entries_written"])
            run_seconds.append((datetime.fromisoformat(done["finished_at"])
                                - datetime.fromisoformat(done["started_at"])).total_seconds())
            with conn.transaction():
                started = time.perf_counter()
                conn.execute(RAW_REBUILD, {"t": TENANT, "v": twin, "window": WINDOW})
                raw_seconds.append(time.perf_counter() - started)
    finally:
        host.close()
    params = {"followed_authors": REBUILD_AUTHORS, "posts": REBUILD_POSTS, "window": WINDOW,
              "entries_written": written, "repeats": repeats}
    raw = statistics.median(raw_seconds)
    record("timeline_rebuild_run_seconds", params, "seconds", statistics.median(run_seconds), "s",
           "raw_insert_select_same_rows", raw)
    record("timeline_rebuild_request_to_succeeded_seconds", params, "seconds", statistics.median(request_seconds), "s",
           "raw_insert_select_same_rows", raw)


def bench_failover(redis_url: str, data_dir: Path) -> None:
    report = run_drill(data_dir, redis_url, f"bench-failover-{uuid.uuid4().hex[:8]}")
    shutil.rmtree(data_dir / "cluster", ignore_errors=True)
    params = {"clients": report.clients, "followers": report.followers, "accepted": len(report.accepted),
              "answers": {str(status): n for status, n in sorted(report.statuses.items())},
              "in_doubt_at_crash": report.in_doubt, "lost": report.missing, "duplicated": report.duplicated,
              "home_entries_missing": report.home_expected - report.home_found,
              "home_entries_doubled": report.home_doubled}
    record("timeline_failover_recovery_seconds", params, "seconds", report.recovery_seconds, "s",
           "bare_client_reconnect_through_multi_host_url", report.raw_recovery_seconds)


FAILOVER_FOLLOWERS = 20_000
# Forty chunks, so the master dies with most of the fan-out still to run.
FAILOVER_CHUNK = 500
FAILOVER_KILL_AFTER_CHUNKS = 5


def chunks_done(conn: psycopg.Connection, post_id: str) -> int:
    row = conn.execute("SELECT chunks_done FROM timeline.fanout_progress WHERE post_id = %s", (post_id,)).fetchone()
    return row[0] if row else 0


def wait_fanned_out(conn: psycopg.Connection, post_id: str) -> float:
    while fanout_running(conn, post_id) or not chunks_done(conn, post_id):
        time.sleep(0.005)
    return time.perf_counter()


def bench_redis_failover(group: ProcessGroup, conn: psycopg.Connection, followers: int) -> None:
    sentinels = SentinelSet(BENCH_DATA_DIR / f"sentinels-{uuid.uuid4().hex[:8]}")
    sentinels.start()
    log_dir = group.log_dir / "redis-failover" if group.log_dir else None
    processes = ProcessGroup(log_dir=log_dir, env={**group.env, "REDIS_URL": "", **sentinels.env()})
    platform = Platform(processes, ports=Ports.free(), extra_env={"timeline": {
        "TIMELINE_PULL_THRESHOLD": str(PULL_THRESHOLD), "TIMELINE_FANOUT_CHUNK_SIZE": str(FAILOVER_CHUNK)}})
    try:
        platform.start_service("timeline", ("server", "worker", "relay"))
        wait_for(lambda: grpc_serving(platform.grpc_address("timeline")), "timeline SERVING", processes)
        stub = timeline_pb2_grpc.TimelineServiceStub(DEV_CA.channel(platform.grpc_address("timeline")))
        calm, author = uuid.uuid4(), uuid.uuid4()
        with conn.transaction():
            add_followers(conn, calm, followers)
            add_followers(conn, author, followers)
        conn.execute("ANALYZE timeline.follows")
        # The same fan-out with no fault, on the same processes.
        started = time.perf_counter()
        calm_post = publish(stub, calm, "no fault")
        calm_seconds = wait_fanned_out(conn, calm_post.id) - started
        started = time.perf_counter()
        post = publish(stub, author, "failover")
        while chunks_done(conn, post.id) < FAILOVER_KILL_AFTER_CHUNKS:
            time.sleep(0.005)
        sentinels.kill_master()
        killed_at = time.perf_counter()
        if not fanout_running(conn, post.id):
            raise SystemExit("the fan-out finished before the master was killed")
        sentinels.wait_for_failover(60)
        promoted_at = time.perf_counter()
        at_promotion = chunks_done(conn, post.id)
        while chunks_done(conn, post.id) == at_promotion and fanout_running(conn, post.id):
            time.sleep(0.005)
        resumed_at = time.perf_counter()
        finished_at = wait_fanned_out(conn, post.id)
        wait_for(lambda: jobs_idle(conn), "timeline jobs drained", None, timeout=600)
        entries, viewers = conn.execute("SELECT count(*), count(DISTINCT viewer_id) FROM timeline.timeline_entries "
                                        "WHERE post_id = %s AND kind = 'following'", (post.id,)).fetchone()
    finally:
        processes.stop()
        sentinels.stop()
    params = {"followers": followers, "chunk_size": FAILOVER_CHUNK, "chunks": chunks_done(conn, post.id),
              "killed_after_chunks": FAILOVER_KILL_AFTER_CHUNKS, "chunks_at_promotion": at_promotion,
              "failover_seconds": round(promoted_at - killed_at, 3),
              "resume_seconds_after_promotion": round(resumed_at - promoted_at, 3),
              "lost_entries": followers - viewers, "duplicated_entries": entries - viewers}
    if params["lost_entries"] or params["duplicated_entries"]:
        raise SystemExit(f"the fan-out across the failover lost or doubled entries: {params}")
    record("timeline_redis_failover_fanout_resume", params, "seconds_promotion_to_next_chunk",
           resumed_at - promoted_at, "s", "sentinel_failover_kill_to_promotion", promoted_at - killed_at)
    record("timeline_redis_failover_fanout_total", params, "seconds_publish_to_last_entry",
           finished_at - started, "s", "same_fanout_no_fault", calm_seconds)


def start_worker(platform: Platform, processes: int) -> None:
    env = {**platform.service_env("timeline"), "TIMELINE_WORKER_PROCESSES": str(processes)}
    platform.group.start(f"timeline-worker-{processes}", python_module("timeline", "worker"), env)


def stop_worker(platform: Platform, processes: int) -> None:
    group = platform.group
    worker = next(p for p in group.processes if p.name == f"timeline-worker-{processes}")
    worker.popen.terminate()
    worker.popen.wait(30)
    group.processes.remove(worker)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--followers", default="10000,100000", help="comma-separated follower counts")
    parser.add_argument("--workers", default="1,2", help="comma-separated worker process counts")
    parser.add_argument("--runs", type=int, default=300, help="samples per latency measurement")
    parser.add_argument("--repeats", type=int, default=5, help="posts fanned out per follower count and worker count")
    parser.add_argument("--window-posts", type=int, default=10_000, help="followed posts of the entries-per-viewer figure")
    parser.add_argument("--mute-tries", type=int, default=1000, help="mutes and unmutes of the mute-to-effect figure")
    parser.add_argument("--only", default="home,metrics,traces,mixed,policy,mute,fanout,headofline,hybrid,window,"
                                          "rebuild,redis-failover,failover",
                        help="comma-separated figures to measure (home, metrics, traces, mixed, policy, mute, "
                             "fanout, headofline, hybrid, window, rebuild, redis-failover, failover)")
    args = parser.parse_args()

    resolved = infra.resolve(BENCH_DATA_DIR)
    database_url = resolved.server_url(f"feeds_bench_timeline_{uuid.uuid4().hex[:8]}")
    infra.ensure_database(database_url)
    logs = Path(tempfile.mkdtemp(prefix="timeline-bench-"))
    group = ProcessGroup(log_dir=logs, env={"DATABASE_URL": database_url, "REDIS_URL": resolved.redis_url,
                                            "REDIS_NAMESPACE": f"bench-{uuid.uuid4().hex[:8]}",
                                            "PYTHONUNBUFFERED": "1", "TIMELINE_LOG_LEVEL": "WARNING",
                                            "GATEWAY_LOG_LEVEL": "WARNING"})
    env = {"gateway": {"TIMELINE_HOST_KEYS": json.dumps([HOST_KEY])},
           "timeline": {"TIMELINE_PULL_THRESHOLD": str(PULL_THRESHOLD), "TIMELINE_WINDOW_ENTRIES": str(WINDOW)}}
    # Metrics on, as deployed; a second server and gateway without them for the overhead figure.
    platform = Platform(group, ports=Ports.free(metrics=True), extra_env=env)
    unmetered = Platform(group, ports=Ports.free(), extra_env=env)
    # Metrics on and every span exported, for the cost of traces.
    receiver = TraceReceiver()
    otel = {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint}
    traced = Platform(group, ports=Ports.free(metrics=True),
                      extra_env={"gateway": {**env["gateway"], **otel}, "timeline": {**env["timeline"], **otel}})
    try:
        group.run("timeline-migrate", python_module("timeline", "migrate"), platform.service_env("timeline"))
        platform.start_service("timeline", ("server", "relay"))
        platform.start_gateway()
        group.start("timeline-server-unmetered", python_module("timeline", "server"), unmetered.service_env("timeline"))
        unmetered.start_gateway("gateway-unmetered")
        group.start("timeline-server-traced", python_module("timeline", "server"), traced.process_env("timeline", "server"))
        traced.start_gateway("gateway-traced")
        address = platform.grpc_address("timeline")
        for each in (platform, unmetered, traced):
            wait_for(lambda each=each: grpc_serving(each.grpc_address("timeline")), "timeline SERVING", group)
            wait_for(lambda each=each: http_ok(f"{each.gateway_url}/healthz"), "gateway", group)
        channel = DEV_CA.channel(address)
        stub, admin = timeline_pb2_grpc.TimelineServiceStub(channel), timeline_pb2_grpc.TimelineAdminStub(channel)
        only = set(args.only.split(","))
        follower_counts = [int(f) for f in args.followers.split(",")]
        with psycopg.connect(infra.libpq_url(database_url), autocommit=True) as conn:
            if "home" in only:
                bench_home(platform, stub, admin, conn, args.runs)
            if "metrics" in only:
                bench_overhead("timeline_home_rest_metrics_on_p50", platform, unmetered, "metrics_off", conn, args.runs)
            if "traces" in only:
                bench_overhead("timeline_home_rest_traces_on_p50", traced, platform, "traces_off", conn, args.runs)
            if "mixed" in only:
                bench_home_mixed(platform, conn, args.runs)
            if "policy" in only:
                bench_policy_page(platform, stub, timeline_pb2_grpc.TimelinePolicyStub(channel), conn, database_url,
                                  resolved.redis_url, args.runs)
            if "mute" in only:
                bench_mute_to_effect(platform, conn, args.mute_tries)
            for number, workers in enumerate(int(w) for w in args.workers.split(",")):
                start_worker(platform, workers)
                time.sleep(2)  # let the worker processes boot before the clock starts
                if "fanout" in only:
                    for followers in follower_counts:
                        bench_fanout(platform, stub, conn, followers, workers, args.repeats)
                if number == 0 and "headofline" in only:
                    bench_head_of_line(stub, conn, max(follower_counts), workers, args.repeats)
                if number == 0 and "hybrid" in only:
                    bench_hybrid_fanout(stub, conn, args.repeats)
                if number == 0 and "window" in only:
                    bench_entries_per_viewer(stub, conn, args.window_posts)
                if number == 0 and "rebuild" in only:
                    bench_rebuild(platform, conn, args.repeats)
                stop_worker(platform, workers)
            if "redis-failover" in only:
                bench_redis_failover(group, conn, FAILOVER_FOLLOWERS)
        if "failover" in only:
            bench_failover(resolved.redis_url, logs / "failover")
    finally:
        group.stop()
        infra.drop_database(database_url)
        print(f"process logs: {logs}", file=sys.stderr)


if __name__ == "__main__":
    main()
