"""Scout runs and their results written straight into the scout schema, as a finished scan's worker
leaves them: the data the end-to-end tests, the browser tests and the benchmark read, which the
public API cannot make (a scan's results come from its search, so their scores and times cannot be
chosen). Each run comes with its job. One statement per table and batch, so a benchmark's hundreds
of thousands of rows go in as quickly as a test's few."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, text

# Rows per statement: large enough for a benchmark's bulk, small enough for one parameter.
BATCH = 5_000


@dataclass(frozen=True)
class SeedRun:
    """A run and its job. Times left None are the database's now(); a label or intent left None is
    the theme key."""

    owner_id: uuid.UUID
    id: uuid.UUID = field(default_factory=uuid.uuid4)
    job_id: uuid.UUID = field(default_factory=uuid.uuid4)
    theme_key: str = "theme"
    theme_label: str | None = None
    intent: str | None = None
    mode: str = "topic"
    terms: Sequence[str] = ("t",)
    target_count: int = 20
    status: str = "succeeded"
    searched_count: int = 0
    duplicate_count: int = 0
    irrelevant_count: int = 0
    eligible_count: int = 0
    shortfall_reasons: Sequence[str] = ()
    error_summary: str = ""
    # Source name → {"kind"}: the failures a run recorded.
    source_errors: dict[str, Any] = field(default_factory=dict)
    created_at: datetime | str | None = None
    started_at: datetime | str | None = None
    completed_at: datetime | str | None = None
    # The job as its worker leaves it: its payload (None: the run's id alone; a scan writes the brief
    # beside it), its step and its counters (the run's).
    payload: dict[str, Any] | None = None
    job_progress: str = ""
    job_progress_stage: str = "queued"
    job_progress_stage_number: int = 0
    job_progress_target: int = 0
    job_updated_at: datetime | str | None = None


@dataclass(frozen=True)
class SeedPost:
    """One result; `run_id` None is a legacy result, saved before runs existed. A created_at left None
    is the database's now()."""

    owner_id: uuid.UUID
    run_id: uuid.UUID | None
    theme_key: str | None
    score: float
    id: uuid.UUID = field(default_factory=uuid.uuid4)
    canonical_id: str = field(default_factory=lambda: uuid.uuid4().hex[:11])
    url: str = "https://www.threads.net/t/x"
    author: str = ""
    text: str = "text"
    match_reason: str = ""
    posted_at: datetime | str | None = None
    created_at: datetime | str | None = None
    outreach_status: str = "new"


_JOBS = """
INSERT INTO scout.jobs (id, owner_id, template_type, ref_id, payload, status, progress, progress_stage,
                        progress_stage_number, progress_searched, progress_duplicates, progress_irrelevant,
                        progress_eligible, progress_target, created_at, started_at, completed_at, updated_at)
SELECT r.job_id, r.owner_id, 'scout_scan', r.id, r.payload, r.status, r.job_progress, r.job_progress_stage,
       r.job_progress_stage_number, r.searched_count, r.duplicate_count, r.irrelevant_count, r.eligible_count,
       r.job_progress_target, coalesce(r.created_at, now()), r.started_at, r.completed_at,
       coalesce(r.job_updated_at, r.created_at, now())
FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(
    id uuid, job_id uuid, owner_id uuid, payload jsonb, status text, job_progress text, job_progress_stage text,
    job_progress_stage_number int, searched_count int, duplicate_count int, irrelevant_count int, eligible_count int,
    job_progress_target int, created_at timestamptz, started_at timestamptz, completed_at timestamptz,
    job_updated_at timestamptz)
"""

_RUNS = """
INSERT INTO scout.runs (id, owner_id, job_id, theme_key, theme_label, intent, mode, terms, target_count, status,
                        searched_count, duplicate_count, irrelevant_count, eligible_count, shortfall_reasons,
                        error_summary, source_errors, created_at, started_at, completed_at)
SELECT r.id, r.owner_id, r.job_id, r.theme_key, r.theme_label, r.intent, r.mode, r.terms, r.target_count, r.status,
       r.searched_count, r.duplicate_count, r.irrelevant_count, r.eligible_count, r.shortfall_reasons,
       r.error_summary, r.source_errors, coalesce(r.created_at, now()), r.started_at, r.completed_at
FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(
    id uuid, owner_id uuid, job_id uuid, theme_key text, theme_label text, intent text, mode text, terms jsonb,
    target_count int, status text, searched_count int, duplicate_count int, irrelevant_count int,
    eligible_count int, shortfall_reasons text[], error_summary text, source_errors jsonb, created_at timestamptz,
    started_at timestamptz, completed_at timestamptz)
"""

_POSTS = """
INSERT INTO scout.posts (id, owner_id, run_id, theme_key, canonical_id, url, author, text, match_reason, score,
                         posted_at, created_at, outreach_status)
SELECT p.id, p.owner_id, p.run_id, p.theme_key, p.canonical_id, p.url, p.author, p.text, p.match_reason, p.score,
       p.posted_at, coalesce(p.created_at, now()), p.outreach_status
FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS p(
    id uuid, owner_id uuid, run_id uuid, theme_key text, canonical_id text, url text, author text, text text,
    match_reason text, score float8, posted_at timestamptz, created_at timestamptz, outreach_status text)
"""


def _run_row(run: SeedRun) -> dict[str, Any]:
    row = dict(vars(run))
    row["theme_label"] = run.theme_key if run.theme_label is None else run.theme_label
    row["intent"] = run.theme_key if run.intent is None else run.intent
    row["terms"], row["shortfall_reasons"] = list(run.terms), list(run.shortfall_reasons)
    row["payload"] = {"run_id": str(run.id)} if run.payload is None else run.payload
    return row


def _batches(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield _json(batch)
            batch = []
    if batch:
        yield _json(batch)


def _json(rows: list[dict[str, Any]]) -> str:
    # Ids and times as their str(), which PostgreSQL reads back as uuid and timestamptz.
    return json.dumps(rows, default=str, ensure_ascii=False)


def write(connection: Connection, runs: Iterable[SeedRun] = (), posts: Iterable[SeedPost] = ()) -> None:
    """Writes the runs with their jobs, then the results, in the caller's transaction."""
    runs = list(runs)
    for statement, rows in ((_JOBS, map(_run_row, runs)), (_RUNS, map(_run_row, runs)),
                            (_POSTS, (dict(vars(post)) for post in posts))):
        for batch in _batches(rows):
            connection.execute(text(statement), {"rows": batch})
