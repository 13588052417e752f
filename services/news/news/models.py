"""Tables of the news schema."""

from __future__ import annotations

import datetime as dt
import uuid

from sqlalchemy import BigInteger, CheckConstraint, DateTime, Index, String, Text, Uuid, func, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from feeds_runtime.db import schema_metadata
from feeds_runtime.events import event_log_table
from feeds_runtime.outbox import outbox_table

SCHEMA = "news"


class Base(DeclarativeBase):
    metadata = schema_metadata(SCHEMA)


outbox = outbox_table(Base.metadata)
# Integration events (PostPublished), read by consumers through NewsEvents.ListEvents.
events = event_log_table(Base.metadata)


class Post(Base):
    """A post signed by exactly one source: its writer (author_user_id) or a company (author_company_id)."""

    __tablename__ = "posts"
    __table_args__ = (
        CheckConstraint("(author_user_id IS NULL) <> (author_company_id IS NULL)", name="ck_posts_one_source"),
        CheckConstraint("status IN ('Draft', 'Published', 'Unpublished')", name="ck_posts_status"),
        CheckConstraint("status <> 'Published' OR published_at IS NOT NULL", name="ck_posts_published_at"),
        # Feeds read only published posts, newest first; one index per way a feed selects them, so a
        # page costs what its sources hold, never what the whole table holds.
        Index("ix_posts_author_published", "author_user_id", text("published_at DESC"), text("id DESC"),
              postgresql_where=text("status = 'Published' AND author_user_id IS NOT NULL")),
        Index("ix_posts_company_published", "author_company_id", text("published_at DESC"), text("id DESC"),
              postgresql_where=text("status = 'Published' AND author_company_id IS NOT NULL")),
        Index("ix_posts_published", text("published_at DESC"), text("id DESC"),
              postgresql_where=text("status = 'Published'")),
        Index("ix_posts_category_published", "category_id", text("published_at DESC"), text("id DESC"),
              postgresql_where=text("status = 'Published' AND category_id IS NOT NULL")),
        Index("ix_posts_created_by", "created_by"),
    )

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
    __table_args__ = (
        CheckConstraint(
            "(target_kind = 'Author' AND target_user_id IS NOT NULL AND target_company_id IS NULL)"
            " OR (target_kind = 'Company' AND target_company_id IS NOT NULL AND target_user_id IS NULL)",
            name="ck_author_subscriptions_target",
        ),
        CheckConstraint("target_user_id IS DISTINCT FROM subscriber_user_id", name="ck_author_subscriptions_not_self"),
        # One row per subscriber and target, soft-deleted rows included: a repeat subscribe reactivates it.
        Index("ux_subscriptions_target", "subscriber_user_id", "target_kind",
              text("coalesce(target_user_id, target_company_id)"), unique=True),
        # A subscriber's active subscriptions, newest first; the targets ride along so the feed reads
        # them from the index alone.
        Index("ix_author_subscriptions_active", "subscriber_user_id", text("created_at DESC"), text("id DESC"),
              postgresql_include=["target_kind", "target_user_id", "target_company_id"],
              postgresql_where=text("deleted_at IS NULL")),
        # The subscription feed has a branch per kind of source; each reads only its own kind's targets
        # from the index alone, never the subscriber's other subscriptions.
        Index("ix_author_subscriptions_authors", "subscriber_user_id", "target_user_id",
              postgresql_where=text("deleted_at IS NULL AND target_kind = 'Author'")),
        Index("ix_author_subscriptions_companies", "subscriber_user_id", "target_company_id",
              postgresql_where=text("deleted_at IS NULL AND target_kind = 'Company'")),
    )

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


class AuthorReplica(Base):
    """A member as identity last told us. Profile and status carry separate versions because
    UserBlocked changes only the status; each part keeps the newest version it has seen."""

    __tablename__ = "author_replicas"
    __table_args__ = (CheckConstraint("status IN ('Active', 'Blocked')", name="ck_author_replicas_status"),)

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
    __table_args__ = (
        CheckConstraint("status IN ('Active', 'Suspended')", name="ck_company_replicas_status"),
        # Feeds drop the posts of suspended companies; the few suspended ones are found by this index.
        Index("ix_company_replicas_suspended", "company_id", postgresql_where=text("status = 'Suspended'")),
    )

    company_id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(200))
    logo_url: Mapped[str | None] = mapped_column(String(2000))
    status: Mapped[str] = mapped_column(String(16))
    profile_version: Mapped[int] = mapped_column(BigInteger)
    status_version: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
