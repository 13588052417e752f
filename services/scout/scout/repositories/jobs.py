"""Queries on scout.jobs. Every query names the job's owner; every status change is one UPDATE
guarded by the current status; the worker's updates also name the worker, so a worker that lost
its lock cannot write."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import insert, text
from sqlalchemy.orm import Session

from scout import models
from scout.domain import Job, JobRef
from scout.models import ACTIVE_STATUSES
from scout.repositories import value_of

_COLUMNS = """id, owner_id, template_type, ref_id, payload, status, progress, progress_stage, progress_stage_number,
              progress_searched, progress_duplicates, progress_irrelevant, progress_eligible, progress_target,
              cancel_requested, worker_id, error_summary, created_at, started_at, completed_at, updated_at"""


class JobRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def insert(self, values: dict) -> None:
        self.session.execute(insert(models.Job).values(**values))

    def get(self, owner: uuid.UUID, job_id: uuid.UUID) -> Job | None:
        row = self.session.execute(
            text(f"SELECT {_COLUMNS} FROM scout.jobs WHERE id = :id AND owner_id = :owner"),
            {"id": job_id, "owner": owner},
        ).one_or_none()
        return value_of(Job, row) if row is not None else None

    def request_cancel(self, owner: uuid.UUID, job_id: uuid.UUID, now: datetime) -> Job | None:
        """One statement: a queued job is cancelled outright, a running one flagged for its worker."""
        row = self.session.execute(
            text(f"""UPDATE scout.jobs SET cancel_requested = true, updated_at = :now,
                         status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
                         completed_at = CASE WHEN status = 'queued' THEN :now ELSE completed_at END,
                         progress = CASE WHEN status = 'queued' THEN 'cancelled' ELSE progress END,
                         progress_stage = CASE WHEN status = 'queued' THEN 'finished' ELSE progress_stage END
                     WHERE id = :id AND owner_id = :owner AND status = ANY(:active)
                     RETURNING {_COLUMNS}"""),
            {"id": job_id, "owner": owner, "now": now, "active": list(ACTIVE_STATUSES)},
        ).one_or_none()
        return value_of(Job, row) if row is not None else None

    # The worker's side.

    def claim(self, owner: uuid.UUID, job_id: uuid.UUID, worker_id: str, now: datetime) -> Job | None:
        """queued → running for this worker. A job already running lost its previous worker (this
        worker holds the job's lock now), so it is taken over and run again from the start: nothing
        of the earlier attempt was published."""
        row = self.session.execute(
            text(f"""UPDATE scout.jobs SET status = 'running', worker_id = :worker, updated_at = :now,
                         started_at = coalesce(started_at, :now), progress = 'preparing sources',
                         progress_stage = 'preparing', progress_stage_number = 0
                     WHERE id = :id AND owner_id = :owner AND status = ANY(:active)
                     RETURNING {_COLUMNS}"""),
            {"id": job_id, "owner": owner, "worker": worker_id, "now": now, "active": list(ACTIVE_STATUSES)},
        ).one_or_none()
        return value_of(Job, row) if row is not None else None

    def progress(self, owner: uuid.UUID, job_id: uuid.UUID, worker_id: str, *, stage: str, stage_number: int,
                 summary: str, counts: dict[str, int], target: int, now: datetime) -> bool:
        """The step (stage, search stage number, summary) and current counts; False when the job is
        no longer this worker's running job."""
        return self.session.execute(
            text("""UPDATE scout.jobs SET progress = :summary, progress_stage = :stage,
                        progress_stage_number = :stage_number, progress_target = :target, updated_at = :now,
                        progress_searched = :searched, progress_duplicates = :duplicates,
                        progress_irrelevant = :irrelevant, progress_eligible = :eligible
                    WHERE id = :id AND owner_id = :owner AND status = 'running' AND worker_id = :worker
                    RETURNING id"""),
            {"id": job_id, "owner": owner, "worker": worker_id, "summary": summary[:500], "stage": stage,
             "stage_number": stage_number, "target": target, "now": now, **counts},
        ).first() is not None

    def cancel_requested(self, owner: uuid.UUID, job_id: uuid.UUID) -> bool:
        return bool(self.session.execute(
            text("SELECT cancel_requested FROM scout.jobs WHERE id = :id AND owner_id = :owner"),
            {"id": job_id, "owner": owner},
        ).scalar_one_or_none())

    def finish(self, owner: uuid.UUID, job_id: uuid.UUID, worker_id: str, status: str, progress: str,
               counts: dict[str, int], now: datetime, *, unless_cancel_requested: bool) -> bool:
        """running → a terminal status, only by the worker that holds the job."""
        guard = " AND NOT cancel_requested" if unless_cancel_requested else ""
        return self.session.execute(
            text(f"""UPDATE scout.jobs SET status = :status, progress = :progress, progress_stage = 'finished',
                         progress_searched = :searched,
                         progress_duplicates = :duplicates, progress_irrelevant = :irrelevant,
                         progress_eligible = :eligible, completed_at = :now, updated_at = :now
                     WHERE id = :id AND owner_id = :owner AND status = 'running' AND worker_id = :worker{guard}
                     RETURNING id"""),
            {"id": job_id, "owner": owner, "worker": worker_id, "status": status, "progress": progress, "now": now,
             **counts},
        ).first() is not None

    def fail(self, owner: uuid.UUID, job_id: uuid.UUID, summary: str, now: datetime) -> uuid.UUID | None:
        """queued/running → failed; a cancelled or finished job is left as it is. Returns the job's run, or
        None when the job did not fail."""
        return self.session.execute(
            text("""UPDATE scout.jobs SET status = 'failed', error_summary = :summary, progress = 'failed',
                        progress_stage = 'finished',
                        completed_at = :now, updated_at = :now
                    WHERE id = :id AND owner_id = :owner AND status = ANY(:active) RETURNING ref_id"""),
            {"id": job_id, "owner": owner, "summary": summary, "now": now, "active": list(ACTIVE_STATUSES)},
        ).scalar_one_or_none()

    def stalled(self, *, stale_seconds: float, max_attempts: int, actor_name: str, limit: int = 100) -> list[JobRef]:
        """Running jobs no worker has touched for `stale_seconds` (id, owner_id) and that the outbox
        will not deliver again (acknowledged, or out of attempts); the caller checks that no worker
        holds their lock before failing them."""
        rows = self.session.execute(
            text("""SELECT j.id, j.owner_id FROM scout.jobs j
                    WHERE j.status = 'running' AND j.updated_at < now() - make_interval(secs => :stale)
                      AND NOT EXISTS (
                          SELECT 1 FROM scout.outbox o
                          WHERE o.acked_at IS NULL AND o.actor_name = :actor AND o.args ->> 0 = j.id::text
                            AND o.attempts < :max_attempts)
                    ORDER BY j.updated_at LIMIT :limit FOR UPDATE OF j SKIP LOCKED"""),
            {"stale": stale_seconds, "max_attempts": max_attempts, "actor": actor_name, "limit": limit},
        ).all()
        return [value_of(JobRef, row) for row in rows]

    def unschedulable(self, *, queued_timeout: float, settle_seconds: float, max_attempts: int,
                      actor_name: str, limit: int = 100) -> list[JobRef]:
        """Jobs that will never run: queued past the scheduling timeout, or whose outbox row used up
        its delivery attempts without an acknowledgement, with no attempt running or waiting for
        `settle_seconds`, and that no worker has touched since."""
        rows = self.session.execute(
            text("""SELECT j.id, j.owner_id FROM scout.jobs j
                    WHERE j.status = ANY(:active) AND (
                        (j.status = 'queued' AND j.created_at < now() - make_interval(secs => :queued_timeout))
                        OR (j.updated_at < now() - make_interval(secs => :settle) AND EXISTS (
                            SELECT 1 FROM scout.outbox o
                            WHERE o.acked_at IS NULL AND o.actor_name = :actor AND o.args ->> 0 = j.id::text
                              AND o.attempts >= :max_attempts
                              AND coalesce(o.lease_until, o.enqueued_at, o.created_at)
                                  < now() - make_interval(secs => :settle))))
                    ORDER BY j.created_at LIMIT :limit
                    FOR UPDATE OF j SKIP LOCKED"""),
            {"active": list(ACTIVE_STATUSES), "queued_timeout": queued_timeout, "settle": settle_seconds,
             "max_attempts": max_attempts, "actor": actor_name, "limit": limit},
        ).all()
        return [value_of(JobRef, row) for row in rows]
