"""Settings of the timeline service (prefix TIMELINE_)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings


class TimelineSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="TIMELINE_", extra="ignore")

    grpc_port: int = 50051
