"""One execution of a scan job (docs/scout.md 3.1, 5.3).

Claim with a Redis lock whose value is the worker id and a guarded queued → running update; check
that the immutable payload names the job's run; run the staged pipeline, reporting progress and
counts and honouring cancellation between stages; then publish every result and the final counts
in one transaction with the run's and job's terminal updates, or fail the run with nothing published.

Every query names the job's owner, as the claimed job records it. While the scan runs, a thread
renews the lock every third of its life, so a live worker keeps it through a long stage and a dead
one loses it within `scan_lock_seconds`. A worker whose lock was lost raises LockLost at its next
step, so the message is retried and the next attempt (holding the lock) takes the job over from the
start; a worker whose job was taken over or ended meanwhile stops without writing.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

import redis
from redis.exceptions import LockError

from feeds_runtime.db import Database
from scout.pipeline.rank import RULES
from scout.pipeline.scan import (
    PUBLISHING, AllSourcesUnavailable, ScanCancelled, ScanCounts, ScanProgress, run_scan,
)
from scout import metrics
from scout.brief import Brief
from scout.clock import judging_now, known_posted_at, now_utc
from scout.models import QUEUED, RUNNING, SUCCEEDED
from scout.repositories.jobs import JobRepository
from scout.repositories.posts import PostRepository
from scout.repositories.runs import RunRepository
from scout.scan.transitions import Diagnostics, cancel_running, fail_job

log = logging.getLogger("scout.scan")

PAYLOAD_MISMATCH = "the job payload does not name the job's run"
PIPELINE_FAILED = "the search pipeline could not complete"
ALL_SOURCES_DOWN = "every search source was unavailable"


class JobBusy(Exception):
    """Another worker holds the job's lock; the message is retried later."""


class _NotPublished(Exception):
    pass


class LockLost(Exception):
    """This worker's lock expired and may belong to another worker now: stop without writing, and
    fail the message so it is retried and the job cannot be left running with nobody on it."""


class _JobLost(Exception):
    """The job is no longer this worker's running job (taken over, or ended): stop without writing."""


def scan_lock_key(namespace: str, job_id: uuid.UUID | str) -> str:
    return f"{namespace}:scout:scan-lock:{job_id}"


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


