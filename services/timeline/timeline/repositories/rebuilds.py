"""Rebuilds a host requested: their lifecycle (queued → running → succeeded or failed), each step a
guarded update."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from feeds_runtime.db import Executor
from timeline.domain import Rebuild, RebuildStatus
from timeline.repositories.sql import advisory_locks

_COLUMNS = "id, viewer_id, status, requested_at, started_at, finished_at, entries_written, entries_removed, error"
_LIVE = "status IN ('queued', 'running')"
_TENANT_LOCK = advisory_locks("pg_advisory_xact_lock", "timeline.rebuilds")


def _rebuild(row) -> Rebuild:
    return Rebuild(row.id, row.viewer_id, RebuildStatus(row.status), row.requested_at, row.started_at,
                   row.finished_at, row.entries_written, row.entries_removed, row.error)


class RebuildRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def lock_tenant(self, tenant_id: uuid.UUID) -> None:
        """Requests of one tenant one at a time, so its limit of live rebuilds holds."""
        self.session.execute(text(_TENANT_LOCK), {"tenant": tenant_id, "ids": [tenant_id]})

    def live_for(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> Rebuild | None:
        row = self.session.execute(
            text(f"SELECT {_COLUMNS} FROM timeline.rebuilds WHERE tenant_id = :tenant AND viewer_id = :viewer AND {_LIVE}"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).one_or_none()
        return _rebuild(row) if row else None

    def live_count(self, tenant_id: uuid.UUID) -> int:
        return self.session.execute(
            text(f"SELECT count(*) FROM timeline.rebuilds WHERE tenant_id = :tenant AND {_LIVE}"), {"tenant": tenant_id},
        ).scalar_one()

    def insert(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> Rebuild:
        row = self.session.execute(
            text(f"INSERT INTO timeline.rebuilds (tenant_id, id, viewer_id, status) "
                 f"VALUES (:tenant, :id, :viewer, 'queued') RETURNING {_COLUMNS}"),
            {"tenant": tenant_id, "id": uuid.uuid4(), "viewer": viewer_id},
        ).one()
        return _rebuild(row)

    def get(self, tenant_id: uuid.UUID, rebuild_id: uuid.UUID) -> Rebuild | None:
        row = self.session.execute(
            text(f"SELECT {_COLUMNS} FROM timeline.rebuilds WHERE tenant_id = :tenant AND id = :id"),
            {"tenant": tenant_id, "id": rebuild_id},
        ).one_or_none()
        return _rebuild(row) if row else None

    def latest_for(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> Rebuild | None:
        row = self.session.execute(
            text(f"SELECT {_COLUMNS} FROM timeline.rebuilds WHERE tenant_id = :tenant AND viewer_id = :viewer "
                 f"ORDER BY requested_at DESC, id DESC LIMIT 1"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).one_or_none()
        return _rebuild(row) if row else None

    def start(self, tenant_id: uuid.UUID, rebuild_id: uuid.UUID) -> tuple[uuid.UUID, int] | None:
        """queued (or running again, after a failed run) → running, one more attempt. Returns the
        viewer and the attempt's number, None when the rebuild is over."""
        row = self.session.execute(
            text(f"UPDATE timeline.rebuilds SET status = 'running', started_at = coalesce(started_at, clock_timestamp()), "
                 f"attempts = attempts + 1 WHERE tenant_id = :tenant AND id = :id AND {_LIVE} "
                 f"RETURNING viewer_id, attempts"),
            {"tenant": tenant_id, "id": rebuild_id},
        ).one_or_none()
        return (row.viewer_id, row.attempts) if row else None

    def succeed(self, tenant_id: uuid.UUID, rebuild_id: uuid.UUID, written: int, removed: int) -> None:
        self.session.execute(
            text("UPDATE timeline.rebuilds SET status = 'succeeded', finished_at = clock_timestamp(), entries_written = :written, "
                 "entries_removed = :removed WHERE tenant_id = :tenant AND id = :id AND status = 'running'"),
            {"tenant": tenant_id, "id": rebuild_id, "written": written, "removed": removed},
        )

    def fail(self, tenant_id: uuid.UUID, rebuild_id: uuid.UUID, error: str) -> None:
        self.session.execute(
            text("UPDATE timeline.rebuilds SET status = 'failed', finished_at = clock_timestamp(), error = :error "
                 "WHERE tenant_id = :tenant AND id = :id AND status = 'running'"),
            {"tenant": tenant_id, "id": rebuild_id, "error": error[:200]},
        )
