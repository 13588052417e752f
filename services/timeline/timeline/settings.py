"""Settings of the timeline service (prefix TIMELINE_)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings


class TimelineSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="TIMELINE_", extra="ignore")

    grpc_port: int = 50051
    # Signs home-timeline cursors so a tampered or foreign one is refused. Set per deployment;
    # every replica of one deployment must share it. At least 16 characters.
    cursor_secret: SecretStr = Field(default=SecretStr("timeline-dev-cursor-secret"), min_length=16)
    # Followers materialized per fan-out job (one transaction each): 10k followers are one job.
    fanout_chunk_size: int = Field(default=10_000, ge=1, le=50_000)
    # Stale entries removed per clean-up job (one transaction each).
    cleanup_chunk_size: int = Field(default=5000, ge=1, le=100_000)
    # A viewer's window: the most recent following entries that rebuild and audit keep exact. A follow
    # or unblock merges as many of the followee's recent posts, which covers their share of any window;
    # fan-out writes new posts, always inside it. Older entries are left as they are.
    window_entries: int = Field(default=1000, ge=1, le=100_000)
