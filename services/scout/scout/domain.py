"""Domain values of the scout context, independent of protobuf and SQL: what the repositories return.
Statuses stay the strings of scout.models (QUEUED, POST_NEW, …), the values the schema stores."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Job:
    """A background job (a scan, today) and its progress as data."""

    id: uuid.UUID
    owner_id: uuid.UUID
    template_type: str
    ref_id: uuid.UUID  # the run the job executes
    payload: dict[str, Any]
    status: str
    progress: str
    progress_stage: str
    progress_stage_number: int
    progress_searched: int
    progress_duplicates: int
    progress_irrelevant: int
    progress_eligible: int
    progress_target: int
    cancel_requested: bool
    worker_id: str | None
    error_summary: str
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    updated_at: datetime


@dataclass(frozen=True)
class JobRef:
    """A job the watchdog found, by its id and owner."""

    id: uuid.UUID
    owner_id: uuid.UUID


@dataclass(frozen=True)
class Run:
    """One Scout Run, real or legacy (grouped from results saved without a run: no job, a stable id)."""

    id: uuid.UUID
    job_id: uuid.UUID | None
    theme_key: str
    theme_label: str
    intent: str
    mode: str
    brand_id: str | None
    terms: list[str]
    target_count: int
    status: str
    searched_count: int
    duplicate_count: int
    irrelevant_count: int
    eligible_count: int
    shortfall_reasons: list[str]
    error_summary: str
    # [{"stage": "stage_1", "duration_ms": 12}, …] in execution order.
    stage_timings: list[dict[str, Any]]
    # Source name → {"kind", "detail"}.
    source_errors: dict[str, Any]
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    legacy: bool
    # Results still new or drafted.
    pending: int


@dataclass(frozen=True)
class Post:
    """A published result of a run (run_id None: a legacy result saved before runs existed)."""

    id: uuid.UUID
    run_id: uuid.UUID | None
    theme_key: str | None
    canonical_id: str
    url: str
    author: str
    text: str
    score: float
    match_reason: str
    posted_at: datetime | None
    created_at: datetime
    outreach_status: str
    draft_text: str


@dataclass(frozen=True)
class DeletedPost:
    """Where a deleted result belonged: its run (None for a legacy result) and theme."""

    run_id: uuid.UUID | None
    theme_key: str | None


@dataclass(frozen=True)
class Homework:
    """A reusable topic brief, by its theme."""

    theme_key: str
    brief: dict[str, Any]
    created_at: datetime
    updated_at: datetime
