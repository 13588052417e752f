"""Timeline entries, the materialized viewer projections: written by publish, fan-out, merges and
rebuilds, removed by clean-up and trims."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, text

from feeds_runtime.db import Executor, affected
from timeline.domain import Post
from timeline.cursor import Position
from timeline.repositories.sql import ENTRY_ID, FANS_OUT, blocked

_UPSERT = """ON CONFLICT (tenant_id, viewer_id, post_id) DO UPDATE SET ranked_at = EXCLUDED.ranked_at
             WHERE timeline_entries.ranked_at IS DISTINCT FROM EXCLUDED.ranked_at"""


class EntryRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def insert_self(self, tenant_id: uuid.UUID, author_id: uuid.UUID, post_id: uuid.UUID, ranked_at: datetime) -> None:
        self.session.execute(
            text(
                f"""
                INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                VALUES ({ENTRY_ID.format(tenant=':tenant', viewer=':author', post=':post')},
                        :tenant, :author, :post, :author, 'self', :ranked_at)
                """
            ),
            {"tenant": tenant_id, "author": author_id, "post": post_id, "ranked_at": ranked_at},
        )

    def fanout_range(self, tenant_id: uuid.UUID, post: Post, after: uuid.UUID | None, upto: uuid.UUID | None,
                     trim_every: int) -> tuple[int, list[uuid.UUID], list[uuid.UUID]]:
        """Materialize the post for the author's effective followers in (after, upto], skipping
        blocked pairs, in one set-based upsert. Returns the entries written, the viewers among
        them due for a trim (about one in `trim_every`, chosen by a hash of viewer and post, so each
        viewer is trimmed about once per `trim_every` posts it receives) and those that have word
        filters (timeline.verdicts judges the post for them)."""
        bounds = ("AND f.follower_id > :after" if after else "") + (" AND f.follower_id <= :upto" if upto else "")
        row = self.session.execute(
            text(
                f"""
                WITH written AS (
                    INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                    SELECT {ENTRY_ID.format(tenant='CAST(:tenant AS uuid)', viewer='f.follower_id', post='CAST(:post AS uuid)')},
                           :tenant, f.follower_id, :post, :author, 'following', :ranked_at
                    FROM timeline.follows f
                    WHERE f.tenant_id = :tenant AND f.followee_id = :author AND f.ended_at IS NULL {bounds}
                      AND NOT {blocked('f.follower_id', ':author')}
                    {_UPSERT}
                    RETURNING viewer_id
                )
                SELECT count(*) AS written,
                       array_agg(viewer_id) FILTER (
                           WHERE hashtextextended(CAST(viewer_id AS text) || CAST(:post AS text), 0) % :trim_every = 0
                       ) AS due,
                       array_agg(viewer_id) FILTER (WHERE EXISTS (
                           SELECT FROM timeline.word_filter_versions v
                           WHERE v.tenant_id = :tenant AND v.viewer_id = written.viewer_id)) AS filtering
                FROM written
                """
            ),
            {"tenant": tenant_id, "post": post.id, "author": post.author_id, "ranked_at": post.published_at,
             "trim_every": trim_every, **({"after": after} if after else {}), **({"upto": upto} if upto else {})},
        ).one()
        return row.written, list(row.due or []), list(row.filtering or [])

    def delete_post_following(self, tenant_id: uuid.UUID, post_id: uuid.UUID, limit: int) -> int:
        return affected(self.session.execute(
            text(
                """
                DELETE FROM timeline.timeline_entries WHERE (tenant_id, viewer_id, post_id) IN (
                    SELECT tenant_id, viewer_id, post_id FROM timeline.timeline_entries
                    WHERE tenant_id = :tenant AND post_id = :post AND kind = 'following' LIMIT :limit)
                """
            ),
            {"tenant": tenant_id, "post": post_id, "limit": limit},
        ))

    def delete_pair(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID, *, only_ineligible: bool) -> int:
        """Drop the viewer's following entries of the author's posts (only of posts that no longer fan out)."""
        condition = f"AND NOT ({FANS_OUT})" if only_ineligible else ""
        return affected(self.session.execute(
            text(
                f"""
                DELETE FROM timeline.timeline_entries e USING timeline.posts p
                WHERE e.tenant_id = :tenant AND e.viewer_id = :viewer AND e.author_id = :author
                  AND e.kind = 'following' AND p.tenant_id = e.tenant_id AND p.id = e.post_id {condition}
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id},
        ))

    def merge_recent(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID,
                     limit: int) -> Position | None:
        """Upsert the author's `limit` most recent pushed posts that fan out into the viewer's
        timeline. Returns the position of the oldest one merged when the limit was reached (older
        posts of the author were left out), else None. The post rows are held `FOR SHARE`, so a
        delete or moderation waits for this merge and its clean-up sees the entries it wrote."""
        row = self.session.execute(
            text(
                f"""
                WITH recent AS (
                    SELECT p.tenant_id, p.id, p.author_id, p.published_at,
                           {ENTRY_ID.format(tenant='p.tenant_id', viewer='CAST(:viewer AS uuid)', post='p.id')} AS entry_id
                    FROM timeline.posts p
                    WHERE p.tenant_id = :tenant AND p.author_id = :author AND p.delivery = 'push' AND {FANS_OUT}
                    ORDER BY p.published_at DESC, entry_id DESC LIMIT :limit FOR SHARE OF p
                ), merged AS (
                    INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                    SELECT r.entry_id, r.tenant_id, :viewer, r.id, r.author_id, 'following', r.published_at FROM recent r
                    {_UPSERT}
                )
                SELECT (SELECT count(*) FROM recent) AS taken, oldest.published_at, oldest.entry_id
                FROM (SELECT published_at, entry_id FROM recent ORDER BY published_at, entry_id LIMIT 1) oldest
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id, "limit": limit},
        ).one_or_none()
        return Position(row.published_at, row.entry_id) if row and row.taken >= limit else None

    def replace_following(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, rows: Sequence[Row[Any]]) -> tuple[int, int]:
        """Make the viewer's following entries exactly `rows` (post_id, author_id, published_at); self
        entries untouched. Ids are kept, since they derive from (tenant, viewer, post). Returns
        (upserted, removed)."""
        params = {"tenant": tenant_id, "viewer": viewer_id, "posts": [r.post_id for r in rows],
                  "authors": [r.author_id for r in rows], "published": [r.published_at for r in rows]}
        upserted = affected(self.session.execute(
            text(
                f"""
                INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                SELECT {ENTRY_ID.format(tenant='CAST(:tenant AS uuid)', viewer='CAST(:viewer AS uuid)', post='w.post_id')},
                       :tenant, :viewer, w.post_id, w.author_id, 'following', w.published_at
                FROM unnest(CAST(:posts AS uuid[]), CAST(:authors AS uuid[]), CAST(:published AS timestamptz[]))
                     AS w(post_id, author_id, published_at)
                {_UPSERT}
                """
            ),
            params,
        ))
        removed = affected(self.session.execute(
            text(
                """
                DELETE FROM timeline.timeline_entries e
                WHERE e.tenant_id = :tenant AND e.viewer_id = :viewer AND e.kind = 'following'
                  AND NOT (e.post_id = ANY(CAST(:posts AS uuid[])))
                """
            ),
            params,
        ))
        return upserted, removed

    def following_from(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, horizon: Position | None) -> set[uuid.UUID]:
        """Posts of the viewer's following entries at or above the horizon (all, without one)."""
        region = "AND (e.ranked_at, e.id) >= (:at, :entry)" if horizon else ""
        return set(self.session.execute(
            text(f"SELECT e.post_id FROM timeline.timeline_entries e WHERE e.tenant_id = :tenant "
                 f"AND e.viewer_id = :viewer AND e.kind = 'following' {region}"),
            {"tenant": tenant_id, "viewer": viewer_id,
             **({"at": horizon.ranked_at, "entry": horizon.entry_id} if horizon else {})},
        ).scalars())
