"""Read-replica drills on the timeline (`make bench-replicas`), output per docs/architecture.md via
devstack.bench, on a real primary and streaming replica (devstack.replication).

Members publish and at once read their home page (write-then-read pairs) through one timeline
server, while readers who never write read theirs through another, and a worker fans every post out
to the readers (replication traffic). Both servers have the replica (DATABASE_REPLICA_URLS).

1. Own writes: of PAIRS pairs, how many home pages missed the post just published. Bar: 0.
   Baseline: the pairs made.
2. Other reads on the replica: the readers' reads the replica served, from their server's
   feeds_db_reads_total. Goal ≥ 90%. Baseline: all their reads.
3. Replica stopped mid-load for STOP_SECONDS: errors answered to clients (bar: 0), and seconds from
   the replica's return until reads are served by it again (bar: ≤ 5 s). Baseline: the calls made
   while it was away; the probe retry interval.
4. Home page p50 of a viewer with 10k entries from the replica (the readers' server) against the
   same page from the primary (a server with no replica), sampled in alternating blocks. Bar: ratio
   ≤ 1.2.

    python services/timeline/bench/replicas.py [--pairs 10000] [--threads 4] [--runs 300]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import psycopg
from prometheus_client.parser import text_string_to_metric_families

from devstack import infra
from devstack.bench import BENCH_DATA_DIR, latencies_ms, percentile, record
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, python_module, wait_for
from devstack.replication import PostgresCluster
from devstack.tls import DEV_CA
from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.replicas import RETRY_INTERVAL
from run import TENANT, metadata, seed_home  # the timeline benchmark's seed, beside this file

DATABASE = "feeds_bench_replicas"
WRITERS = 50
READERS = 50
STOP_SECONDS = 5.0


def reads_by_target(metrics_url: str) -> dict[str, float]:
    with urllib.request.urlopen(metrics_url, timeout=5) as response:
        exposition = response.read().decode()
    counts = {"primary": 0.0, "replica": 0.0}
    for family in text_string_to_metric_families(exposition):
        if family.name == "feeds_db_reads":
            for sample in family.samples:
                if sample.name == "feeds_db_reads_total":
                    counts[sample.labels["target"]] += sample.value
    return counts


def seed_follows(conn: psycopg.Connection, writers: list[uuid.UUID], readers: list[uuid.UUID]) -> None:
    """Every reader follows every writer, so each post fans out to all readers."""
    conn.execute("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                 "SELECT %s, r, w FROM unnest(%s::uuid[]) r, unnest(%s::uuid[]) w", (TENANT, readers, writers))


class Load:
    """Write-then-read pairs and readers' pages on threads until stopped; errors counted, never raised."""

    def __init__(self, writer_stub, reader_stub, writers: list[uuid.UUID], readers: list[uuid.UUID]) -> None:
        self._writer_stub, self._reader_stub = writer_stub, reader_stub
        self._writers, self._readers = writers, readers
        self._lock = threading.Lock()
        self.pairs = self.missed = self.reads = self.errors = 0
        self.stop = threading.Event()

    def pair(self, n: int) -> None:
        writer = self._writers[n % len(self._writers)]
        try:
            post = self._writer_stub.PublishPost(pb.PublishPostRequest(body=f"pair {n}", visibility=pb.VISIBILITY_PUBLIC),
                                                 metadata=metadata(writer), timeout=30).post
            page = self._writer_stub.GetHomeTimeline(pb.GetHomeTimelineRequest(limit=20), metadata=metadata(writer),
                                                     timeout=30)
        except grpc.RpcError:
            with self._lock:
                self.errors += 1
            return
        with self._lock:
            self.pairs += 1
            self.missed += not any(item.post_id == post.id for item in page.items)

    def read(self, n: int) -> None:
        try:
            self._reader_stub.GetHomeTimeline(pb.GetHomeTimelineRequest(limit=20),
                                              metadata=metadata(self._readers[n % len(self._readers)]), timeout=30)
        except grpc.RpcError:
            with self._lock:
                self.errors += 1
            return
        with self._lock:
            self.reads += 1

    def pairs_until_stopped(self) -> None:
        n = 0
        while not self.stop.is_set():
            self.pair(n)
            n += 1

    def pairs_then_stop(self, count: int, threads: int) -> None:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(self.pair, range(count)))
        self.stop.set()

    def readers_until_stopped(self, threads: int) -> None:
        def loop(offset: int) -> None:
            n = offset
            while not self.stop.is_set():
                self.read(n)
                n += threads
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(loop, range(threads)))


