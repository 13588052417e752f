"""Settings of the scout service (prefix SCOUT_)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import ServiceSettings


class ScoutSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="SCOUT_", extra="ignore")

    grpc_port: int = 50053
    # A scan job's Redis lock lives this long unless its worker renews it (at every progress step).
    scan_lock_seconds: float = Field(default=120.0, gt=0)
    # A job still queued after this long was never picked up: its run is failed, not left queued.
    schedule_timeout_seconds: float = Field(default=3600.0, gt=0)
    # How often the server looks for jobs that cannot be scheduled.
    watchdog_interval_seconds: float = Field(default=10.0, gt=0)
