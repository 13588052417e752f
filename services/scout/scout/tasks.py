"""Dramatiq actors of the scout service. Idempotent; arguments are ids and plain JSON."""

from __future__ import annotations

import uuid
import dramatiq

from scout.app import SERVICE
from scout.scan.executor import ScanExecution, scan_lock_key
from scout.jobs import SCAN_QUEUE, SCAN_RUN


def _sources():
    from scout.pipeline.sources import build_sources

    return build_sources(SERVICE.settings, SERVICE.redis, SERVICE.database)


@dramatiq.actor(queue_name=SCAN_QUEUE, actor_name=SCAN_RUN, min_backoff=500, max_backoff=2_000,
                time_limit=15 * 60 * 1000)
def scan_run(job_id: str, owner_id: str) -> None:
    """Run one scan job of `owner_id`. A redelivered or duplicate message finds the job finished
    (no-op) or locked by another worker (retried later, so the outbox row is acknowledged only once
    done); a worker that lost its lock fails the message too, so a retry takes the job over."""
    settings = SERVICE.settings
    ScanExecution(
        SERVICE.database, SERVICE.redis, scan_lock_key(settings.redis_namespace, job_id), settings.scan_lock_seconds,
        _sources, uuid.UUID(job_id), uuid.UUID(owner_id), settings.scan_now, settings.ranking,
    ).execute()
