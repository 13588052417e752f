"""Each viewer's window: the materialized part of the home timeline and its horizon.

Following entries at or above a viewer's horizon (a position `(ranked_at, id)`) are complete: every
pushed post the viewer should see there has its entry, once the pending jobs ran. Below the horizon
they are not kept; a home read pulls that part from the posts of the viewer's follows instead. A
viewer without a horizon has never been trimmed: all its entries are complete. Trims raise the
horizon and drop what lies below; only a rebuild, which rewrites every following entry, lowers it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, text

from feeds_runtime.db import Executor, affected
from timeline.cursor import Position
from timeline.repositories.sql import ENTRY_ID, FANS_OUT, advisory_locks, blocked

_WINDOW_LOCK = advisory_locks("pg_advisory_xact_lock", "timeline.window")

# Raise (never lower) a viewer's horizon to :at/:entry.
_RAISE = """
    INSERT INTO timeline.viewer_horizons (tenant_id, viewer_id, ranked_at, entry_id)
    {source}
    ON CONFLICT (tenant_id, viewer_id) DO UPDATE SET ranked_at = EXCLUDED.ranked_at, entry_id = EXCLUDED.entry_id
    WHERE (viewer_horizons.ranked_at, viewer_horizons.entry_id) < (EXCLUDED.ranked_at, EXCLUDED.entry_id)
"""


class WindowRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def lock(self, tenant_id: uuid.UUID, *viewer_ids: uuid.UUID) -> None:
        """Transaction-scoped lock on the windows of the viewers (in id order, in one statement)."""
        self.session.execute(text(_WINDOW_LOCK), {"tenant": tenant_id, "ids": sorted(set(viewer_ids))})

    def horizon(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> Position | None:
        row = self.session.execute(
            text("SELECT ranked_at, entry_id FROM timeline.viewer_horizons WHERE tenant_id = :tenant "
                 "AND viewer_id = :viewer"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).one_or_none()
        return Position(row.ranked_at, row.entry_id) if row else None

    def raise_horizon(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, position: Position) -> None:
        self.session.execute(
            text(_RAISE.format(source="VALUES (:tenant, :viewer, :at, :entry)")),
            {"tenant": tenant_id, "viewer": viewer_id, "at": position.ranked_at, "entry": position.entry_id},
        )

    def set_horizon(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, position: Position | None) -> None:
        """Replace the viewer's horizon (a rebuild, which has just rewritten every following entry)."""
        self.session.execute(text("DELETE FROM timeline.viewer_horizons WHERE tenant_id = :tenant "
                                  "AND viewer_id = :viewer"), {"tenant": tenant_id, "viewer": viewer_id})
        if position is not None:
            self.raise_horizon(tenant_id, viewer_id, position)

    def trim(self, tenant_id: uuid.UUID, viewer_ids: list[uuid.UUID], window: int) -> int:
        """Keep each viewer's `window` most recent entries: raise its horizon to the window's last
        entry and drop the following entries below the horizon (self entries stay). Returns the
        entries removed. The caller holds the viewers' window locks. Both statements name the
        viewers on the entries themselves, so they read those viewers' partitions only; one viewer
        by equality, which a prepared statement's single plan also prunes by (a list it cannot)."""
        params = {"tenant": tenant_id, "viewers": viewer_ids, "skip": window - 1, "viewer": viewer_ids[0]}
        on_entries = ("e.viewer_id = :viewer" if len(viewer_ids) == 1
                      else "e.viewer_id = ANY(CAST(:viewers AS uuid[]))")
        self.session.execute(
            text(_RAISE.format(source=f"""
                SELECT CAST(:tenant AS uuid), v.viewer_id, last.ranked_at, last.id
                FROM unnest(CAST(:viewers AS uuid[])) AS v(viewer_id)
                CROSS JOIN LATERAL (SELECT e.ranked_at, e.id FROM timeline.timeline_entries e
                                    WHERE e.tenant_id = :tenant AND e.viewer_id = v.viewer_id AND {on_entries}
                                    ORDER BY e.ranked_at DESC, e.id DESC OFFSET :skip LIMIT 1) last
            """)),
            params,
        )
        return affected(self.session.execute(
            text(
                f"""
                DELETE FROM timeline.timeline_entries e USING timeline.viewer_horizons h
                WHERE h.tenant_id = :tenant AND h.viewer_id = ANY(CAST(:viewers AS uuid[]))
                  AND e.tenant_id = h.tenant_id AND e.viewer_id = h.viewer_id AND e.kind = 'following'
                  AND {on_entries} AND (e.ranked_at, e.id) < (h.ranked_at, h.entry_id)
                """
            ),
            params,
        ))

    def wanted(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, followees: list[uuid.UUID], *,
               limit: int | None = None, horizon: Position | None = None, lock: bool = False) -> Sequence[Row[Any]]:
        """The pushed posts the viewer should have entries for, as (post_id, author_id, published_at,
        entry_id), newest first: from the given followees only, at or above `horizon` if one is
        given, at most `limit`. With `lock`, the post rows are held `FOR SHARE` until commit."""
        entry_id = ENTRY_ID.format(tenant="p.tenant_id", viewer="CAST(:viewer AS uuid)", post="p.id")
        region = (f"AND (p.published_at, {entry_id}) >= (:at, :entry)" if horizon else "")
        return self.session.execute(
            text(
                f"""
                SELECT p.id AS post_id, p.author_id, p.published_at, {entry_id} AS entry_id FROM timeline.follows f
                JOIN timeline.posts p ON p.tenant_id = f.tenant_id AND p.author_id = f.followee_id
                WHERE f.tenant_id = :tenant AND f.follower_id = :viewer AND f.ended_at IS NULL
                  AND f.followee_id = ANY(CAST(:followees AS uuid[])) AND p.delivery = 'push' AND {FANS_OUT}
                  AND NOT {blocked(':viewer', 'f.followee_id')} {region}
                ORDER BY p.published_at DESC, entry_id DESC {"LIMIT :limit" if limit else ""}
                {"FOR SHARE OF p" if lock else ""}
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "followees": followees,
             **({"limit": limit} if limit else {}),
             **({"at": horizon.ranked_at, "entry": horizon.entry_id} if horizon else {})},
        ).all()