def bench_page(cluster: PostgresCluster, replica_stub, primary_stub, runs: int, blocks: int = 10) -> None:
    viewer = uuid.uuid4()
    with psycopg.connect(cluster.conninfo("primary", DATABASE), autocommit=True) as conn:
        seed_home(conn, viewer)
    cluster.wait_replayed()
    request = pb.GetHomeTimelineRequest(limit=50)
    operations = {
        "replica": lambda: replica_stub.GetHomeTimeline(request, metadata=metadata(viewer), timeout=10),
        "primary": lambda: primary_stub.GetHomeTimeline(request, metadata=metadata(viewer), timeout=10),
    }
    sampled: dict[str, list[float]] = {name: [] for name in operations}
    for block in range(blocks):
        for name in list(operations) if block % 2 == 0 else list(operations)[::-1]:
            sampled[name] += latencies_ms(operations[name], max(1, runs // blocks), warmup=5)
    record("replicas_home_p50", {"page_size": 50, "viewer_entries": 10_000, "runs": runs}, "p50_latency",
           percentile(sampled["replica"], 50), "ms", "primary_p50", percentile(sampled["primary"], 50))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=10_000, help="write-then-read pairs")
    parser.add_argument("--threads", type=int, default=4, help="threads making pairs, and as many reading")
    parser.add_argument("--runs", type=int, default=300, help="samples per home page latency")
    parser.add_argument("--only", default="pairs,outage,page", help="comma-separated figures (pairs, outage, page)")
    args = parser.parse_args()
    only = set(args.only.split(","))

    cluster = PostgresCluster(BENCH_DATA_DIR / f"replicas-{uuid.uuid4().hex[:8]}")
    cluster.start()
    with psycopg.connect(cluster.conninfo("primary"), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {DATABASE}")
    resolved = infra.resolve(BENCH_DATA_DIR)
    logs = Path(tempfile.mkdtemp(prefix="replicas-bench-"))
    group = ProcessGroup(log_dir=logs, env={
        "DATABASE_URL": cluster.url(DATABASE, "primary"), "DATABASE_REPLICA_URLS": cluster.url(DATABASE, "replica"),
        "REDIS_URL": resolved.redis_url, "REDIS_NAMESPACE": f"bench-{uuid.uuid4().hex[:8]}",
        "PYTHONUNBUFFERED": "1", "TIMELINE_LOG_LEVEL": "WARNING"})
    writers_side = Platform(group, ports=Ports.free(metrics=True))
    readers_side = Platform(group, ports=Ports.free(metrics=True))
    primary_only = Platform(group, ports=Ports.free(), extra_env={"timeline": {"DATABASE_REPLICA_URLS": ""}})
    try:
        group.run("timeline-migrate", python_module("timeline", "migrate"), writers_side.service_env("timeline"))
        writers_side.start_service("timeline")
        group.start("timeline-server-readers", python_module("timeline", "server"),
                    readers_side.process_env("timeline", "server"))
        group.start("timeline-server-primary", python_module("timeline", "server"), primary_only.service_env("timeline"))
        for side in (writers_side, readers_side, primary_only):
            wait_for(lambda side=side: grpc_serving(side.grpc_address("timeline")), "timeline SERVING", group)
        stubs = [timeline_pb2_grpc.TimelineServiceStub(DEV_CA.channel(side.grpc_address("timeline")))
                 for side in (writers_side, readers_side, primary_only)]
        writers, readers = [uuid.uuid4() for _ in range(WRITERS)], [uuid.uuid4() for _ in range(READERS)]
        with psycopg.connect(cluster.conninfo("primary", DATABASE), autocommit=True) as conn:
            seed_follows(conn, writers, readers)
        cluster.wait_replayed()
        readers_metrics = readers_side.metrics_url("timeline-server")
        assert readers_metrics is not None

        if "pairs" in only:
            bench_pairs(stubs, writers, readers, readers_metrics, args.pairs, args.threads)
        if "outage" in only:
            bench_outage(cluster, stubs, writers, readers, readers_metrics, args.threads)
        if "page" in only:
            bench_page(cluster, stubs[1], stubs[2], args.runs)
    finally:
        group.stop()
        cluster.stop()
        print(f"process logs: {logs}", file=sys.stderr)


def bench_pairs(stubs, writers, readers, readers_metrics: str, pairs: int, threads: int) -> None:
    load = Load(stubs[0], stubs[1], writers, readers)
    reading = threading.Thread(target=load.readers_until_stopped, args=(threads,))
    writing = threading.Thread(target=load.pairs_then_stop, args=(pairs, threads))
    reading.start()
    writing.start()
    writing.join()
    reading.join()
    counts = reads_by_target(readers_metrics)
    params = {"pairs": pairs, "threads": threads, "writers": WRITERS, "readers": READERS}
    record("replicas_own_write_missed", {**params, "errors": load.errors}, "reads_missing_own_write", load.missed,
           "reads", "pairs", load.pairs)
    record("replicas_other_reads_on_replica", {**params, "errors": load.errors}, "reads_on_replica",
           counts["replica"], "reads", "reads", counts["replica"] + counts["primary"])


def bench_outage(cluster: PostgresCluster, stubs, writers, readers, readers_metrics: str, threads: int) -> None:
    """Stop the replica mid-load, start it again, and time the readers' return to it."""
    load = Load(stubs[0], stubs[1], writers, readers)
    reading = threading.Thread(target=load.readers_until_stopped, args=(threads,))
    writing = threading.Thread(target=load.pairs_until_stopped)
    reading.start()
    writing.start()
    try:
        wait_for(lambda: load.reads > 100, "load on the readers' server", timeout=60)
        calls_before = load.pairs + load.reads
        cluster.stop_replica()
        time.sleep(STOP_SECONDS)  # the outage itself: a length of time, not a wait for a state
        cluster.start_replica()
        returned_at = time.monotonic()
        before = reads_by_target(readers_metrics)["replica"]
        wait_for(lambda: reads_by_target(readers_metrics)["replica"] > before, "reads back on the replica",
                 timeout=60)
        back_seconds = time.monotonic() - returned_at
    finally:
        load.stop.set()
        writing.join()
        reading.join()
    params = {"stopped_seconds": STOP_SECONDS, "pairs": load.pairs, "own_write_missed": load.missed}
    record("replicas_outage_errors", params, "errors", load.errors, "calls", "calls_during_outage",
           load.pairs + load.reads - calls_before)
    record("replicas_outage_back_on_replica", params, "seconds_to_replica", back_seconds, "s",
           "probe_retry_interval", RETRY_INTERVAL)


if __name__ == "__main__":
    main()
