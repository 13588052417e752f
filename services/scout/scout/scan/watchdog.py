"""Scheduling watchdog, run by the scout server: a run whose job cannot be scheduled, or whose
worker went away, becomes failed instead of staying queued or running forever.

The run, its job and the outbox row are written in one transaction, so a scan that was accepted is
always durably scheduled. "Cannot be scheduled" is therefore what is left: the job is still queued
after `schedule_timeout_seconds` (no worker ever took it), or its outbox row used up every delivery
attempt without an acknowledgement and no worker has touched the job for a few lease periods. A
running job whose worker went away is normally taken over by the outbox's next delivery; it is
failed only when no delivery is left and no worker holds its lock.
"""

from __future__ import annotations

import logging
import threading

import redis

from feeds_runtime.db import Database
from scout.clock import now_utc
from scout.repositories.jobs import JobRepository
from scout.scan.executor import scan_lock_key
from scout.scan.transitions import fail_job
from scout.jobs import SCAN_RUN
from scout.settings import ScoutSettings

log = logging.getLogger("scout.watchdog")

UNSCHEDULABLE = "the scan job could not be scheduled"
WORKER_LOST = "the scan worker stopped before the run finished"
# A running job nobody has touched this long, whose lock nobody holds and for which the outbox has no
# delivery left, lost its worker for good. Redelivery takes a dead worker's job over within seconds;
# this only catches what redelivery cannot, so it waits as long as the longest stage may run.
STALL_SECONDS = 360
SETTLE_LEASE_PERIODS = 3


def sweep(database: Database, settings: ScoutSettings, redis_client: redis.Redis) -> int:
    with database.transaction() as session:
        jobs = JobRepository(session)
        now = now_utc()
        unschedulable = jobs.unschedulable(
            queued_timeout=settings.schedule_timeout_seconds,
            settle_seconds=SETTLE_LEASE_PERIODS * settings.outbox_lease_seconds,
            max_attempts=settings.outbox_max_attempts,
            actor_name=SCAN_RUN,
        )
        failed = sum(fail_job(session, job.owner_id, job.id, UNSCHEDULABLE, now) for job in unschedulable)
        candidates = jobs.stalled(stale_seconds=STALL_SECONDS,
                                  max_attempts=settings.outbox_max_attempts, actor_name=SCAN_RUN)
        stalled = [job for job in candidates if not redis_client.exists(scan_lock_key(settings.redis_namespace, job.id))]
        lost = sum(fail_job(session, job.owner_id, job.id, WORKER_LOST, now) for job in stalled)
    if failed or lost:
        log.warning("failed scan jobs", extra={"unschedulable": failed, "worker_lost": lost})
    return failed + lost


def start(database: Database, settings: ScoutSettings, redis_client: redis.Redis) -> threading.Event:
    """Sweep every `watchdog_interval_seconds` in a daemon thread until the returned event is set."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(settings.watchdog_interval_seconds):
            try:
                sweep(database, settings, redis_client)
            except Exception:  # the database being away is a state, not a reason to stop watching
                log.warning("watchdog sweep failed", exc_info=True)

    threading.Thread(target=loop, name="scan-watchdog", daemon=True).start()
    return stop
