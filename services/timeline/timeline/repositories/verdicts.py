"""The verdicts of viewers' lasting hiding word filters kept on their entries (timeline.verdicts):
each viewer's filters version, the entries still to judge and the marks."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

from sqlalchemy import text

from feeds_runtime.db import Executor

# A filter whose verdict an entry may keep: it hides, and has no end (an end would change the
# verdict with no write at all).
LASTING_HIDE = "w.action = 'hide' AND w.expires_at IS NULL"


class VerdictRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def new_version(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> None:
        """Give the viewer's word filters a version never used before: marks made under the last one
        no longer hide anything."""
        self.session.execute(
            text(
                """
                INSERT INTO timeline.word_filter_versions (tenant_id, viewer_id, version)
                VALUES (:tenant, :viewer, nextval('timeline.word_filter_version_seq'))
                ON CONFLICT (tenant_id, viewer_id) DO UPDATE SET version = EXCLUDED.version
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id},
        )

    def lasting_hides(self, tenant_id: uuid.UUID,
                      viewer_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, tuple[int, list[str]]]:
        """viewer → (its filters version, the folded phrases of its lasting hiding filters), for the
        viewers that have such filters; both read in one statement, so they belong together."""
        rows = self.session.execute(
            text(
                f"""
                SELECT v.viewer_id, v.version, array_agg(w.folded_phrase) AS phrases
                FROM timeline.word_filter_versions v
                JOIN timeline.word_filters w ON w.tenant_id = v.tenant_id AND w.viewer_id = v.viewer_id
                WHERE v.tenant_id = :tenant AND v.viewer_id = ANY(CAST(:viewers AS uuid[])) AND {LASTING_HIDE}
                GROUP BY v.viewer_id, v.version
                """
            ),
            {"tenant": tenant_id, "viewers": list(viewer_ids)},
        ).all()
        return {row.viewer_id: (row.version, row.phrases) for row in rows}

    def unmarked(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, version: int,
                 author_id: uuid.UUID | None = None) -> list[tuple[uuid.UUID, str | None, str]]:
        """(post id, folded body, body) of the viewer's entries at or above its horizon (of one author's
        posts, with `author_id`) not marked hidden under `version`."""
        rows = self.session.execute(
            text(
                f"""
                SELECT e.post_id, p.folded_body, p.body
                FROM timeline.timeline_entries e
                JOIN timeline.posts p ON p.tenant_id = e.tenant_id AND p.id = e.post_id
                LEFT JOIN timeline.viewer_horizons h ON h.tenant_id = e.tenant_id AND h.viewer_id = e.viewer_id
                WHERE e.tenant_id = :tenant AND e.viewer_id = :viewer
                  AND e.hidden_by_filters IS DISTINCT FROM :version
                  AND (h.viewer_id IS NULL OR (e.ranked_at, e.id) >= (h.ranked_at, h.entry_id))
                  {"AND e.author_id = :author" if author_id else ""}
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "version": version,
             **({"author": author_id} if author_id else {})},
        ).all()
        return [(row.post_id, row.folded_body, row.body) for row in rows]

    def mark_posts(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, version: int,
                   post_ids: Sequence[uuid.UUID]) -> None:
        """Mark the viewer's entries of these posts hidden under `version`."""
        self.session.execute(
            text(
                """
                UPDATE timeline.timeline_entries SET hidden_by_filters = :version
                WHERE tenant_id = :tenant AND viewer_id = :viewer AND post_id = ANY(CAST(:posts AS uuid[]))
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "version": version, "posts": list(post_ids)},
        )

    def mark_viewers(self, tenant_id: uuid.UUID, post_id: uuid.UUID, versions: Mapping[uuid.UUID, int]) -> None:
        """Mark each viewer's entry of the post hidden under the viewer's version."""
        self.session.execute(
            text(
                """
                UPDATE timeline.timeline_entries e SET hidden_by_filters = m.version
                FROM unnest(CAST(:viewers AS uuid[]), CAST(:versions AS bigint[])) AS m(viewer_id, version)
                WHERE e.tenant_id = :tenant AND e.post_id = :post AND e.viewer_id = m.viewer_id
                """
            ),
            {"tenant": tenant_id, "post": post_id, "viewers": list(versions), "versions": list(versions.values())},
        )

    def folded_body(self, tenant_id: uuid.UUID, post_id: uuid.UUID) -> tuple[str | None, str]:
        """(folded body, body) of the post."""
        row = self.session.execute(
            text("SELECT folded_body, body FROM timeline.posts WHERE tenant_id = :tenant AND id = :post"),
            {"tenant": tenant_id, "post": post_id},
        ).one()
        return row.folded_body, row.body
