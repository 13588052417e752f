"""Settings of the news service (prefix NEWS_)."""

from __future__ import annotations

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings, deployment_secret


class NewsSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="NEWS_", extra="ignore")

    grpc_port: int = 50052
    grpc_health_port: int = 50062
    # Feature flag news.subscriptions.enabled: off, every subscription endpoint answers
    # NEWS_SUBSCRIPTIONS_DISABLED while the global feed keeps working.
    subscriptions_enabled: bool = True
    # Key of the cursors' integrity check (a dev value only under FEEDS_ENV=dev); every replica of the
    # service must share it.
    cursor_secret: SecretStr = Field(default=SecretStr(""), validate_default=True)

    @field_validator("cursor_secret")
    @classmethod
    def _cursor_secret(cls, value: SecretStr, info: ValidationInfo) -> SecretStr:
        return deployment_secret(value, info, dev_value="news-dev-cursor-secret")
