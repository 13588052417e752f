"""Gateway settings, read once per process (prefix GATEWAY_; TIMELINE_HOST_KEYS as the contract names it)."""

from __future__ import annotations

from typing import Any, ClassVar

import limits
from pydantic import BaseModel, Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import SettingsConfigDict

from feeds_runtime.settings import (
    MIN_SECRET_LENGTH,
    RANDOM_SECRET,
    GrpcTlsSettings,
    RedisSettings,
    deployment_secret,
    is_dev,
)


class HostKey(BaseModel):
    tenant_id: str
    key_id: str
    secret: str


class GatewaySettings(GrpcTlsSettings, RedisSettings):
    """The gateway's settings; its gRPC certificate (GRPC_TLS_*, GrpcTlsSettings) is its identity to
    the services. Its Redis (RedisSettings, the services' REDIS_URL or Sentinel set and
    REDIS_NAMESPACE) is where every replica keeps the rate limits' counts, the host writes' seen
    signatures and the Idempotency-Key responses. Required, except under FEEDS_ENV=dev, where a
    gateway without Redis counts in its memory and checks neither of the others."""

    redis_optional_in_dev: ClassVar[bool] = True

    model_config = SettingsConfigDict(env_prefix="GATEWAY_", extra="ignore", populate_by_name=True)

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    timeline_address: str = "127.0.0.1:50051"
    news_address: str = "127.0.0.1:50052"
    scout_address: str = "127.0.0.1:50053"
    # Deadline of one gRPC call from the gateway, seconds.
    rpc_deadline_seconds: float = Field(default=10.0, gt=0)
    # Member tokens: RS256 through a JWKS (production), or HS256 with a shared secret. Outside
    # FEEDS_ENV=dev one of them is required (the JWKS URL is read first, so the secret's check knows).
    jwks_url: str | None = None
    jwt_secret: SecretStr = Field(default=SecretStr(""), validate_default=True)
    jwt_audience: str | None = None
    jwt_issuer: str | None = None
    # A token whose `exp` lies further ahead than this (of now, or of its `iat`) is refused, so a
    # leaked token, or one minted with a far `exp`, cannot outlive a day.
    jwt_max_lifetime_seconds: int = Field(default=24 * 3600, ge=60)
    # Where the pages send a member to sign in (again): the identity service's page, which returns
    # to `<page>#token=<jwt>`; it gets `?next=<page path>`. Under FEEDS_ENV=dev, the dev sign-in form
    # when unset.
    sign_in_url: str | None = None
    log_level: str = "INFO"
    # Where the gateway also serves its Prometheus metrics (besides /metrics); port 0 turns metrics off.
    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=9464, ge=0, le=65535)
    # Unset is refused outside FEEDS_ENV=dev; a deployment that serves no host says `[]`.
    host_keys: list[HostKey] = Field(default=None, validate_default=True, validation_alias="TIMELINE_HOST_KEYS")
    # Host signatures older or newer than this many seconds are refused; a write's signature is
    # remembered (in Redis) until its timestamp leaves this window, and refused if sent again.
    signature_tolerance_seconds: int = Field(default=300, ge=1, le=3600)
    # How long the response to a write with an Idempotency-Key is kept to answer its retries.
    idempotency_expiry_seconds: int = Field(default=24 * 3600, ge=60)
    # A request body larger than this is a 413 before anything reads, parses or authenticates it; a
    # header block larger than this a 431. (The services' own gRPC limit is 4 MiB.)
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    max_header_bytes: int = Field(default=16 * 1024, ge=1024)
    # Requests per member and per host key, in the limits library's notation ("3000/minute"), shared
    # by every replica through Redis. A member's reads have a generous quota that stops floods, never a
    # busy reader; each kind of write one sized to what a person does (gateway.request_limits.rate).
    rate_limits_enabled: bool = True
    member_read_rate_limit: str = "3000/minute"
    member_post_rate_limit: str = "60/minute"
    member_subscription_rate_limit: str = "120/minute"
    member_scan_rate_limit: str = "10/minute"
    member_suggestion_rate_limit: str = "60/minute"
    member_write_rate_limit: str = "300/minute"
    host_rate_limit: str = "60000/minute"

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

    @field_validator("jwt_secret")
    @classmethod
    def _jwt_secret(cls, value: SecretStr, info: ValidationInfo) -> SecretStr:
        if info.data.get("jwks_url") and not value.get_secret_value():
            return value
        return deployment_secret(value, info, alternative=" unless GATEWAY_JWKS_URL is set")

    @field_validator("host_keys", mode="before")
    @classmethod
    def _host_keys_set(cls, value: Any, info: ValidationInfo) -> Any:
        if value is not None:
            return value
        if is_dev(info):
            return []
        raise ValueError("required outside FEEDS_ENV=dev: the hosts' keys as JSON, or [] when no host calls "
                         "this gateway")

    @field_validator("host_keys")
    @classmethod
    def _host_keys(cls, value: list[HostKey], info: ValidationInfo) -> list[HostKey]:
        if len({key.key_id for key in value}) != len(value):
            raise ValueError("each key_id may appear once")
        if not is_dev(info) and any(len(key.secret) < MIN_SECRET_LENGTH for key in value):
            raise ValueError(f"every host key's secret has at least {MIN_SECRET_LENGTH} characters outside "
                             f"FEEDS_ENV=dev, {RANDOM_SECRET}")
        return value

    @field_validator("member_read_rate_limit", "member_post_rate_limit", "member_subscription_rate_limit",
                     "member_scan_rate_limit", "member_suggestion_rate_limit", "member_write_rate_limit",
                     "host_rate_limit")
    @classmethod
    def _rate_limit(cls, value: str) -> str:
        try:
            limits.parse(value)
        except ValueError:
            raise ValueError("expected requests per period, e.g. 3000/minute or 50/second") from None
        return value
