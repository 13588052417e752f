"""Settings of the timeline service (prefix TIMELINE_)."""

from __future__ import annotations

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings, deployment_secret


class TimelineSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="TIMELINE_", extra="ignore")

    grpc_port: int = 50051
    # Signs home-timeline cursors so a tampered or foreign one is refused. Set per deployment (a dev
    # value only under FEEDS_ENV=dev); every replica of one deployment must share it.
    cursor_secret: SecretStr = Field(default=SecretStr(""), validate_default=True)
    # Followers materialized per fan-out job (one transaction each): 10k followers are one job.
    fanout_chunk_size: int = Field(default=10_000, ge=1, le=50_000)
    # Stale entries removed per clean-up job (one transaction each).
    cleanup_chunk_size: int = Field(default=5000, ge=1, le=100_000)
    # A viewer's window: the entries kept per viewer. A trim drops what lies past it (self entries
    # stay) and home reads pull that history from the posts of the viewer's follows, so nothing is lost.
    window_entries: int = Field(default=1000, ge=1, le=100_000)
    # A fan-out marks about one in this many of its viewers for a trim (a hash of viewer and post), so
    # a viewer keeps about window_entries + trim_every entries at most: a trim costs one read of the
    # window, which this spreads over that many received posts.
    trim_every: int = Field(default=20, ge=1, le=10_000)
    # Entries a home read examines at most to fill one page for a viewer whose word filters hide some
    # (never fewer than the page's limit + 1): past it, the page returns what it found, with a cursor
    # after the last entry examined (docs/timeline.md, "Full pages").
    home_examine_max: int = Field(default=1000, ge=1, le=10_000)
    # Rebuilds a tenant may have queued or running at once; a request past it is refused.
    rebuilds_per_tenant: int = Field(default=10, ge=1, le=10_000)
    # The statement timeout of a rebuild's run, below its job's time limit (120 s): a run past it fails and is
    # tried again, three runs in all.
    rebuild_statement_timeout_ms: int = Field(default=60_000, ge=1)
    # Authors with at least this many followers are not fanned out: home reads pull their posts.
    pull_threshold: int = Field(default=50_000, ge=1)

    @field_validator("cursor_secret")
    @classmethod
    def _cursor_secret(cls, value: SecretStr, info: ValidationInfo) -> SecretStr:
        return deployment_secret(value, info, dev_value="timeline-dev-cursor-secret")
