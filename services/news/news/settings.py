"""Settings of the news service (prefix NEWS_)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings


class NewsSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="NEWS_", extra="ignore")

    grpc_port: int = 50052
