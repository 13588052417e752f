"""Queries on scout.runs, and the synthetic legacy runs grouped from results saved without a run."""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from scout import metrics, models
from scout.domain import Run
from scout.models import ACTIVE_STATUSES, TERMINAL_STATUSES
from scout.paging import Page
from scout.repositories import value_of

# Shortfall reason of a run that met its target until the member deleted results.
RESULTS_DELETED = "results_deleted"
# Theme of legacy results saved without a theme key (NULL or empty).
LEGACY_FALLBACK_KEY = "__legacy__"
# The one SQL definition of a legacy result's theme; legacy_theme_key is its Python twin.
LEGACY_KEY_SQL = "coalesce(nullif(p.theme_key, ''), :fallback)"

_PENDING = "(SELECT count(*) FROM scout.posts p WHERE p.run_id = r.id AND p.outreach_status IN ('new', 'drafted'))"

_REAL_COLUMNS = """
    r.id, r.job_id, r.theme_key, r.theme_label, r.intent, r.mode, r.brand_id, r.terms, r.target_count, r.status,
    r.searched_count, r.duplicate_count, r.irrelevant_count, r.eligible_count, r.shortfall_reasons,
    r.error_summary, r.stage_timings, r.source_errors, r.created_at, r.started_at, r.completed_at, false AS legacy
"""

# A legacy run's id is derived from owner and theme, so it is stable without being stored.
_LEGACY_ID = f"md5(CAST(:owner AS text) || ':' || {LEGACY_KEY_SQL})::uuid"
_LEGACY_SELECT = f"""
    SELECT {_LEGACY_ID} AS id, NULL::uuid AS job_id, {LEGACY_KEY_SQL} AS theme_key, {LEGACY_KEY_SQL} AS theme_label,
           '' AS intent, 'topic' AS mode, NULL::varchar AS brand_id, '[]'::jsonb AS terms,
           count(*)::int AS target_count, 'succeeded' AS status, 0 AS searched_count, 0 AS duplicate_count,
           0 AS irrelevant_count, count(*)::int AS eligible_count, '{{}}'::text[] AS shortfall_reasons,
           '' AS error_summary, '[]'::jsonb AS stage_timings, '{{}}'::jsonb AS source_errors, max(p.created_at) AS created_at,
           min(p.created_at) AS started_at, max(p.created_at) AS completed_at, true AS legacy,
           (count(*) FILTER (WHERE p.outreach_status IN ('new', 'drafted')))::int AS pending_count
    FROM scout.posts p WHERE p.owner_id = :owner AND p.run_id IS NULL
    GROUP BY {LEGACY_KEY_SQL}
"""


def legacy_theme_key(theme_key: str | None) -> str:
    return theme_key or LEGACY_FALLBACK_KEY


def legacy_run_id(owner: uuid.UUID, theme_key: str | None) -> uuid.UUID:
    return uuid.UUID(hashlib.md5(f"{owner}:{legacy_theme_key(theme_key)}".encode()).hexdigest())


class RunRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def insert(self, values: dict) -> bool:
        """Insert the run; False when the owner already has a run under its idempotency key (a
        concurrent insert under the key waits for the other transaction, then finds its run)."""
        return self.session.execute(
            insert(models.Run).values(**values)
            .on_conflict_do_nothing(index_elements=["owner_id", "idempotency_key"],
                                    index_where=text("idempotency_key IS NOT NULL"))
            .returning(models.Run.id)
        ).first() is not None

    def by_idempotency_key(self, owner: uuid.UUID, key: str) -> tuple[uuid.UUID, uuid.UUID, str]:
        """The run that holds the key (committed: a conflicting insert waits for it): its id, its job's
        id and the fingerprint of the brief that created it."""
        row = self.session.execute(
            text("SELECT id, job_id, request_fingerprint FROM scout.runs WHERE owner_id = :owner AND idempotency_key = :key"),
            {"owner": owner, "key": key},
        ).one()
        return row.id, row.job_id, row.request_fingerprint

    def _filters(self, brand_id: str | None, mode: str | None) -> tuple[str, dict]:
        clauses, params = [], {}
        if brand_id:
            clauses.append("r.brand_id = :brand_id")
            params["brand_id"] = brand_id
        if mode:
            clauses.append("r.mode = :mode")
            params["mode"] = mode
        return "".join(f" AND {c}" for c in clauses), params

    def page(self, owner: uuid.UUID, page: Page, brand_id: str | None, mode: str | None) -> tuple[list[Run], int]:
        """Runs by created_at DESC, id DESC; legacy runs join the list unless a brand or another mode is asked for.
        The page and the total come from one statement, so they describe the same snapshot (a page
        past the end still yields the total, on a row without a run)."""
        where, params = self._filters(brand_id, mode)
        params.update(owner=owner, limit=page.size, offset=page.offset, fallback=LEGACY_FALLBACK_KEY)
        with_legacy = not brand_id and mode in (None, "", "topic")
        real = f"SELECT {_REAL_COLUMNS}, NULL::int AS pending_count FROM scout.runs r WHERE r.owner_id = :owner{where}"
        source = f"{real} UNION ALL {_LEGACY_SELECT}" if with_legacy else real
        rows = self.session.execute(
            text(f"""
                WITH u AS ({source}),
                     pg AS (SELECT * FROM u ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset)
                SELECT r.*, coalesce(r.pending_count, {_PENDING})::int AS pending, (SELECT count(*) FROM u) AS total
                FROM (SELECT 1) AS one LEFT JOIN pg AS r ON true
                ORDER BY r.created_at DESC, r.id DESC
            """),
            params,
        ).all()
        total = rows[0].total
        return [value_of(Run, row) for row in rows if row.id is not None], total

    def get(self, owner: uuid.UUID, run_id: uuid.UUID) -> Run | None:
        """The owner's run, real or legacy, with its pending count."""
        row = self.session.execute(
            text(f"SELECT {_REAL_COLUMNS}, {_PENDING}::int AS pending FROM scout.runs r WHERE r.id = :id AND r.owner_id = :owner"),
            {"id": run_id, "owner": owner},
        ).one_or_none()
        if row is None:
            row = self.session.execute(
                text(f"SELECT l.*, l.pending_count AS pending FROM ({_LEGACY_SELECT}) AS l WHERE l.id = :id"),
                {"id": run_id, "owner": owner, "fallback": LEGACY_FALLBACK_KEY},
            ).one_or_none()
        return value_of(Run, row) if row is not None else None

    def lock_and_count_active(self, owner: uuid.UUID) -> int:
        """The owner's queued and running runs, counted under a transaction-level lock of the owner's
        scans, so the count holds until this transaction ends."""
        self.session.execute(text("SELECT pg_advisory_xact_lock(hashtext('scout.scans'), hashtext(:owner))"),
                             {"owner": str(owner)})
        return self.session.execute(
            text("SELECT count(*) FROM scout.runs WHERE owner_id = :owner AND status = ANY(:active)"),
            {"owner": owner, "active": list(ACTIVE_STATUSES)},
        ).scalar_one()

    def status(self, owner: uuid.UUID, run_id: uuid.UUID) -> str | None:
        return self.session.execute(
            text("SELECT status FROM scout.runs WHERE id = :id AND owner_id = :owner"), {"id": run_id, "owner": owner}
        ).scalar_one_or_none()

    def delete_terminal(self, owner: uuid.UUID, run_id: uuid.UUID) -> bool:
        """Deletes a finished run; its results go with it (ON DELETE CASCADE)."""
        return self.session.execute(
            text("DELETE FROM scout.runs WHERE id = :id AND owner_id = :owner AND status = ANY(:terminal) RETURNING id"),
            {"id": run_id, "owner": owner, "terminal": list(TERMINAL_STATUSES)},
        ).first() is not None

    def delete_terminal_of_theme(self, owner: uuid.UUID, theme_key: str) -> int:
        return len(self.session.execute(
            text("""DELETE FROM scout.runs WHERE owner_id = :owner AND theme_key = :key AND status = ANY(:terminal)
                    RETURNING id"""),
            {"owner": owner, "key": theme_key, "terminal": list(TERMINAL_STATUSES)},
        ).all())

    def decrement_eligible(self, owner: uuid.UUID, run_id: uuid.UUID) -> None:
        """One result fewer (docs/scout.md 8.1). A succeeded run that met its target and falls short this way
        gets the reason `results_deleted`, so an unmet run always has at least one (2.2)."""
        self.session.execute(
            text("""UPDATE scout.runs SET eligible_count = greatest(eligible_count - 1, 0),
                        shortfall_reasons = CASE
                            WHEN status = 'succeeded' AND eligible_count - 1 < target_count
                                 AND cardinality(shortfall_reasons) = 0 THEN ARRAY[:deleted]
                            ELSE shortfall_reasons END
                    WHERE id = :id AND owner_id = :owner"""),
            {"id": run_id, "owner": owner, "deleted": RESULTS_DELETED},
        )

    # Transitions used by the scan job; each names the job's owner and is guarded by the current status.

    def start(self, owner: uuid.UUID, run_id: uuid.UUID) -> bool:
        """queued → running; the counts start from zero again when a stalled attempt is taken over."""
        return self.session.execute(
            text("""UPDATE scout.runs SET status = 'running', started_at = coalesce(started_at, now()),
                        searched_count = 0, duplicate_count = 0, irrelevant_count = 0, eligible_count = 0
                    WHERE id = :id AND owner_id = :owner AND status = ANY(:active) RETURNING id"""),
            {"id": run_id, "owner": owner, "active": list(ACTIVE_STATUSES)},
        ).first() is not None

    def progress(self, owner: uuid.UUID, run_id: uuid.UUID, counts: dict[str, int]) -> None:
        """The current counts of a running run (flow E shows them; its results stay unpublished)."""
        self.session.execute(
            text("""UPDATE scout.runs SET searched_count = :searched, duplicate_count = :duplicates,
                        irrelevant_count = :irrelevant, eligible_count = :eligible
                    WHERE id = :id AND owner_id = :owner AND status = 'running'"""),
            {"id": run_id, "owner": owner, **counts},
        )

    def finish(self, owner: uuid.UUID, run_id: uuid.UUID, *, status: str, from_statuses: tuple[str, ...], counts: dict,
               shortfall_reasons: list[str], error_summary: str, stage_timings: list, source_errors: dict,
               now: datetime) -> bool:
        finished = self.session.execute(
            text("""UPDATE scout.runs SET status = :status, searched_count = :searched, duplicate_count = :duplicates,
                        irrelevant_count = :irrelevant, eligible_count = :eligible, shortfall_reasons = :reasons,
                        error_summary = :error, stage_timings = CAST(:timings AS jsonb),
                        source_errors = CAST(:source_errors AS jsonb), completed_at = :now
                    WHERE id = :id AND owner_id = :owner AND status = ANY(:from_statuses) RETURNING id"""),
            {"id": run_id, "owner": owner, "status": status, "from_statuses": list(from_statuses),
             "reasons": shortfall_reasons,
             "error": error_summary, "timings": _json(stage_timings), "source_errors": _json(source_errors),
             "now": now, **counts},
        ).first() is not None
        if finished:
            metrics.run_finished(self.session, status)
        return finished


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)
