"""What the dev kit reads from the environment, and nothing else reads it: where PostgreSQL and
Redis are (unset, embedded ones are started) and the gateway options `make run` passes on."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class DevSettings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore")

    database_url: str | None = Field(default=None, validation_alias="DATABASE_URL")
    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL")
    # Unset, `make run` keeps a per-checkout secret in .data/run, so tokens survive a restart.
    gateway_jwt_secret: str | None = Field(default=None, validation_alias="GATEWAY_JWT_SECRET")
