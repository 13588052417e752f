"""Canonical posts, their stats, and the authors whose posts are pulled at read time."""

from __future__ import annotations

import enum
import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Result, text

from feeds_runtime.db import Executor
from timeline.domain import Delivery, Moderation, Post, Stats, Visibility
from timeline.repositories.sql import POST_COLUMNS, blocked


class RowLock(enum.Enum):
    """Row lock taken on a post read for a change (update) or a projection (share)."""

    SHARE = "FOR SHARE OF p"
    UPDATE = "FOR UPDATE OF p"


def _post(row) -> Post:
    return Post(
        id=row.id, tenant_id=row.tenant_id, author_id=row.author_id, body=row.body,
        visibility=Visibility(row.visibility), moderation_state=Moderation(row.moderation_state),
        delivery=Delivery(row.delivery), published_at=row.published_at, deleted_at=row.deleted_at,
        stats=Stats(row.like_count or 0, row.reply_count or 0, row.share_count or 0), labels=list(row.labels),
    )


class PostRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def insert(self, post_id: uuid.UUID, tenant_id: uuid.UUID, author_id: uuid.UUID, body: str, folded_body: str,
               labels: list[str], visibility: Visibility, delivery: Delivery, idempotency_key: str | None,
               fingerprint: str | None) -> datetime | None:
        """Insert the post (with its body's folded form and its labels); None when a post with the
        same idempotency key already exists."""
        return self.session.execute(
            text(
                """
                INSERT INTO timeline.posts (id, tenant_id, author_id, body, folded_body, labels, visibility, delivery,
                                            published_at, idempotency_key, request_fingerprint)
                VALUES (:id, :tenant, :author, :body, :folded_body, :labels, :visibility, :delivery, clock_timestamp(),
                        :key, :fingerprint)
                ON CONFLICT (tenant_id, author_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
                RETURNING published_at
                """
            ),
            {"id": post_id, "tenant": tenant_id, "author": author_id, "body": body, "folded_body": folded_body,
             "labels": labels, "visibility": visibility.value,
             "delivery": delivery.value, "key": idempotency_key, "fingerprint": fingerprint},
        ).scalar_one_or_none()

    def by_idempotency_key(self, tenant_id: uuid.UUID, author_id: uuid.UUID, key: str) -> tuple[Post, str]:
        """The post that holds the key (committed: a conflicting insert waits for it) and the fingerprint of
        the request that published it."""
        row = self.session.execute(
            text(
                f"""
                SELECT {POST_COLUMNS}, p.request_fingerprint FROM timeline.posts p
                LEFT JOIN timeline.post_stats s ON s.tenant_id = p.tenant_id AND s.post_id = p.id
                WHERE p.tenant_id = :tenant AND p.author_id = :author AND p.idempotency_key = :key
                """
            ),
            {"tenant": tenant_id, "author": author_id, "key": key},
        ).one()
        return _post(row), row.request_fingerprint

    def insert_stats(self, tenant_id: uuid.UUID, post_id: uuid.UUID) -> None:
        self.session.execute(
            text("INSERT INTO timeline.post_stats (post_id, tenant_id) VALUES (:post, :tenant)"),
            {"post": post_id, "tenant": tenant_id},
        )

    def mark_pulled_author(self, tenant_id: uuid.UUID, author_id: uuid.UUID) -> None:
        """Record that the author has posts delivered by pull, so home reads look for them."""
        self.session.execute(
            text("INSERT INTO timeline.pulled_authors (tenant_id, author_id) VALUES (:tenant, :author) "
                 "ON CONFLICT DO NOTHING"),
            {"tenant": tenant_id, "author": author_id},
        )

    def get(self, tenant_id: uuid.UUID, post_id: uuid.UUID, *, lock: RowLock | None = None) -> Post | None:
        """The post, optionally with its row locked until commit."""
        row = self._select(tenant_id, post_id, lock).one_or_none()
        return _post(row) if row else None

    def written(self, tenant_id: uuid.UUID, post_id: uuid.UUID) -> Post:
        """The post as the caller's transaction has just written it (it exists)."""
        return _post(self._select(tenant_id, post_id, None).one())

    def _select(self, tenant_id: uuid.UUID, post_id: uuid.UUID, lock: RowLock | None) -> Result[Any]:
        return self.session.execute(
            text(
                f"""
                SELECT {POST_COLUMNS} FROM timeline.posts p
                LEFT JOIN timeline.post_stats s ON s.tenant_id = p.tenant_id AND s.post_id = p.id
                WHERE p.tenant_id = :tenant AND p.id = :post {lock.value if lock else ""}
                """
            ),
            {"tenant": tenant_id, "post": post_id},
        )

    def get_for_viewer(self, tenant_id: uuid.UUID, post_id: uuid.UUID,
                       viewer_id: uuid.UUID | None) -> tuple[Post, bool] | None:
        """The post and whether a block stands between the viewer and its author, in one statement."""
        is_blocked = blocked("CAST(:viewer AS uuid)", "p.author_id") if viewer_id is not None else "false"
        row = self.session.execute(
            text(
                f"""
                SELECT {POST_COLUMNS}, {is_blocked} AS blocked FROM timeline.posts p
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

    def set_labels(self, tenant_id: uuid.UUID, post_id: uuid.UUID, labels: list[str]) -> None:
        self.session.execute(
            text("UPDATE timeline.posts SET labels = :labels WHERE tenant_id = :tenant AND id = :post"),
            {"tenant": tenant_id, "post": post_id, "labels": labels},
        )

    def set_moderation(self, tenant_id: uuid.UUID, post_id: uuid.UUID, state: Moderation) -> None:
        self.session.execute(
            text("UPDATE timeline.posts SET moderation_state = :state WHERE tenant_id = :tenant AND id = :post"),
            {"tenant": tenant_id, "post": post_id, "state": state.value},
        )
