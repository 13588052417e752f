"""The PostPublished integration event (`news.post-published.v1`), written to the news event log in
the publish transaction and read by consumers through NewsEvents.ListEvents (feeds_runtime.events)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from feeds_runtime import events
from news.domain import Post
from news.models import events as events_table

EVENT_TYPE = "news.post-published.v1"


def record_post_published(session: Session, post: Post) -> None:
    events.append(session, events_table, EVENT_TYPE, {
        "post_id": str(post.id),
        "author_user_id": str(post.author_user_id or ""),
        "author_company_id": str(post.author_company_id or ""),
        "category_id": str(post.category_id or ""),
        "published_at": post.published_at.isoformat() if post.published_at else "",
    })
