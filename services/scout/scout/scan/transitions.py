"""Run and job terminal transitions shared by the scan worker and the scheduling watchdog.
Each is guarded by the current status, so a finished or cancelled run is never overwritten."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from scout.models import ACTIVE_STATUSES, CANCELLED, FAILED
from scout.repositories.jobs import JobRepository
from scout.repositories.runs import RunRepository


@dataclass
class Diagnostics:
    """What a run records whatever its end: counts, shortfall, timings and per-source failures."""

    searched: int = 0
    duplicates: int = 0
    irrelevant: int = 0
    eligible: int = 0
    shortfall_reasons: list[str] = field(default_factory=list)
    stage_timings: list[dict] = field(default_factory=list)
    # Source name → {"kind", "detail"} (see ScanOutcome.source_errors).
    source_errors: dict[str, dict[str, str]] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return {"searched": self.searched, "duplicates": self.duplicates, "irrelevant": self.irrelevant,
                "eligible": self.eligible}


def fail_job(session: Session, owner: uuid.UUID, job_id: uuid.UUID, summary: str, now: datetime,
             diagnostics: Diagnostics | None = None) -> bool:
    """queued/running → failed for the job and its run; the run keeps its diagnostics and shows no results."""
    run_id = JobRepository(session).fail(owner, job_id, summary, now)
    if run_id is None:
        return False
    d = diagnostics or Diagnostics()
    # A failed run publishes nothing, so nothing is eligible.
    counts = {**d.counts(), "eligible": 0}
    RunRepository(session).finish(
        owner, run_id, status=FAILED, from_statuses=ACTIVE_STATUSES, counts=counts, shortfall_reasons=[],
        error_summary=summary, stage_timings=d.stage_timings, source_errors=d.source_errors, now=now,
    )
    return True


def cancel_running(session: Session, owner: uuid.UUID, job_id: uuid.UUID, run_id: uuid.UUID, worker_id: str,
                   now: datetime, diagnostics: Diagnostics) -> bool:
    """running → cancelled once the worker has seen the cancellation; nothing is published."""
    counts = {**diagnostics.counts(), "eligible": 0}
    if not JobRepository(session).finish(owner, job_id, worker_id, CANCELLED, "cancelled", counts, now,
                                         unless_cancel_requested=False):
        return False
    RunRepository(session).finish(
        owner, run_id, status=CANCELLED, from_statuses=ACTIVE_STATUSES, counts=counts,
        shortfall_reasons=[], error_summary="", stage_timings=diagnostics.stage_timings,
        source_errors=diagnostics.source_errors, now=now,
    )
    return True
