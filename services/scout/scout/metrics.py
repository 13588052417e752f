"""Series of the scout service: scan stages, finished runs and every request to a search source."""

from __future__ import annotations

from prometheus_client import Counter, Histogram
from sqlalchemy.orm import Session

from feeds_runtime.observability import metrics

SCAN_DURATION = Histogram(
    "scout_scan_duration_seconds", "Time one stage of a scan took (its searches, dedup and gate).", ["stage"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0),
)
RUNS = Counter("scout_runs_total", "Scout runs that reached a terminal status.", ["status"])
SOURCE_REQUESTS = Counter(
    "scout_source_requests_total", "Requests to a search source, by outcome (ok or unavailable).",
    ["source", "outcome"],
)


def scan_stages(stage_ms: dict[str, float]) -> None:
    if metrics.enabled():
        for stage, ms in stage_ms.items():
            SCAN_DURATION.labels(stage).observe(ms / 1000)


def run_finished(session: Session, status: str) -> None:
    """Count the run's terminal transition once its transaction commits."""
    metrics.after_commit(session, RUNS.labels(status).inc)


def source_request(source: str, ok: bool) -> None:
    if metrics.enabled():
        SOURCE_REQUESTS.labels(source, "ok" if ok else "unavailable").inc()
