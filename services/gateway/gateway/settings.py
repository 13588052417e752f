"""Gateway settings, read once per process (prefix GATEWAY_; TIMELINE_HOST_KEYS as the contract names it)."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class HostKey(BaseModel):
    tenant_id: str
    key_id: str
    secret: str


class GatewaySettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GATEWAY_", extra="ignore", populate_by_name=True)

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    timeline_address: str = "127.0.0.1:50051"
    news_address: str = "127.0.0.1:50052"
    scout_address: str = "127.0.0.1:50053"
    # Deadline of one gRPC call from the gateway, seconds.
    rpc_deadline_seconds: float = Field(default=10.0, gt=0)
    # Member tokens: HS256 with this secret (dev/test) or RS256 through a JWKS (production).
    jwt_secret: str | None = None
    jwks_url: str | None = None
    jwt_audience: str | None = None
    jwt_issuer: str | None = None
    # Dev mode adds the sign-in form that issues short-lived dev tokens; never on in production.
    dev_mode: bool = False
    # Where the pages send a member to sign in (again): the identity service's page, which returns
    # to `<page>#token=<jwt>`; it gets `?next=<page path>`. Dev mode's form when unset in dev mode.
    sign_in_url: str | None = None
    log_level: str = "INFO"
    # Where the gateway also serves its Prometheus metrics (besides /metrics); port 0 turns metrics off.
    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=9464, ge=0, le=65535)
    host_keys: list[HostKey] = Field(default_factory=list, validation_alias="TIMELINE_HOST_KEYS")
    # Host signatures older or newer than this many seconds are refused.
    signature_tolerance_seconds: int = 300

    @field_validator("sign_in_url")
    @classmethod
    def _sign_in(cls, value: str | None) -> str | None:
        if value and not value.startswith("https://") and not value.startswith("/"):
            raise ValueError("must be an https:// URL or a path of this origin")
        return value

    @field_validator("jwks_url")
    @classmethod
    def _jwks(cls, value: str | None) -> str | None:
        if value and not value.startswith("https://") and not value.startswith("http://127.0.0.1"):
            raise ValueError("must be an https:// URL")
        return value
