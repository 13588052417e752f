"""The follow and block graph, and the locks that order projections against its changes."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from feeds_runtime.db import Executor, affected
from timeline.repositories.sql import advisory_locks, blocked

_GRAPH_LOCK = advisory_locks("pg_advisory_xact_lock", "timeline.graph")
_GRAPH_LOCK_SHARED = advisory_locks("pg_advisory_xact_lock_shared", "timeline.graph")


class GraphRepository:
    def __init__(self, session: Executor) -> None:
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
        return affected(self.session.execute(
            text(
                """
                UPDATE timeline.follows SET ended_at = now()
                WHERE tenant_id = :tenant AND follower_id = :follower AND followee_id = :followee AND ended_at IS NULL
                """
            ),
            {"tenant": tenant_id, "follower": follower_id, "followee": followee_id},
        )) > 0

    def lock_graph(self, tenant_id: uuid.UUID, *user_ids: uuid.UUID, shared: bool) -> None:
        """Transaction-scoped lock on the follower graph of each user, in one statement (taken in id
        order, so lockers never deadlock)."""
        self.session.execute(text(_GRAPH_LOCK_SHARED if shared else _GRAPH_LOCK),
                             {"tenant": tenant_id, "ids": sorted(set(user_ids))})

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
        return affected(self.session.execute(
            text("DELETE FROM timeline.blocks WHERE tenant_id = :tenant AND blocker_id = :blocker "
                 "AND blocked_id = :blocked"),
            {"tenant": tenant_id, "blocker": blocker_id, "blocked": blocked_id},
        )) > 0

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
            text(f"SELECT {blocked(':a', ':b')}"), {"tenant": tenant_id, "a": a, "b": b}
        ).scalar_one()

    def followees(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[uuid.UUID]:
        return list(self.session.execute(
            text("SELECT followee_id FROM timeline.follows WHERE tenant_id = :tenant AND follower_id = :viewer "
                 "AND ended_at IS NULL"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).scalars())

    def has_followers(self, tenant_id: uuid.UUID, author_id: uuid.UUID, at_least: int) -> bool:
        """Whether the author has at least that many effective followers: one row of the counts the
        triggers on follows keep, whatever the author's size."""
        return self.session.execute(
            text(
                """
                SELECT EXISTS (SELECT FROM timeline.follower_counts
                               WHERE tenant_id = :tenant AND author_id = :author AND followers >= :at_least)
                """
            ),
            {"tenant": tenant_id, "author": author_id, "at_least": at_least},
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
