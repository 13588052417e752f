"""Settings of the scout service (prefix SCOUT_)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings


class ScoutSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="SCOUT_", extra="ignore")

    grpc_port: int = 50053
