"""What the dev kit reads from the environment, and nothing else reads it: where PostgreSQL and
Redis are (unset, embedded ones are started, one node or replicated), the gateway options `make run` passes on, and the
load `make soak` puts on the platform (README.md, "Soak")."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class DevSettings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore")

    database_url: str | None = Field(default=None, validation_alias="DATABASE_URL")
    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL")
    # What `make run` starts when DATABASE_URL is unset: one embedded PostgreSQL ("single"), or a
    # primary and one streaming replica ("replicated", devstack.replication) whose URL the services
    # get as DATABASE_REPLICA_URLS, and a Redis master, its replica and three Sentinels
    # (devstack.sentinel) named to them by REDIS_SENTINELS unless REDIS_URL is set.
    feeds_topology: Literal["single", "replicated"] = Field(default="single", validation_alias="FEEDS_TOPOLOGY")
    # Unset, `make run` keeps a per-checkout secret in .data/run, so tokens survive a restart.
    gateway_jwt_secret: str | None = Field(default=None, validation_alias="GATEWAY_JWT_SECRET")

    # `make soak`: how long the load runs, how many operations a second it starts, how many may be
    # in flight at once, and after how long the processes' memory is taken as warmed up.
    soak_seconds: float = Field(default=600.0, gt=0, validation_alias="SOAK_SECONDS")
    soak_rate: float = Field(default=20.0, gt=0, validation_alias="SOAK_RATE")
    soak_concurrency: int = Field(default=8, ge=1, le=256, validation_alias="SOAK_CONCURRENCY")
    soak_warmup_seconds: float = Field(default=60.0, ge=0, validation_alias="SOAK_WARMUP_SECONDS")
    # Where the report is also written as JSON; unset, it is only printed.
    soak_report: Path | None = Field(default=None, validation_alias="SOAK_REPORT")

    @model_validator(mode="after")
    def _warmup_within_run(self) -> DevSettings:
        if self.soak_warmup_seconds >= self.soak_seconds:
            raise ValueError("SOAK_WARMUP_SECONDS must be shorter than SOAK_SECONDS")
        return self
