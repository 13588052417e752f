"""Prometheus series shared by every process, and the HTTP endpoint that serves them.

A process that forks workers (the Dramatiq worker) runs in prometheus-client's multiprocess mode:
`multiprocess_env()` names a fresh folder before the worker command starts, so every child writes
its samples there and one exposition process sums them. Everything else keeps its samples in
memory and serves them from a thread.

A metrics port of 0 turns metrics off for the process: no endpoint, and the hooks record nothing.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.registry import Collector

log = logging.getLogger("feeds.metrics")

# Seconds: RPCs and REST calls are milliseconds when healthy, seconds when a dependency struggles.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

GRPC_HANDLED = Counter(
    "grpc_server_handled_total", "RPCs completed on the server, by status code.",
    ["grpc_service", "grpc_method", "grpc_code"],
)
GRPC_HANDLING = Histogram(
    "grpc_server_handling_seconds", "Time the server took to answer an RPC.",
    ["grpc_service", "grpc_method"], buckets=LATENCY_BUCKETS,
)
GRPC_REFUSED = Counter(
    "feeds_grpc_refused_total", "Calls refused before any servicer ran: no caller identity, a caller not "
    "allowed, or a tenant not granted to the caller (feeds_runtime.callers).",
    ["grpc_service", "grpc_method", "reason", "caller"],
)
HTTP_REQUESTS = Counter(
    "http_requests_total", "REST requests answered, by route template.", ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "http_request_duration_seconds", "Time taken to answer a REST request, by route template.",
    ["route", "method"], buckets=LATENCY_BUCKETS,
)
# Summed over the live processes of a multiprocess worker, so one scrape is one pod's pool use.
DB_POOL_IN_USE = Gauge(
    "feeds_db_pool_connections_in_use", "Database connections checked out of the pool.", ["pool"],
    multiprocess_mode="livesum",
)
DB_POOL_WAITING = Gauge(
    "feeds_db_pool_waiting", "Threads waiting for a connection from the pool.", ["pool"],
    multiprocess_mode="livesum",
)
DB_POOL_SIZE = Gauge(
    "feeds_db_pool_size", "Connections the pool keeps open (overflow excluded).", ["pool"],
    multiprocess_mode="livesum",
)
# Read replicas (feeds_runtime.replicas), per service (`application`) and replica (its host:port).
DB_REPLICA_LAG = Gauge(
    "feeds_db_replica_lag_seconds", "Time since the primary was at the position a replica has replayed, as "
    "last probed.", ["application", "replica"], multiprocess_mode="liveall",
)
DB_REPLICA_LAG_BYTES = Gauge(
    "feeds_db_replica_lag_bytes", "WAL the primary had written and a replica had not replayed, as last probed.",
    ["application", "replica"], multiprocess_mode="liveall",
)
DB_REPLICA_USABLE = Gauge(
    "feeds_db_replica_usable", "1 while a replica serves reads: it answers and is within the lag bound.",
    ["application", "replica"], multiprocess_mode="liveall",
)
DB_READS = Counter(
    "feeds_db_reads_total", "Lag-tolerant reads, by where they ran: the primary or a replica.",
    ["application", "target"],
)
DB_REPLICA_FALLBACKS = Counter(
    "feeds_db_replica_fallbacks_total", "Lag-tolerant reads sent to the primary, by reason.",
    ["application", "reason"],
)
DB_WRITE_POSITIONS_UNRECORDED = Counter(
    "feeds_db_write_positions_unrecorded_total", "Writes whose WAL position could not be recorded (Redis "
    "unreachable): the writer may read from a replica that has not replayed them yet.", ["application"],
)

_enabled = True


def enabled() -> bool:
    return _enabled


def disable() -> None:
    """Record nothing in this process (metrics port 0)."""
    global _enabled
    _enabled = False


def rpc_handled(method: str, code: str, seconds: float) -> None:
    """One finished unary RPC; `method` is gRPC's full name, `/package.Service/Method`."""
    if not _enabled:
        return
    service, _, name = method.lstrip("/").rpartition("/")
    GRPC_HANDLED.labels(service, name, code).inc()
    GRPC_HANDLING.labels(service, name).observe(seconds)


def rpc_refused(method: str, reason: str, caller: str) -> None:
    """A call the caller's identity or grants did not allow; `caller` is empty when it had none."""
    if not _enabled:
        return
    service, _, name = method.lstrip("/").rpartition("/")
    GRPC_REFUSED.labels(service, name, reason, caller).inc()


def serve(port: int, host: str, collectors: Sequence[Collector] = ()) -> int | None:
    """Serve this process's series (plus scrape-time `collectors`) on `host:port` from a thread;
    returns the bound port. A port already taken leaves the process running without an endpoint:
    a scrape that fails is an alert, a service that will not start over its metrics is an outage."""
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    for collector in collectors:
        registry.register(collector)
    try:
        server, _ = start_http_server(port, addr=host, registry=registry)
    except OSError as error:
        log.error("metrics endpoint not started", extra={"address": f"{host}:{port}", "error": str(error)})
        return None
    bound = server.server_address[1]
    log.info("metrics", extra={"address": f"{host}:{bound}"})
    return bound


def multiprocess_env(name: str, port: int, host: str) -> dict[str, str]:
    """Variables for a Dramatiq worker command: an emptied samples folder shared by its processes,
    and where Dramatiq's exposition process listens (it sums that folder on every scrape)."""
    folder = Path(tempfile.gettempdir()) / f"feeds-metrics-{name}-{port}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return {"PROMETHEUS_MULTIPROC_DIR": str(folder), "dramatiq_prom_db": str(folder),
            "dramatiq_prom_port": str(port), "dramatiq_prom_host": host}


def after_commit(session, record: Callable[[], None]) -> None:
    """Record `record()` once the session's transaction commits, never for one rolled back."""
    if not _enabled:
        return
    from sqlalchemy import event

    event.listen(session, "after_commit", lambda _session: record(), once=True)
