"""Every query on news.posts for authoring. Writes are scoped by the writer (created_by)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.orm import Session

from news import models
from news.domain import Post, PostStatus


def _post(row: models.Post) -> Post:
    return Post(
        id=row.id, author_user_id=row.author_user_id, author_company_id=row.author_company_id,
        category_id=row.category_id, title=row.title, body=row.body, status=PostStatus(row.status),
        published_at=row.published_at, created_by=row.created_by, created_at=row.created_at, updated_at=row.updated_at,
    )


def add(session: Session, **values: Any) -> Post:
    """A new draft with the given columns, as stored (the database sets its times)."""
    row = models.Post(status=PostStatus.DRAFT.value, **values)
    session.add(row)
    session.flush()
    session.refresh(row)
    return _post(row)


def get(session: Session, post_id: uuid.UUID) -> Post | None:
    row = session.get(models.Post, post_id)
    return _post(row) if row is not None else None


def update_content(session: Session, post_id: uuid.UUID, writer: uuid.UUID, **values: Any) -> Post | None:
    row = session.scalars(
        update(models.Post)
        .where(models.Post.id == post_id, models.Post.created_by == writer)
        .values(**values, updated_at=func.now())
        .returning(models.Post)
        .execution_options(populate_existing=True)
    ).one_or_none()
    return _post(row) if row is not None else None


def transition(
    session: Session, post_id: uuid.UUID, writer: uuid.UUID, expected: Iterable[PostStatus], status: PostStatus,
    **values: Any,
) -> Post | None:
    """Guarded status change: one UPDATE that applies only from an expected status."""
    row = session.scalars(
        update(models.Post)
        .where(models.Post.id == post_id, models.Post.created_by == writer,
               models.Post.status.in_([s.value for s in expected]))
        .values(status=status.value, updated_at=func.now(), **values)
        .returning(models.Post)
        .execution_options(populate_existing=True)
    ).one_or_none()
    return _post(row) if row is not None else None
