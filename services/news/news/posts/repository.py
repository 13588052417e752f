"""Every query on news.posts for authoring. Writes are scoped by the writer (created_by)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from sqlalchemy import func, update
from sqlalchemy.orm import Session

from news.models import Post


def add(session: Session, post: Post) -> Post:
    session.add(post)
    session.flush()
    session.refresh(post)
    return post


def get(session: Session, post_id: uuid.UUID) -> Post | None:
    return session.get(Post, post_id)


def update_content(session: Session, post_id: uuid.UUID, writer: uuid.UUID, **values) -> Post | None:
    return session.scalars(
        update(Post)
        .where(Post.id == post_id, Post.created_by == writer)
        .values(**values, updated_at=func.now())
        .returning(Post)
        .execution_options(populate_existing=True)
    ).one_or_none()


def transition(
    session: Session, post_id: uuid.UUID, writer: uuid.UUID, expected: Iterable[str], status: str, **values
) -> Post | None:
    """Guarded status change: one UPDATE that applies only from an expected status."""
    return session.scalars(
        update(Post)
        .where(Post.id == post_id, Post.created_by == writer, Post.status.in_(list(expected)))
        .values(status=status, updated_at=func.now(), **values)
        .returning(Post)
        .execution_options(populate_existing=True)
    ).one_or_none()