class ScanExecution:
    def __init__(self, database: Database, redis_client: redis.Redis, lock_key: str, lock_seconds: float,
                 sources_factory: Callable[[], Any], job_id: uuid.UUID, owner: uuid.UUID,
                 scan_now: datetime | None, ranking: str = RULES) -> None:
        self.database = database
        self.scan_now = scan_now
        self.ranking = ranking
        self.job_id = job_id
        self.owner = owner
        self.worker = worker_id()
        self.sources_factory = sources_factory
        # Not thread-local: the keeper thread renews the lock the worker thread acquired.
        self.lock = redis_client.lock(lock_key, timeout=lock_seconds, blocking=False, thread_local=False)
        self.lock_keeper = LockKeeper(self.lock, lock_seconds)

    def execute(self) -> None:
        if not self.lock.acquire(token=self.worker):
            raise JobBusy(str(self.job_id))
        self.lock_keeper.start()
        try:
            self._execute()
        finally:
            self.lock_keeper.stop()
            try:
                self.lock.release()
            except (LockError, redis.RedisError):
                pass  # expired or unreachable meanwhile: it lapses by itself

    def _execute(self) -> None:
        with self.database.transaction() as session:
            job = JobRepository(session).claim(self.owner, self.job_id, self.worker, now_utc())
            if job is None:
                return  # unknown, cancelled or already finished: nothing to do, the message is done
            if job.payload.get("run_id") != str(job.ref_id):
                fail_job(session, self.owner, job.id, PAYLOAD_MISMATCH, now_utc())
                log.error("payload run id differs from the job reference", extra={"job_id": str(job.id)})
                return
            RunRepository(session).start(self.owner, job.ref_id)
            history = PostRepository(session).history(self.owner)
        self.run_id = job.ref_id
        self.brief = Brief.from_json(job.payload["brief"])
        self.cancel_seen = False
        self.judged_at = judging_now(self.scan_now)
        diagnostics = Diagnostics()
        try:
            sources = self.sources_factory()
            outcome = run_scan(
                self.brief, sources, history=history, target=self.brief.target_count,
                on_progress=self._progress, should_cancel=self._should_cancel, now=self.judged_at,
                ranking=self.ranking,
            )
            diagnostics = diagnostics_of(outcome)
            metrics.scan_stages(outcome.stage_ms)
        except ScanCancelled:
            self._cancel(diagnostics)
            return
        except LockLost:
            log.warning("scan lock lost; the job is retried", extra={"job_id": str(self.job_id)})
            raise
        except _JobLost:
            log.warning("scan job taken over or ended; stopping", extra={"job_id": str(self.job_id)})
            return
        except Exception as error:
            if self.cancel_seen or self._should_cancel():
                self._cancel(diagnostics)
                return
            summary = PIPELINE_FAILED
            if isinstance(error, AllSourcesUnavailable):
                summary, diagnostics.source_errors = ALL_SOURCES_DOWN, error.source_errors
            log.warning("scan failed", extra={"job_id": str(self.job_id), "error": type(error).__name__})
            with self.database.transaction() as session:
                fail_job(session, self.owner, self.job_id, summary, now_utc(), diagnostics)
            return
        try:
            if self.cancel_seen or self._should_cancel():
                self._cancel(diagnostics)
                return
            self._progress(ScanProgress(PUBLISHING, 0, f"publishing results: {diagnostics.eligible}/"
                                                       f"{self.brief.target_count} eligible"), outcome.counts)
        except _JobLost:
            return
        log.info("scan judged", extra={"job_id": str(self.job_id), "rejections": dict(outcome.rejections)})
        self._publish(outcome, diagnostics)

    def _renew_lock(self) -> None:
        if not self.lock_keeper.renew():
            raise LockLost(str(self.job_id))

    def _progress(self, step: ScanProgress, counts: ScanCounts) -> None:
        """The job's step and counts, and the run's current counts, in one transaction."""
        self._renew_lock()
        values = progress_counts(counts)
        with self.database.transaction() as session:
            if not JobRepository(session).progress(
                    self.owner, self.job_id, self.worker, stage=step.stage, stage_number=step.stage_number,
                    summary=step.summary, counts=values, target=self.brief.target_count, now=now_utc()):
                raise _JobLost(str(self.job_id))
            RunRepository(session).progress(self.owner, self.run_id, values)

    def _should_cancel(self) -> bool:
        self._renew_lock()
        with self.database.transaction() as session:
            self.cancel_seen = self.cancel_seen or JobRepository(session).cancel_requested(self.owner, self.job_id)
        return self.cancel_seen

    def _cancel(self, diagnostics: Diagnostics) -> None:
        with self.database.transaction() as session:
            cancel_running(session, self.owner, self.job_id, self.run_id, self.worker, now_utc(), diagnostics)

    def _publish(self, outcome: Any, diagnostics: Diagnostics) -> None:
        """Results, counts and both terminal states in one transaction: all visible or none."""
        now = now_utc()
        rows = [
            {
                "id": uuid.uuid4(), "owner_id": self.owner, "run_id": self.run_id, "theme_key": self.brief.theme_key,
                "canonical_id": post.canonical_id, "url": post.url, "author": post.author or "",
                "text": post.text or "", "match_reason": post.match_reason or "", "score": float(post.score),
                "posted_at": known_posted_at(post.posted_at, self.judged_at), "created_at": now, "updated_at": now,
            }
            for post in outcome.posts
        ]
        try:
            self._publish_transaction(rows, diagnostics, now)
        except _NotPublished:
            # Cancelled at the last moment, or the job was taken from this worker: publish nothing.
            if self._should_cancel():
                self._cancel(diagnostics)

    def _publish_transaction(self, rows: list[dict], diagnostics: Diagnostics, now) -> None:
        with self.database.transaction() as session:
            inserted = PostRepository(session).insert_results(rows)
            # A concurrent run of the same owner may have published an identity first: it stays
            # there, and counts here as a duplicate.
            lost = len(rows) - len(inserted)
            diagnostics.eligible = len(inserted)
            diagnostics.duplicates += lost
            reasons = list(diagnostics.shortfall_reasons)
            if diagnostics.eligible < self.brief.target_count and lost and "duplicate_exhausted" not in reasons:
                reasons.append("duplicate_exhausted")
            if diagnostics.eligible >= self.brief.target_count:
                reasons = []
            published = RunRepository(session).finish(
                self.owner, self.run_id, status=SUCCEEDED, from_statuses=(RUNNING, QUEUED), counts=diagnostics.counts(),
                shortfall_reasons=reasons, error_summary="", stage_timings=diagnostics.stage_timings,
                source_errors=diagnostics.source_errors, now=now,
            ) and JobRepository(session).finish(
                self.owner, self.job_id, self.worker, SUCCEEDED,
                f"done: {diagnostics.eligible}/{self.brief.target_count} eligible", diagnostics.counts(), now,
                unless_cancel_requested=True,
            )
            if not published:
                raise _NotPublished  # rolls the results back with the transaction


class LockKeeper:
    """Renews a held lock every third of its life until stopped. The lock counts as lost once Redis
    says it is not ours any more, or no renewal succeeded for a whole lock period (Redis away)."""

    def __init__(self, lock: redis.lock.Lock, lock_seconds: float) -> None:
        self._lock = lock
        self._seconds = lock_seconds
        self._stop = threading.Event()
        self._lost = threading.Event()
        self._thread: threading.Thread | None = None

    def renew(self) -> bool:
        """Renew now (at a step of the scan); False once the lock is lost."""
        if not self._lost.is_set():
            try:
                self._lock.reacquire()
            except LockError:
                self._lost.set()
            except redis.RedisError:
                pass  # the keeper's own rule decides once Redis stays away
        return not self._lost.is_set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="scan-lock", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        renewed = time.monotonic()
        while not self._stop.wait(self._seconds / 3):
            try:
                self._lock.reacquire()
                renewed = time.monotonic()
            except LockError:
                self._lost.set()
                return
            except redis.RedisError:
                if time.monotonic() - renewed >= self._seconds:
                    self._lost.set()
                    return


def progress_counts(counts: ScanCounts) -> dict[str, int]:
    return {"searched": counts.raw, "duplicates": counts.duplicates, "irrelevant": counts.rejected,
            "eligible": counts.eligible}


def diagnostics_of(outcome: Any) -> Diagnostics:
    counts = outcome.counts
    return Diagnostics(
        searched=counts.raw, duplicates=counts.duplicates, irrelevant=counts.rejected, eligible=counts.eligible,
        shortfall_reasons=list(outcome.shortfall_reasons),
        stage_timings=[{"stage": stage, "duration_ms": int(ms)} for stage, ms in outcome.stage_ms.items()],
        source_errors=dict(outcome.source_errors),
    )
