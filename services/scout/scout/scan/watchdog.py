"""Scheduling watchdog, run by the scout server: a run whose job cannot be scheduled becomes failed
instead of staying queued forever.

The run, its job and the outbox row are written in one transaction, so a scan that was accepted is
always durably scheduled. "Cannot be scheduled" is therefore what is left: the job is still queued
after `schedule_timeout_seconds` (no worker ever took it), or its outbox row used up every delivery
attempt without an acknowledgement and no worker has touched the job within a redelivery window.
"""

from __future__ import annotations

import logging
import threading

from feeds_runtime.db import Database
from scout.repositories.jobs import JobRepository
from scout.scan.transitions import fail_job
from scout.service import SCAN_ACTOR, now_utc
from scout.settings import ScoutSettings

log = logging.getLogger("scout.watchdog")

UNSCHEDULABLE = "the scan job could not be scheduled"


def sweep(database: Database, settings: ScoutSettings) -> int:
    with database.transaction() as session:
        job_ids = JobRepository(session).unschedulable(
            queued_timeout=settings.schedule_timeout_seconds,
            redeliver_seconds=settings.outbox_redeliver_seconds,
            max_attempts=settings.outbox_max_attempts,
            actor_name=SCAN_ACTOR,
        )
        now = now_utc()
        failed = sum(fail_job(session, job_id, UNSCHEDULABLE, now) for job_id in job_ids)
    if failed:
        log.warning("failed unschedulable scan jobs", extra={"count": failed})
    return failed


def start(database: Database, settings: ScoutSettings) -> threading.Event:
    """Sweep every `watchdog_interval_seconds` in a daemon thread until the returned event is set."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(settings.watchdog_interval_seconds):
            try:
                sweep(database, settings)
            except Exception:  # the database being away is a state, not a reason to stop watching
                log.warning("watchdog sweep failed", exc_info=True)

    threading.Thread(target=loop, name="scan-watchdog", daemon=True).start()
    return stop
