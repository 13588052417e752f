"""Domain values of the news context, independent of protobuf and SQL: what the repositories return."""

from __future__ import annotations

import datetime as dt
import enum
import uuid
from dataclasses import dataclass

from news.cursor import Position


class PostStatus(enum.StrEnum):
    DRAFT = "Draft"
    PUBLISHED = "Published"
    UNPUBLISHED = "Unpublished"


@dataclass(frozen=True)
class Post:
    """A post as its writer authors it, signed by exactly one source: the writer or a company."""

    id: uuid.UUID
    author_user_id: uuid.UUID | None
    author_company_id: uuid.UUID | None
    category_id: uuid.UUID | None
    title: str
    body: str
    status: PostStatus
    # Set whenever the post is published (the schema's check ck_posts_published_at).
    published_at: dt.datetime | None
    created_by: uuid.UUID
    created_at: dt.datetime
    updated_at: dt.datetime


class TargetKind(enum.StrEnum):
    AUTHOR = "Author"
    COMPANY = "Company"


@dataclass(frozen=True)
class SubscriptionTarget:
    """What a subscription points at: a member (Author) or a company, by the id its kind names."""

    kind: TargetKind
    user_id: uuid.UUID | None = None
    company_id: uuid.UUID | None = None

    @property
    def id(self) -> uuid.UUID:
        return self.user_id or self.company_id  # type: ignore[return-value]


@dataclass(frozen=True)
class Subscription:
    id: uuid.UUID
    subscriber_user_id: uuid.UUID
    target: SubscriptionTarget
    created_at: dt.datetime
    # Set while unsubscribed; a repeat subscribe clears it.
    deleted_at: dt.datetime | None


@dataclass(frozen=True)
class FeedItem:
    """A published post in a feed, with the signature of its author or company."""

    id: uuid.UUID
    title: str
    excerpt: str
    category_id: uuid.UUID | None
    published_at: dt.datetime
    author_user_id: uuid.UUID | None
    author_company_id: uuid.UUID | None
    display_name: str | None
    avatar_url: str | None
    author_status: str | None
    company_name: str | None
    logo_url: str | None

    @property
    def position(self) -> Position:
        return Position(self.published_at, self.id)


@dataclass(frozen=True)
class FeedPost:
    """One post as a reader asks for it: its feed item, its body, and what decides who may read it."""

    item: FeedItem
    body: str
    status: PostStatus
    created_by: uuid.UUID
    company_status: str | None  # None: not a company's post, or no replica of the company yet
