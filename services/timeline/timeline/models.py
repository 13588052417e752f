"""Tables of the timeline schema. Every table carries `tenant_id` and every query filters by it."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, CheckConstraint, DateTime, Index, Integer, Sequence, String, Text, func, text
from sqlalchemy.dialects.postgresql import ARRAY, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from feeds_runtime.db import schema_metadata
from feeds_runtime.events import event_log_table
from feeds_runtime.outbox import outbox_table

SCHEMA = "timeline"


class Base(DeclarativeBase):
    metadata = schema_metadata(SCHEMA)


outbox = outbox_table(Base.metadata)
# Integration events (`timeline.post_published`), read by consumers through TimelineEvents.ListEvents.
events = event_log_table(Base.metadata)

# Partitions of timeline_entries (its hash modulus). Changing it means a migration that moves rows.
TIMELINE_ENTRY_PARTITIONS = 16


class Post(Base):
    """The canonical post; timeline entries are projections of it."""

    __tablename__ = "posts"
    __table_args__ = (
        CheckConstraint("visibility IN ('public', 'private')", name="visibility"),
        CheckConstraint("moderation_state IN ('visible', 'hidden', 'removed')", name="moderation_state"),
        CheckConstraint("delivery IN ('push', 'pull')", name="delivery"),
        # A publish retried with the same key finds the first one.
        Index("uq_posts_idempotency", "tenant_id", "author_id", "idempotency_key", unique=True,
              postgresql_where=text("idempotency_key IS NOT NULL")),
        # Recent posts of an author: follow merges and rebuilds.
        Index("ix_posts_author_recent", "tenant_id", "author_id", text("published_at DESC")),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID)
    author_id: Mapped[uuid.UUID] = mapped_column(UUID)
    body: Mapped[str] = mapped_column(Text)
    visibility: Mapped[str] = mapped_column(String(16))
    moderation_state: Mapped[str] = mapped_column(String(16), server_default="visible")
    # push: fanned out as entries; pull: merged into followers' reads (see timeline.domain.Delivery).
    delivery: Mapped[str] = mapped_column(String(8), server_default="push")
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    idempotency_key: Mapped[str | None] = mapped_column(String(255))
    # sha256 of what was published under the key, to tell a retry from a different request.
    request_fingerprint: Mapped[str | None] = mapped_column(String(64))
    # The body in the folded form word filters match (feeds_runtime.folding), written at publish;
    # null for a post published before bodies were folded (a read folds those itself).
    folded_body: Mapped[str | None] = mapped_column(Text)
    # The host's labels of the post (domain.LABEL_PATTERN), which label policies and preferences act on.
    labels: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")


class PostStats(Base):
    __tablename__ = "post_stats"

    post_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID)
    like_count: Mapped[int] = mapped_column(BigInteger, server_default="0")
    reply_count: Mapped[int] = mapped_column(BigInteger, server_default="0")
    share_count: Mapped[int] = mapped_column(BigInteger, server_default="0")


class Follow(Base):
    """A follow is effective while `ended_at` is null; unfollow ends it, a new follow revives it."""

    __tablename__ = "follows"
    __table_args__ = (
        CheckConstraint("follower_id <> followee_id", name="not_self"),
        # Fan-out walks an author's effective followers in follower-id order.
        Index("ix_follows_followers", "tenant_id", "followee_id", "follower_id",
              postgresql_where=text("ended_at IS NULL")),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    follower_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    followee_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    followed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class FollowerCount(Base):
    """An author's effective followers, kept by statement triggers on follows (migration 0011) in the
    transaction that changes them, so a publish reads whether its author is at the pull threshold
    without counting follows."""

    __tablename__ = "follower_counts"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    author_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    followers: Mapped[int] = mapped_column(BigInteger)


class Block(Base):
    """A block hides posts in both directions while the row exists."""

    __tablename__ = "blocks"
    __table_args__ = (
        CheckConstraint("blocker_id <> blocked_id", name="not_self"),
        Index("ix_blocks_blocked", "tenant_id", "blocked_id", "blocker_id"),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    blocker_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    blocked_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class TimelineEntry(Base):
    """A post materialized into a viewer's home timeline: `self` for the author, `following` for
    followers. At most one per (tenant, viewer, post), the key; the id is derived from that triple.

    Hash-partitioned by viewer: a viewer's entries live in one partition, so every per-viewer
    statement touches one (and the viewer is the distribution column on Citus, deploy/README.md).
    Every key therefore includes `viewer_id`."""

    __tablename__ = "timeline_entries"
    __table_args__ = (
        CheckConstraint("kind IN ('self', 'following')", name="kind"),
        Index("ix_timeline_entries_page", "tenant_id", "viewer_id", text("ranked_at DESC"), text("id DESC")),
        Index("ix_timeline_entries_post", "tenant_id", "post_id"),
        {"postgresql_partition_by": "HASH (viewer_id)", "info": {"hash_partitions": TIMELINE_ENTRY_PARTITIONS}},
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    viewer_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    post_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    id: Mapped[uuid.UUID] = mapped_column(UUID)
    author_id: Mapped[uuid.UUID] = mapped_column(UUID)
    kind: Mapped[str] = mapped_column(String(16))
    ranked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    materialized_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # The version of the viewer's word filters (WordFilterVersion) under which its lasting hiding
    # filters match the post; none when not judged or not hidden. A read skips the entry only while
    # that version is the viewer's current one.
    hidden_by_filters: Mapped[int | None] = mapped_column(BigInteger)


class Mute(Base):
    """A viewer mutes an author: the author's posts leave the viewer's home reads while the mute holds
    (no `until`, or `until` still ahead). Nothing is written or removed in the projection."""

    __tablename__ = "mutes"
    __table_args__ = (CheckConstraint("viewer_id <> author_id", name="not_self"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    viewer_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    author_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WordFilter(Base):
    """A viewer's word filter: posts whose folded body holds the phrase (whole words for Latin text,
    as written for CJK) are hidden from its home reads, or returned marked, while it has not expired."""

    __tablename__ = "word_filters"
    __table_args__ = (CheckConstraint("action IN ('hide', 'warn')", name="action"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    viewer_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    # As the viewer wrote it, and in the folded form it is matched in.
    phrase: Mapped[str] = mapped_column(Text)
    folded_phrase: Mapped[str] = mapped_column(Text)
    action: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class WordFilterVersion(Base):
    """The version of a viewer's word filters: a new one, from `word_filter_version_seq`, with each
    change of them. No row: the viewer never had a filter, and no entry of it is marked hidden."""

    __tablename__ = "word_filter_versions"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    viewer_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    version: Mapped[int] = mapped_column(BigInteger)


# Versions are never reused, so an entry's mark names one set of filters for good.
word_filter_version_seq = Sequence("word_filter_version_seq", metadata=Base.metadata)


class LabelPolicy(Base):
    """What a label does in the tenant's home timelines (hide, warn, show), and whether a viewer's
    own preference may change it. A label with no policy is shown."""

    __tablename__ = "label_policies"
    __table_args__ = (CheckConstraint("action IN ('hide', 'warn', 'show')", name="action"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    label: Mapped[str] = mapped_column(String(32), primary_key=True)
    action: Mapped[str] = mapped_column(String(8))
    viewer_may_change: Mapped[bool] = mapped_column(Boolean)


class LabelPreference(Base):
    """What a label does in one viewer's home timeline, where the tenant's policy lets it choose."""

    __tablename__ = "label_preferences"
    __table_args__ = (CheckConstraint("action IN ('hide', 'warn', 'show')", name="action"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    viewer_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    label: Mapped[str] = mapped_column(String(32), primary_key=True)
    action: Mapped[str] = mapped_column(String(8))


class Rebuild(Base):
    """A host's request to rebuild one viewer's timeline, run by a job: queued → running → succeeded
    or failed, with the entries it wrote and removed. At most one live (queued or running) per viewer."""

    __tablename__ = "rebuilds"
    __table_args__ = (
        CheckConstraint("status IN ('queued', 'running', 'succeeded', 'failed')", name="status"),
        Index("uq_rebuilds_live", "tenant_id", "viewer_id", unique=True,
              postgresql_where=text("status IN ('queued', 'running')")),
        # A viewer's latest rebuild.
        Index("ix_rebuilds_viewer", "tenant_id", "viewer_id", text("requested_at DESC")),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    viewer_id: Mapped[uuid.UUID] = mapped_column(UUID)
    status: Mapped[str] = mapped_column(String(16))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    entries_written: Mapped[int] = mapped_column(BigInteger, server_default="0")
    entries_removed: Mapped[int] = mapped_column(BigInteger, server_default="0")
    # Runs started; a run that fails is retried until REBUILD_ATTEMPTS, then the rebuild fails.
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    # Why it failed (the error's kind, never its text).
    error: Mapped[str | None] = mapped_column(String(200))


class PulledAuthor(Base):
    """An author with posts delivered by pull: home reads look for posts of the followees listed here."""

    __tablename__ = "pulled_authors"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    author_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    first_pulled_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ViewerHorizon(Base):
    """The position below which a viewer's following entries are trimmed and read by pull instead
    (see timeline.repositories.windows). No row: nothing was trimmed."""

    __tablename__ = "viewer_horizons"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    viewer_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    ranked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    entry_id: Mapped[uuid.UUID] = mapped_column(UUID)


class FanoutProgress(Base):
    """Per-post fan-out run: the chunks still pending and the lag once done.
    `generation` grows when a post becomes visible again and is fanned out anew."""

    __tablename__ = "fanout_progress"

    post_id: Mapped[uuid.UUID] = mapped_column(UUID, primary_key=True)
    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID)
    generation: Mapped[int] = mapped_column(Integer, server_default="1")
    # Numbers of the chunks not yet written; null until the first job has planned the run.
    chunks_pending: Mapped[list[int] | None] = mapped_column(ARRAY(Integer))
    chunks_done: Mapped[int] = mapped_column(Integer, server_default="0")
    entries_written: Mapped[int] = mapped_column(BigInteger, server_default="0")
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Why the run stopped without materializing (deleted, not visible, private), if it did.
    skipped_reason: Mapped[str | None] = mapped_column(String(32))
