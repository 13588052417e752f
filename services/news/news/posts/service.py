"""Authoring rules: the caller writes posts signed by themself or, when an internal authoring service
names one, by a company (news cannot check company membership: see PostService in posts.proto). Only
the writer changes a post. Publishing records a PostPublished event in the event log."""

from __future__ import annotations

import uuid

from sqlalchemy import func
from sqlalchemy.orm import Session

from news import codes
from news.inputs import optional_uuid, parse_uuid, text
from news.domain import Post, PostStatus
from news.posts import repository
from news.posts.published import record_post_published

EXCERPT_CHARS = 280


def excerpt(body: str) -> str:
    flat = " ".join(body.split())
    return flat if len(flat) <= EXCERPT_CHARS else flat[: EXCERPT_CHARS - 1].rstrip() + "…"


class PostService:
    def create(
        self, session: Session, writer: uuid.UUID, title: str, body: str, category_id: str | None, company_id: str | None
    ) -> Post:
        clean_title = text(title, "title", maximum=200)
        clean_body = text(body, "body", maximum=20000)
        category = optional_uuid(category_id, "categoryId")
        company = optional_uuid(company_id, "authorCompanyId")
        return repository.add(
            session,
            id=uuid.uuid4(),
            author_user_id=None if company else writer,
            author_company_id=company,
            category_id=category,
            title=clean_title,
            body=clean_body,
            excerpt=excerpt(clean_body),
            created_by=writer,
        )

    def _owned(self, session: Session, writer: uuid.UUID, post_id: uuid.UUID) -> Post:
        post = repository.get(session, post_id)
        if post is None:
            raise codes.post_not_found()
        if post.created_by != writer:
            raise codes.post_forbidden()
        return post

    def update(
        self, session: Session, writer: uuid.UUID, post_id: str, title: str, body: str, category_id: str | None
    ) -> Post:
        parsed = parse_uuid(post_id, "id")
        clean_title = text(title, "title", maximum=200)
        clean_body = text(body, "body", maximum=20000)
        category = optional_uuid(category_id, "categoryId")
        updated = repository.update_content(
            session, parsed, writer, title=clean_title, body=clean_body, excerpt=excerpt(clean_body), category_id=category
        )
        return updated or self._owned(session, writer, parsed)

    def publish(self, session: Session, writer: uuid.UUID, post_id: str) -> Post:
        parsed = parse_uuid(post_id, "id")
        published = repository.transition(
            session, parsed, writer, (PostStatus.DRAFT, PostStatus.UNPUBLISHED), PostStatus.PUBLISHED,
            published_at=func.now(),
        )
        if published is None:
            return self._owned(session, writer, parsed)  # already published: nothing to do
        record_post_published(session, published)
        return published

    def unpublish(self, session: Session, writer: uuid.UUID, post_id: str) -> Post:
        parsed = parse_uuid(post_id, "id")
        return repository.transition(
            session, parsed, writer, (PostStatus.PUBLISHED,), PostStatus.UNPUBLISHED
        ) or self._owned(session, writer, parsed)
