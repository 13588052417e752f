"""Settings of the timeline service (prefix TIMELINE_)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings


class TimelineSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="TIMELINE_", extra="ignore")

    grpc_port: int = 50051
    # Signs home-timeline cursors so a tampered or foreign one is refused. Set per deployment;
    # every replica of one deployment must share it.
    cursor_secret: SecretStr = SecretStr("timeline-dev-cursor-secret")
    # Followers materialized per fan-out job (one transaction each).
    fanout_chunk_size: int = Field(default=5000, ge=1, le=50_000)
    # Stale entries removed per clean-up job (one transaction each).
    cleanup_chunk_size: int = Field(default=5000, ge=1, le=100_000)
    # Most recent posts of a followee merged into a viewer's timeline on follow or unblock.
    follow_merge_posts: int = Field(default=200, ge=1, le=10_000)
    # Following entries a viewer rebuild materializes at most (the most recent ones).
    rebuild_max_entries: int = Field(default=1000, ge=1, le=100_000)
