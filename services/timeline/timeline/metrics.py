"""Series of the timeline service, recorded by its actors once their transaction has committed."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

from feeds_runtime.observability import metrics

FANOUT_LAG = Histogram(
    "timeline_fanout_lag_seconds", "From a post's publication to the end of its fan-out to every follower.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0),
)
FANOUT_CHUNKS = Counter("timeline_fanout_chunks_total", "Fan-out chunk jobs completed.")


def fanout_chunk_written(lag_seconds: float | None) -> None:
    """One chunk committed; `lag_seconds` when it was the last chunk of a post's first fan-out."""
    if not metrics.enabled():
        return
    FANOUT_CHUNKS.inc()
    if lag_seconds is not None:
        FANOUT_LAG.observe(lag_seconds)
