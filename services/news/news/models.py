"""Tables of the news schema."""

from __future__ import annotations

import datetime as dt
import uuid

from sqlalchemy import BigInteger, DateTime, String, Text, Uuid, func
from sqlalchemy.orm import Mapped, mapped_column

from feeds_runtime.db import declarative_base
from feeds_runtime.outbox import outbox_table

SCHEMA = "news"

Base = declarative_base(SCHEMA)

outbox = outbox_table(Base.metadata)


class Post(Base):
    """A post signed by exactly one source: its writer (author_user_id) or a company (author_company_id)."""

    __tablename__ = "posts"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    author_user_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    author_company_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    category_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    # Kept beside the body so feeds never read bodies.
    excerpt: Mapped[str] = mapped_column(String(300))
    status: Mapped[str] = mapped_column(String(16))
    published_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    created_by: Mapped[uuid.UUID] = mapped_column(Uuid)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class AuthorSubscription(Base):
    """A member's subscription to an author or a company; soft-deleted on unsubscribe, reactivated on
    a repeat subscribe (one row per subscriber and target, ux_subscriptions_target)."""

    __tablename__ = "author_subscriptions"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    subscriber_user_id: Mapped[uuid.UUID] = mapped_column(Uuid)
    target_kind: Mapped[str] = mapped_column(String(16))
    target_user_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    target_company_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    created_by: Mapped[uuid.UUID] = mapped_column(Uuid)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_by: Mapped[uuid.UUID] = mapped_column(Uuid)
    deleted_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    deleted_by: Mapped[uuid.UUID | None] = mapped_column(Uuid)

    @property
    def target(self) -> uuid.UUID:
        return self.target_user_id or self.target_company_id  # type: ignore[return-value]


class AuthorReplica(Base):
    """A member as identity last told us. Profile and status carry separate versions because
    UserBlocked changes only the status; each part keeps the newest version it has seen."""

    __tablename__ = "author_replicas"

    user_id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    display_name: Mapped[str | None] = mapped_column(String(200))
    avatar_url: Mapped[str | None] = mapped_column(String(2000))
    status: Mapped[str] = mapped_column(String(16))
    profile_version: Mapped[int] = mapped_column(BigInteger)
    status_version: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class CompanyReplica(Base):
    """A company as identity last told us (see AuthorReplica for the two versions)."""

    __tablename__ = "company_replicas"

    company_id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(200))
    logo_url: Mapped[str | None] = mapped_column(String(2000))
    status: Mapped[str] = mapped_column(String(16))
    profile_version: Mapped[int] = mapped_column(BigInteger)
    status_version: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
