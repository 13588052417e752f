"""Every query of the timeline schema. Each one is scoped by tenant; the caller's session owns the
transaction (reads of one statement may run on an autocommit connection, which has the same `execute`).

Locks, so that a projection job never commits an entry that a concurrent change has already
cleaned up: fan-out chunks, pair syncs, merges and rebuilds hold the post rows `FOR SHARE` and a
shared advisory lock on the follower graph of the authors (a rebuild also on the viewer's); delete and moderation update the post row; follow, unfollow, block and
unblock take the graph lock of the users concerned exclusively. A clean-up job queued by such a
change therefore starts after every projection that read the old state has committed. (An advisory
lock rather than row locks on the follow rows: a chunk would otherwise write a lock into thousands of
tuples.)
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.orm import Session

from feeds_runtime.db import driver_connection
from timeline.cursor import Position
from timeline.domain import Moderation, Post, Stats, TimelineItem, Visibility

# Entry ids derive from (tenant, viewer, post), so any path that writes the same projection —
# publish, fan-out, merge, rebuild — writes the same id.
ENTRY_ID = "md5(CAST({tenant} AS text) || '/' || CAST({viewer} AS text) || '/' || CAST({post} AS text))::uuid"

# Posts followers may see (aliased `p`).
FANS_OUT = "p.deleted_at IS NULL AND p.moderation_state = 'visible' AND p.visibility = 'public'"


def _blocked(viewer: str, author: str, tenant: str = ":tenant") -> str:
    """A block between the two users, in either direction."""
    return f"""EXISTS (SELECT 1 FROM timeline.blocks b WHERE b.tenant_id = {tenant}
               AND ((b.blocker_id = {viewer} AND b.blocked_id = {author})
                 OR (b.blocker_id = {author} AND b.blocked_id = {viewer})))"""


def _post(row) -> Post:
    return Post(
        id=row.id, tenant_id=row.tenant_id, author_id=row.author_id, body=row.body,
        visibility=Visibility(row.visibility), moderation_state=Moderation(row.moderation_state),
        published_at=row.published_at, deleted_at=row.deleted_at,
        stats=Stats(row.like_count or 0, row.reply_count or 0, row.share_count or 0),
    )


_POST_COLUMNS = """p.id, p.tenant_id, p.author_id, p.body, p.visibility, p.moderation_state, p.published_at,
                   p.deleted_at, s.like_count, s.reply_count, s.share_count"""


class PostRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def insert(self, post_id: uuid.UUID, tenant_id: uuid.UUID, author_id: uuid.UUID, body: str,
               visibility: Visibility, idempotency_key: str | None, fingerprint: str | None) -> datetime | None:
        """Insert the post; None when a post with the same idempotency key already exists."""
        return self.session.execute(
            text(
                """
                INSERT INTO timeline.posts (id, tenant_id, author_id, body, visibility, published_at,
                                            idempotency_key, request_fingerprint)
                VALUES (:id, :tenant, :author, :body, :visibility, clock_timestamp(), :key, :fingerprint)
                ON CONFLICT (tenant_id, author_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
                RETURNING published_at
                """
            ),
            {"id": post_id, "tenant": tenant_id, "author": author_id, "body": body, "visibility": visibility.value,
             "key": idempotency_key, "fingerprint": fingerprint},
        ).scalar_one_or_none()

    def by_idempotency_key(self, tenant_id: uuid.UUID, author_id: uuid.UUID, key: str) -> tuple[Post, str] | None:
        row = self.session.execute(
            text(
                f"""
                SELECT {_POST_COLUMNS}, p.request_fingerprint FROM timeline.posts p
                LEFT JOIN timeline.post_stats s ON s.tenant_id = p.tenant_id AND s.post_id = p.id
                WHERE p.tenant_id = :tenant AND p.author_id = :author AND p.idempotency_key = :key
                """
            ),
            {"tenant": tenant_id, "author": author_id, "key": key},
        ).one_or_none()
        return (_post(row), row.request_fingerprint) if row else None

    def insert_stats(self, tenant_id: uuid.UUID, post_id: uuid.UUID) -> None:
        self.session.execute(
            text("INSERT INTO timeline.post_stats (post_id, tenant_id) VALUES (:post, :tenant)"),
            {"post": post_id, "tenant": tenant_id},
        )

    def get(self, tenant_id: uuid.UUID, post_id: uuid.UUID, *, lock: str = "") -> Post | None:
        """The post, optionally locked (`FOR SHARE` / `FOR UPDATE` of the post row)."""
        lock_clause = f"{lock} OF p" if lock else ""
        row = self.session.execute(
            text(
                f"""
                SELECT {_POST_COLUMNS} FROM timeline.posts p
                LEFT JOIN timeline.post_stats s ON s.tenant_id = p.tenant_id AND s.post_id = p.id
                WHERE p.tenant_id = :tenant AND p.id = :post {lock_clause}
                """
            ),
            {"tenant": tenant_id, "post": post_id},
        ).one_or_none()
        return _post(row) if row else None

    def get_for_viewer(self, tenant_id: uuid.UUID, post_id: uuid.UUID,
                       viewer_id: uuid.UUID | None) -> tuple[Post, bool] | None:
        """The post and whether a block stands between the viewer and its author, in one statement."""
        blocked = _blocked("CAST(:viewer AS uuid)", "p.author_id") if viewer_id is not None else "false"
        row = self.session.execute(
            text(
                f"""
                SELECT {_POST_COLUMNS}, {blocked} AS blocked FROM timeline.posts p
                LEFT JOIN timeline.post_stats s ON s.tenant_id = p.tenant_id AND s.post_id = p.id
                WHERE p.tenant_id = :tenant AND p.id = :post
                """
            ),
            {"tenant": tenant_id, "post": post_id, **({"viewer": viewer_id} if viewer_id is not None else {})},
        ).one_or_none()
        return (_post(row), row.blocked) if row else None

    def soft_delete(self, tenant_id: uuid.UUID, post_id: uuid.UUID) -> None:
        self.session.execute(
            text("UPDATE timeline.posts SET deleted_at = now() WHERE tenant_id = :tenant AND id = :post "
                 "AND deleted_at IS NULL"),
            {"tenant": tenant_id, "post": post_id},
        )

    def set_moderation(self, tenant_id: uuid.UUID, post_id: uuid.UUID, state: Moderation) -> None:
        self.session.execute(
            text("UPDATE timeline.posts SET moderation_state = :state WHERE tenant_id = :tenant AND id = :post"),
            {"tenant": tenant_id, "post": post_id, "state": state.value},
        )


class GraphRepository:
    """Follows and blocks."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def follow(self, tenant_id: uuid.UUID, follower_id: uuid.UUID, followee_id: uuid.UUID) -> bool:
        """Start or revive the follow; False when it was already effective."""
        return self.session.execute(
            text(
                """
                INSERT INTO timeline.follows (tenant_id, follower_id, followee_id)
                VALUES (:tenant, :follower, :followee)
                ON CONFLICT (tenant_id, follower_id, followee_id)
                DO UPDATE SET ended_at = NULL, followed_at = now() WHERE follows.ended_at IS NOT NULL
                RETURNING 1
                """
            ),
            {"tenant": tenant_id, "follower": follower_id, "followee": followee_id},
        ).first() is not None

    def unfollow(self, tenant_id: uuid.UUID, follower_id: uuid.UUID, followee_id: uuid.UUID) -> bool:
        return self.session.execute(
            text(
                """
                UPDATE timeline.follows SET ended_at = now()
                WHERE tenant_id = :tenant AND follower_id = :follower AND followee_id = :followee AND ended_at IS NULL
                """
            ),
            {"tenant": tenant_id, "follower": follower_id, "followee": followee_id},
        ).rowcount > 0

    def lock_graph(self, tenant_id: uuid.UUID, *user_ids: uuid.UUID, shared: bool) -> None:
        """Transaction-scoped lock on the follower graph of each user, in one statement (taken in id
        order, so lockers never deadlock)."""
        function = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
        self.session.execute(
            text(f"""SELECT count({function}(hashtextextended('timeline.graph/' || CAST(:tenant AS text) || '/'
                                                              || CAST(u.user_id AS text), 0)))
                     FROM (SELECT user_id FROM unnest(CAST(:users AS uuid[])) WITH ORDINALITY AS t(user_id, n)
                           ORDER BY n) u"""),
            {"tenant": tenant_id, "users": sorted(set(user_ids))},
        )

    def block(self, tenant_id: uuid.UUID, blocker_id: uuid.UUID, blocked_id: uuid.UUID) -> bool:
        return self.session.execute(
            text(
                """
                INSERT INTO timeline.blocks (tenant_id, blocker_id, blocked_id) VALUES (:tenant, :blocker, :blocked)
                ON CONFLICT DO NOTHING RETURNING 1
                """
            ),
            {"tenant": tenant_id, "blocker": blocker_id, "blocked": blocked_id},
        ).first() is not None

    def unblock(self, tenant_id: uuid.UUID, blocker_id: uuid.UUID, blocked_id: uuid.UUID) -> bool:
        return self.session.execute(
            text("DELETE FROM timeline.blocks WHERE tenant_id = :tenant AND blocker_id = :blocker "
                 "AND blocked_id = :blocked"),
            {"tenant": tenant_id, "blocker": blocker_id, "blocked": blocked_id},
        ).rowcount > 0

    def pair_fans_out(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID) -> bool:
        """The viewer effectively follows the author and no block stands between them."""
        self.lock_graph(tenant_id, author_id, shared=True)
        followed = self.session.execute(
            text(
                """
                SELECT 1 FROM timeline.follows WHERE tenant_id = :tenant AND follower_id = :viewer
                  AND followee_id = :author AND ended_at IS NULL
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id},
        ).first()
        return followed is not None and not self.blocked_between(tenant_id, viewer_id, author_id)

    def blocked_between(self, tenant_id: uuid.UUID, a: uuid.UUID, b: uuid.UUID) -> bool:
        return self.session.execute(
            text(f"SELECT {_blocked(':a', ':b')}"), {"tenant": tenant_id, "a": a, "b": b}
        ).scalar_one()


def _home_page_sql(boundary: str) -> str:
    # psycopg placeholders: the page is read through the driver connection (see home_page).
    return f"""
        SELECT e.id AS entry_id, e.post_id, e.ranked_at, p.author_id, p.body, p.published_at,
               s.like_count, s.reply_count, s.share_count
        FROM timeline.timeline_entries e
        JOIN timeline.posts p ON p.tenant_id = e.tenant_id AND p.id = e.post_id
        LEFT JOIN timeline.post_stats s ON s.tenant_id = e.tenant_id AND s.post_id = e.post_id
        WHERE e.tenant_id = %(tenant)s AND e.viewer_id = %(viewer)s {boundary}
          AND p.deleted_at IS NULL AND p.moderation_state = 'visible'
          AND (p.visibility = 'public' OR p.author_id = %(viewer)s)
          AND NOT {_blocked('%(viewer)s', 'p.author_id', '%(tenant)s')}
        ORDER BY e.ranked_at DESC, e.id DESC
        LIMIT %(limit)s
        """


_HOME_FIRST = _home_page_sql("")
_HOME_AFTER = _home_page_sql("AND (e.ranked_at, e.id) < (%(at)s, %(entry)s)")


class EntryRepository:
    """Timeline entries: the viewer projections, fan-out progress, and their reads."""

    def __init__(self, session: Session) -> None:
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

    def home_page(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, after: Position | None, limit: int) -> list[TimelineItem]:
        """One page in `ranked_at DESC, id DESC` order, strictly after the cursor position. Posts the
        viewer must not see are filtered here, whatever clean-up is still pending."""
        params = {"tenant": tenant_id, "viewer": viewer_id, "limit": limit}
        if after:
            params |= {"at": after.ranked_at, "entry": after.entry_id}
        # The hottest read: straight to psycopg, one fetch for the page.
        rows = driver_connection(self.session).execute(_HOME_AFTER if after else _HOME_FIRST, params).fetchall()
        return [
            TimelineItem(entry_id, post_id, author_id, body, published_at, ranked_at,
                         Stats(likes or 0, replies or 0, shares or 0))
            for entry_id, post_id, ranked_at, author_id, body, published_at, likes, replies, shares in rows
        ]

    # Fan-out.

    def start_fanout(self, tenant_id: uuid.UUID, post_id: uuid.UUID, published_at: datetime) -> int:
        """Open a fan-out run for the post (a new generation if one ran before); returns the generation."""
        return self.session.execute(
            text(
                """
                INSERT INTO timeline.fanout_progress (post_id, tenant_id, published_at) VALUES (:post, :tenant, :published)
                ON CONFLICT (post_id) DO UPDATE SET generation = fanout_progress.generation + 1,
                    chunks_pending = NULL, chunks_done = 0, entries_written = 0, completed_at = NULL,
                    skipped_reason = NULL
                WHERE fanout_progress.tenant_id = EXCLUDED.tenant_id
                RETURNING generation
                """
            ),
            {"post": post_id, "tenant": tenant_id, "published": published_at},
        ).scalar_one()

    def chunk_bounds(self, tenant_id: uuid.UUID, author_id: uuid.UUID, size: int) -> list[uuid.UUID]:
        """Follower ids that cut the author's effective followers into runs of `size` (keyset order):
        chunk i covers (bounds[i-1], bounds[i]], the last one everything above the last bound."""
        return list(self.session.execute(
            text(
                """
                SELECT follower_id FROM (
                    SELECT f.follower_id, row_number() OVER (ORDER BY f.follower_id) AS n, count(*) OVER () AS total
                    FROM timeline.follows f
                    WHERE f.tenant_id = :tenant AND f.followee_id = :author AND f.ended_at IS NULL
                ) ranked WHERE n % :size = 0 AND n < total ORDER BY follower_id
                """
            ),
            {"tenant": tenant_id, "author": author_id, "size": size},
        ).scalars())

    def plan_fanout(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, chunks: int) -> bool:
        """Record the run's chunks as pending, once: False when this generation was planned already
        (a duplicate or stale first job) or has ended."""
        return self.session.execute(
            text(
                """
                UPDATE timeline.fanout_progress SET chunks_pending = ARRAY(SELECT generate_series(0, CAST(:chunks AS integer) - 1))
                WHERE tenant_id = :tenant AND post_id = :post AND generation = :generation
                  AND chunks_pending IS NULL AND completed_at IS NULL
                """
            ),
            {"tenant": tenant_id, "post": post_id, "generation": generation, "chunks": chunks},
        ).rowcount > 0

    def fanout_range(self, tenant_id: uuid.UUID, post: Post, after: uuid.UUID | None, upto: uuid.UUID | None) -> int:
        """Materialize the post for the author's effective followers in (after, upto], skipping
        blocked pairs, in one set-based upsert; returns the entries written."""
        bounds = ("AND f.follower_id > :after" if after else "") + (" AND f.follower_id <= :upto" if upto else "")
        return self.session.execute(
            text(
                f"""
                INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                SELECT {ENTRY_ID.format(tenant='CAST(:tenant AS uuid)', viewer='f.follower_id', post='CAST(:post AS uuid)')},
                       :tenant, f.follower_id, :post, :author, 'following', :ranked_at
                FROM timeline.follows f
                WHERE f.tenant_id = :tenant AND f.followee_id = :author AND f.ended_at IS NULL {bounds}
                  AND NOT {_blocked('f.follower_id', ':author')}
                ON CONFLICT (tenant_id, viewer_id, post_id) DO UPDATE SET ranked_at = EXCLUDED.ranked_at
                WHERE timeline_entries.ranked_at IS DISTINCT FROM EXCLUDED.ranked_at
                """
            ),
            {"tenant": tenant_id, "post": post.id, "author": post.author_id, "ranked_at": post.published_at,
             **({"after": after} if after else {}), **({"upto": upto} if upto else {})},
        ).rowcount

    def finish_chunk(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, chunk: int,
                     written: int) -> float | None:
        """Count the chunk once (a duplicate finds it no longer pending) and complete the run with its
        last chunk. Kept as the chunk's last statement: it holds the progress row until commit.
        Returns the seconds from publication to completion when this chunk ended the post's first run."""
        return self.session.execute(
            text(
                """
                UPDATE timeline.fanout_progress SET chunks_pending = array_remove(chunks_pending, CAST(:chunk AS integer)),
                    chunks_done = chunks_done + 1, entries_written = entries_written + :written,
                    completed_at = CASE WHEN cardinality(array_remove(chunks_pending, CAST(:chunk AS integer))) = 0
                                        THEN clock_timestamp() END
                WHERE tenant_id = :tenant AND post_id = :post AND generation = :generation
                  AND completed_at IS NULL AND CAST(:chunk AS integer) = ANY(chunks_pending)
                RETURNING CASE WHEN generation = 1 THEN CAST(EXTRACT(EPOCH FROM completed_at - published_at) AS float8) END
                """
            ),
            {"tenant": tenant_id, "post": post_id, "generation": generation, "chunk": chunk, "written": written},
        ).scalar()

    def skip_fanout(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, reason: str) -> None:
        """End the run without materializing: the post no longer fans out."""
        self.session.execute(
            text(
                """
                UPDATE timeline.fanout_progress SET completed_at = clock_timestamp(), skipped_reason = :reason
                WHERE tenant_id = :tenant AND post_id = :post AND generation = :generation AND completed_at IS NULL
                """
            ),
            {"tenant": tenant_id, "post": post_id, "generation": generation, "reason": reason},
        )

    # Clean-up and merges.

    def delete_post_following(self, tenant_id: uuid.UUID, post_id: uuid.UUID, limit: int) -> int:
        return self.session.execute(
            text(
                """
                DELETE FROM timeline.timeline_entries WHERE id IN (
                    SELECT id FROM timeline.timeline_entries
                    WHERE tenant_id = :tenant AND post_id = :post AND kind = 'following' LIMIT :limit)
                """
            ),
            {"tenant": tenant_id, "post": post_id, "limit": limit},
        ).rowcount

    def delete_pair(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID, *, only_ineligible: bool) -> int:
        """Drop the viewer's following entries of the author's posts (only of posts that no longer fan out)."""
        condition = f"AND NOT ({FANS_OUT})" if only_ineligible else ""
        return self.session.execute(
            text(
                f"""
                DELETE FROM timeline.timeline_entries e USING timeline.posts p
                WHERE e.tenant_id = :tenant AND e.viewer_id = :viewer AND e.author_id = :author
                  AND e.kind = 'following' AND p.tenant_id = e.tenant_id AND p.id = e.post_id {condition}
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id},
        ).rowcount

    def merge_recent(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID, limit: int) -> int:
        """Upsert the author's most recent posts that fan out into the viewer's timeline. The post rows
        are held `FOR SHARE`, so a delete or moderation waits for this merge and its clean-up sees the
        entries it wrote."""
        return self.session.execute(
            text(
                f"""
                INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                SELECT {ENTRY_ID.format(tenant='r.tenant_id', viewer='CAST(:viewer AS uuid)', post='r.id')},
                       r.tenant_id, :viewer, r.id, r.author_id, 'following', r.published_at
                FROM (SELECT p.tenant_id, p.id, p.author_id, p.published_at FROM timeline.posts p
                      WHERE p.tenant_id = :tenant AND p.author_id = :author AND {FANS_OUT}
                      ORDER BY p.published_at DESC, p.id DESC LIMIT :limit FOR SHARE OF p) r
                ON CONFLICT (tenant_id, viewer_id, post_id) DO UPDATE SET ranked_at = EXCLUDED.ranked_at
                WHERE timeline_entries.ranked_at IS DISTINCT FROM EXCLUDED.ranked_at
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id, "limit": limit},
        ).rowcount

    # Rebuild and audit. Both work on the viewer's window: the `window` most recent posts the viewer
    # should see, in (published_at, post id) order. Entries older than the window's last post are
    # neither compared nor removed, so a viewer with more entries than the window is not drift.

    def followees(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[uuid.UUID]:
        return list(self.session.execute(
            text("SELECT followee_id FROM timeline.follows WHERE tenant_id = :tenant AND follower_id = :viewer "
                 "AND ended_at IS NULL"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).scalars())

    def wanted(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, followees: list[uuid.UUID], window: int,
               *, lock: bool) -> list:
        """The viewer's window as (post_id, author_id, published_at), newest first, from the given
        followees only; with `lock`, the post rows are held `FOR SHARE` until commit."""
        return self.session.execute(
            text(
                f"""
                SELECT p.id AS post_id, p.author_id, p.published_at FROM timeline.follows f
                JOIN timeline.posts p ON p.tenant_id = f.tenant_id AND p.author_id = f.followee_id
                WHERE f.tenant_id = :tenant AND f.follower_id = :viewer AND f.ended_at IS NULL
                  AND f.followee_id = ANY(CAST(:followees AS uuid[])) AND {FANS_OUT}
                  AND NOT {_blocked(':viewer', 'f.followee_id')}
                ORDER BY p.published_at DESC, p.id DESC LIMIT :window {"FOR SHARE OF p" if lock else ""}
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "followees": followees, "window": window},
        ).all()

    @staticmethod
    def _in_window(rows: list, window: int) -> tuple[str, dict]:
        """The condition on entries (`e`) inside the window, and its parameters."""
        if len(rows) < window:
            return "true", {}
        oldest = min((row.published_at, row.post_id) for row in rows)
        return "(e.ranked_at, e.post_id) >= (:oldest_at, :oldest_post)", {"oldest_at": oldest[0],
                                                                           "oldest_post": oldest[1]}

    def rebuild(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, followees: list[uuid.UUID],
                window: int) -> tuple[int, int]:
        """Make the viewer's following entries in the window exactly what the current graph and posts
        give (self entries untouched). Ids are kept, since they derive from (tenant, viewer, post)."""
        rows = self.wanted(tenant_id, viewer_id, followees, window, lock=True)
        params = {"tenant": tenant_id, "viewer": viewer_id, "posts": [r.post_id for r in rows],
                  "authors": [r.author_id for r in rows], "published": [r.published_at for r in rows]}
        upserted = self.session.execute(
            text(
                f"""
                INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, kind, ranked_at)
                SELECT {ENTRY_ID.format(tenant='CAST(:tenant AS uuid)', viewer='CAST(:viewer AS uuid)', post='w.post_id')},
                       :tenant, :viewer, w.post_id, w.author_id, 'following', w.published_at
                FROM unnest(CAST(:posts AS uuid[]), CAST(:authors AS uuid[]), CAST(:published AS timestamptz[]))
                     AS w(post_id, author_id, published_at)
                ON CONFLICT (tenant_id, viewer_id, post_id) DO UPDATE SET ranked_at = EXCLUDED.ranked_at
                WHERE timeline_entries.ranked_at IS DISTINCT FROM EXCLUDED.ranked_at
                """
            ),
            params,
        ).rowcount
        in_window, bounds = self._in_window(rows, window)
        removed = self.session.execute(
            text(
                f"""
                DELETE FROM timeline.timeline_entries e
                WHERE e.tenant_id = :tenant AND e.viewer_id = :viewer AND e.kind = 'following'
                  AND {in_window} AND NOT (e.post_id = ANY(CAST(:posts AS uuid[])))
                """
            ),
            params | bounds,
        ).rowcount
        return upserted, removed

    def audit(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, window: int) -> tuple[list[uuid.UUID], list[uuid.UUID]]:
        rows = self.wanted(tenant_id, viewer_id, self.followees(tenant_id, viewer_id), window, lock=False)
        wanted = {row.post_id for row in rows}
        in_window, bounds = self._in_window(rows, window)
        materialized = set(self.session.execute(
            text(f"SELECT e.post_id FROM timeline.timeline_entries e WHERE e.tenant_id = :tenant "
                 f"AND e.viewer_id = :viewer AND e.kind = 'following' AND {in_window}"),
            {"tenant": tenant_id, "viewer": viewer_id} | bounds,
        ).scalars())
        return sorted(wanted - materialized), sorted(materialized - wanted)
