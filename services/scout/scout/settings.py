"""Settings of the scout service (prefix SCOUT_)."""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from cryptography.fernet import Fernet

from pydantic import AwareDatetime, Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import DEV, ServiceSettings


# Meta's limit of keyword-search queries per Threads user in a rolling 24 hours.
THREADS_DAILY_QUERY_LIMIT = 2200


class ScoutSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="SCOUT_", extra="ignore")

    grpc_port: int = 50053
    grpc_health_port: int = 50063
    # A scan job's Redis lock lives this long unless its worker renews it (a live worker does, every
    # third of it), so a dead worker's job is taken over within seconds.
    scan_lock_seconds: float = Field(default=6.0, ge=1)
    # A job still queued after this long was never picked up: its run is failed, not left queued.
    schedule_timeout_seconds: float = Field(default=3600.0, gt=0)
    # How often the server looks for jobs that cannot be scheduled.
    watchdog_interval_seconds: float = Field(default=10.0, gt=0)
    # A member's scans queued or running at once; a scan past it is refused (429 at the gateway).
    max_running_scans: int = Field(default=3, ge=1)
    # Scans judge recency and future posting times against the wall clock, or against this fixed
    # instant when set, so that a dated labeled set (make eval-scout) gives reproducible figures.
    scan_now: AwareDatetime | None = None
    # How eligible posts are ordered: the gate's rule evidence alone ("rules"), with BM25 over the
    # run's candidates ("rules+bm25", which has not improved on the rules on the labeled sets), or
    # with the words the run's eligible posts share ("rules+pool"); `make eval-scout` measures each.
    ranking: Literal["rules", "rules+bm25", "rules+pool"] = "rules+pool"

    # Search sources in the order the pipeline uses them: the first is primary, a second one is
    # stage 3's. "threads" and "serp" are the live providers; "dev", the offline sample corpus
    # shipped with the service, only exists under FEEDS_ENV=dev (and is its default there).
    sources: str = Field(default="", validate_default=True)
    source_timeout_seconds: float = Field(default=8.0, gt=0)
    # Throttled or transient source failures are retried this many times in all, with jittered
    # exponential backoff from the base up to the cap (never sooner than the provider's Retry-After).
    source_attempts: int = Field(default=3, ge=1, le=10)
    source_backoff_base_seconds: float = Field(default=0.5, gt=0)
    source_backoff_max_seconds: float = Field(default=8.0, gt=0)
    threads_base_url: str = "https://graph.threads.net/v1.0"
    threads_access_token: SecretStr | None = Field(default=None, validate_default=True)
    threads_search_type: Literal["TOP", "RECENT"] = "TOP"
    # Share of Meta's 2,200 keyword queries per user per rolling 24 h that this deployment may use
    # (the limit is shared with every other app the token's user authorizes).
    threads_daily_share: float = Field(default=0.9, gt=0, le=1)
    # The token self-check (debug_token) runs at server start and then this often.
    threads_token_check_seconds: float = Field(default=3600.0, gt=0)
    # A long-lived token is refreshed once it has fewer days left than this (it lasts 60 days).
    threads_refresh_days: int = Field(default=30, ge=1, le=59)
    # Fernet key (32 url-safe base64 bytes) sealing refreshed tokens in the scout schema; unset, no
    # refresh is kept and the token must be replaced in the Secret before it expires.
    credentials_key: SecretStr | None = None
    serp_base_url: str = "https://serpapi.com"
    serp_api_key: SecretStr | None = Field(default=None, validate_default=True)
    # Searches per rolling hour across all workers; keep it within the SerpApi plan's hourly throughput.
    serp_hourly_searches: int = Field(default=100, ge=1)

    @field_validator("sources")
    @classmethod
    def _sources(cls, value: str, info: ValidationInfo) -> str:
        dev = info.data.get("feeds_env") == DEV
        names = [n.strip().lower() for n in value.split(",") if n.strip()] or (["dev"] if dev else [])
        if not names:
            raise ValueError("name the live search sources, e.g. 'threads,serp' (FEEDS_ENV is production)")
        unknown = [n for n in names if n not in ("dev", "threads", "serp")]
        if unknown:
            raise ValueError(f"unknown source {unknown[0]!r}; expected dev, threads or serp")
        if not 1 <= len(names) <= 2 or len(set(names)) != len(names):
            raise ValueError("name one or two different sources, e.g. 'threads,serp'")
        if "dev" in names and not dev:
            raise ValueError("'dev' is the offline sample corpus, refused outside FEEDS_ENV=dev; "
                             "name live sources, e.g. 'threads,serp'")
        return ",".join(names)

    @field_validator("threads_access_token", "serp_api_key")
    @classmethod
    def _credential(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        source = "threads" if info.field_name == "threads_access_token" else "serp"
        if source in info.data.get("sources", "").split(",") and not (value and value.get_secret_value().strip()):
            raise ValueError(f"required when SCOUT_SOURCES names {source}")
        return value

    @property
    def source_names(self) -> list[str]:
        return self.sources.split(",")

    def credential(self, source: str) -> str:
        """The credential of a live source SCOUT_SOURCES names (the validators made sure it is set)."""
        secret = {"threads": self.threads_access_token, "serp": self.serp_api_key}[source]
        if secret is None:
            raise ValueError(f"SCOUT_SOURCES does not name {source}: it has no credential")
        return secret.get_secret_value()

    @field_validator("credentials_key")
    @classmethod
    def _credentials_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and value.get_secret_value():
            try:
                Fernet(value.get_secret_value())
            except ValueError:
                raise ValueError("expected a Fernet key: 32 url-safe base64-encoded bytes") from None
        return value or None

    @property
    def threads_refresh_before(self) -> timedelta:
        return timedelta(days=self.threads_refresh_days)

    @property
    def threads_daily_queries(self) -> int:
        return max(int(THREADS_DAILY_QUERY_LIMIT * self.threads_daily_share), 1)
