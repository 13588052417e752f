"""Settings of the news service (prefix NEWS_)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings


class NewsSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="NEWS_", extra="ignore")

    grpc_port: int = 50052
    # Feature flag news.subscriptions.enabled: off, every subscription endpoint answers
    # NEWS_SUBSCRIPTIONS_DISABLED while the global feed keeps working.
    subscriptions_enabled: bool = True
    # Key of the cursors' integrity check; every replica of the service must share it.
    cursor_secret: SecretStr = Field(default=SecretStr("news-dev-cursor-secret"), min_length=16)
