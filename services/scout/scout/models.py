"""Tables of the scout schema: runs, their published results, reusable homework and scan jobs."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy import text as sql

from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from feeds_runtime.db import schema_metadata
from feeds_runtime.outbox import outbox_table

SCHEMA = "scout"


class Base(DeclarativeBase):
    metadata = schema_metadata(SCHEMA)


outbox = outbox_table(Base.metadata)

QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED = "queued", "running", "succeeded", "failed", "cancelled"
ACTIVE_STATUSES = (QUEUED, RUNNING)
TERMINAL_STATUSES = (SUCCEEDED, FAILED, CANCELLED)

SCAN_TEMPLATE = "scout_scan"

# Outreach states of one result; "pending" means new or drafted.
POST_NEW, POST_DRAFTED, POST_QUEUED, POST_PUBLISHED, POST_SKIPPED = "new", "drafted", "queued", "published", "skipped"


class Job(Base):
    """A background job of the jobs module. `payload` and `ref_id` never change after insert."""

    __tablename__ = "jobs"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    owner_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    template_type: Mapped[str] = mapped_column(String(40))
    ref_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    payload: Mapped[dict] = mapped_column(JSONB)
    status: Mapped[str] = mapped_column(String(16))
    progress: Mapped[str] = mapped_column(Text, server_default="")
    # The step as data: queued | preparing | searching | filtering | publishing | finished, and the
    # search stage (1..3) while searching or filtering it, else 0.
    progress_stage: Mapped[str] = mapped_column(String(16), server_default="queued")
    progress_stage_number: Mapped[int] = mapped_column(Integer, server_default="0")
    # Current counts of a running scan (final once the job is terminal).
    progress_searched: Mapped[int] = mapped_column(Integer, server_default="0")
    progress_duplicates: Mapped[int] = mapped_column(Integer, server_default="0")
    progress_irrelevant: Mapped[int] = mapped_column(Integer, server_default="0")
    progress_eligible: Mapped[int] = mapped_column(Integer, server_default="0")
    progress_target: Mapped[int] = mapped_column(Integer, server_default="0")
    cancel_requested: Mapped[bool] = mapped_column(Boolean, server_default=sql("false"))
    worker_id: Mapped[str | None] = mapped_column(String(200))
    error_summary: Mapped[str] = mapped_column(Text, server_default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (
        Index("ix_jobs_owner_id_created_at", "owner_id", "created_at"),
        Index("ix_jobs_queued_created_at", "created_at", postgresql_where=sql("status = 'queued'")),
    )


class Run(Base):
    """One Scout Run. Inputs and diagnostics are fixed once terminal; eligible_count shrinks when a
    result is deleted; pending_count is always computed from the run's results."""

    __tablename__ = "runs"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    owner_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    job_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), unique=True)
    theme_key: Mapped[str] = mapped_column(String(200))
    theme_label: Mapped[str] = mapped_column(Text)
    intent: Mapped[str] = mapped_column(Text)
    mode: Mapped[str] = mapped_column(String(20))
    brand_id: Mapped[str | None] = mapped_column(String(100))
    terms: Mapped[list] = mapped_column(JSONB)
    target_count: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    searched_count: Mapped[int] = mapped_column(Integer, server_default="0")
    duplicate_count: Mapped[int] = mapped_column(Integer, server_default="0")
    irrelevant_count: Mapped[int] = mapped_column(Integer, server_default="0")
    eligible_count: Mapped[int] = mapped_column(Integer, server_default="0")
    shortfall_reasons: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default="{}")
    error_summary: Mapped[str] = mapped_column(Text, server_default="")
    # [{"stage": "stage_1", "duration_ms": 12}, …] in execution order.
    stage_timings: Mapped[list] = mapped_column(JSONB, server_default="[]")
    # Per-source failures of the run, safe words only (no tokens, headers or bodies).
    source_errors: Mapped[dict] = mapped_column(JSONB, server_default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The Idempotency-Key the run was created under (docs/scout.md 5.1), and the sha256 of its brief
    # as the service read it, to tell a retry from another scan under the key.
    idempotency_key: Mapped[str | None] = mapped_column(String(255))
    request_fingerprint: Mapped[str | None] = mapped_column(String(64))

    __table_args__ = (
        Index("ix_runs_owner_id_created_at_id", "owner_id", sql("created_at DESC"), sql("id DESC")),
        # A scan retried with the same key finds the first run.
        Index("uq_runs_idempotency", "owner_id", "idempotency_key", unique=True,
              postgresql_where=sql("idempotency_key IS NOT NULL")),
    )


class Post(Base):
    """A published result. (owner, canonical identity) is unique: a post belongs to the first run
    that found it; later runs count it as a duplicate and never move it."""

    __tablename__ = "posts"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    owner_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    # NULL for results saved before runs existed (shown as a synthetic legacy run).
    run_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True), ForeignKey("runs.id", ondelete="CASCADE"))
    theme_key: Mapped[str | None] = mapped_column(String(200))
    canonical_id: Mapped[str] = mapped_column(String(100))
    url: Mapped[str] = mapped_column(Text)
    author: Mapped[str] = mapped_column(Text, server_default="")
    text: Mapped[str] = mapped_column(Text, server_default="")
    match_reason: Mapped[str] = mapped_column(Text, server_default="")
    score: Mapped[float] = mapped_column(Float)
    posted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    outreach_status: Mapped[str] = mapped_column(String(16), server_default=POST_NEW)
    draft_text: Mapped[str] = mapped_column(Text, server_default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (
        UniqueConstraint("owner_id", "canonical_id"),
        # The result order of flow E (docs/scout.md), so one page is an index range scan.
        Index("ix_posts_run_order", "run_id", sql("score DESC"), sql("(posted_at IS NULL)"),
              sql("posted_at DESC"), sql("created_at DESC"), sql("id DESC")),
        Index("ix_posts_legacy_owner_theme", "owner_id", "theme_key", postgresql_where=sql("run_id IS NULL")),
    )


class Homework(Base):
    """A reusable topic brief; lives independently of runs."""

    __tablename__ = "homework"

    owner_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    theme_key: Mapped[str] = mapped_column(String(200), primary_key=True)
    brief: Mapped[dict] = mapped_column(JSONB)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class SourceCredential(Base):
    """A provider credential refreshed by the service (the Threads long-lived token), encrypted with
    SCOUT_CREDENTIALS_KEY. It stands for the configured seed credential it was refreshed from, and
    only while that seed is configured (a new seed in the Secret wins)."""

    __tablename__ = "source_credentials"

    source: Mapped[str] = mapped_column(String(32), primary_key=True)
    seed_fingerprint: Mapped[str] = mapped_column(String(64))
    ciphertext: Mapped[str] = mapped_column(Text)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    refreshed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
