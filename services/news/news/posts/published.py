"""The PostPublished integration event (pin.news.post-published.v1), appended to a Redis stream.

Delivery is at least once: consumers dedupe on (post_id, published_at)."""

from __future__ import annotations

import uuid

from feeds_runtime.db import Database
from news.domain import PostStatus
from news.posts import repository

STREAM = "news.post-published.v1"


def stream_key(namespace: str) -> str:
    return f"{namespace}:{STREAM}"


def publish_post_published(database: Database, redis, namespace: str, post_id: str) -> None:
    with database.transaction() as session:
        post = repository.get(session, uuid.UUID(post_id))
    if post is None or post.status is not PostStatus.PUBLISHED or post.published_at is None:
        return  # unpublished again before the event went out: nothing to announce
    redis.xadd(
        stream_key(namespace),
        {
            "post_id": str(post.id),
            "author_user_id": str(post.author_user_id or ""),
            "author_company_id": str(post.author_company_id or ""),
            "category_id": str(post.category_id or ""),
            "published_at": post.published_at.isoformat(),
        },
    )
