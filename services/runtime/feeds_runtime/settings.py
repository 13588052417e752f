"""Typed settings read once per process from environment variables.

Each service subclasses `ServiceSettings` with its own prefix (`TIMELINE_`, `NEWS_`, `SCOUT_`).
`DATABASE_URL` and `REDIS_URL` (or the Sentinel set, `REDIS_SENTINELS`) are shared names, so one pod
spec or one `make run` sets them once.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Annotated, Any, ClassVar, Final, Literal, TypeVar
from urllib.parse import quote, urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

T = TypeVar("T", bound=BaseSettings)
# What a gRPC caller may act for: every tenant ("*"), or these tenant ids (feeds_runtime.callers).
Grant = Literal["*"] | list[str]

# FEEDS_ENV: what a process runs as. Production is what runs when nothing is configured; dev
# conveniences (offline sources, dev secrets, the dev sign-in) exist only where FEEDS_ENV=dev says so.
PRODUCTION: Final = "production"
DEV: Final = "dev"
# Outside dev a secret is at least this long: 32 characters of `openssl rand -hex 32` are 128 bits,
# what an HMAC key needs to be out of reach of guessing.
MIN_SECRET_LENGTH: Final = 32
RANDOM_SECRET: Final = "e.g. `openssl rand -hex 32`"


def is_dev(info: ValidationInfo) -> bool:
    """In a field validator: whether the settings being built run as dev (FEEDS_ENV is validated first)."""
    return info.data.get("feeds_env") == DEV


def deployment_secret(value: SecretStr, info: ValidationInfo, *, dev_value: str = "", alternative: str = "") -> SecretStr:
    """A secret only dev may leave unset (empty): there it becomes `dev_value`. Anywhere else a process
    refuses to start on an unset, short or shipped value, since a secret printed in this repository
    protects nothing. `alternative` names what may stand in for the secret when it is unset."""
    secret = value.get_secret_value()
    if is_dev(info):
        return value if secret else SecretStr(dev_value)
    if not secret.strip():
        raise ValueError(f"required outside FEEDS_ENV=dev{alternative}, {RANDOM_SECRET}")
    if secret == dev_value:
        raise ValueError(f"the shipped dev value is refused outside FEEDS_ENV=dev, {RANDOM_SECRET}")
    if len(secret) < MIN_SECRET_LENGTH:
        raise ValueError(f"at least {MIN_SECRET_LENGTH} characters outside FEEDS_ENV=dev, {RANDOM_SECRET}")
    return value


def check_redis_url(value: str) -> str:
    if not value.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("expected redis://host:port/db, rediss://… or unix://…")
    return value


def comma_separated(value: str) -> list[str]:
    """The items of a list given as one variable, `a, b,c` (empty: none)."""
    return [item.strip() for item in value.split(",") if item.strip()]


def parse_addresses(value: Any) -> Any:
    """`host:port,host:port` (a list as it is, for settings built in code) to [(host, port), …]."""
    if not isinstance(value, str):
        return value
    addresses = []
    for item in comma_separated(value):
        host, _, port = item.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{item!r} is not host:port; expected e.g. sentinel-0:26379,sentinel-1:26379,sentinel-2:26379")
        addresses.append((host.strip("[]"), int(port)))
    return addresses


class RuntimeSettings(BaseSettings):
    """What every process reads, the gateway's too: whether it runs as dev."""

    model_config = SettingsConfigDict(extra="ignore")

    feeds_env: Literal["production", "dev"] = Field(default=PRODUCTION, validation_alias="FEEDS_ENV")

    @property
    def is_dev(self) -> bool:
        return self.feeds_env == DEV


class GrpcTlsSettings(RuntimeSettings):
    """The process's side of mTLS between the gateway and the services (docs/architecture.md, "Service
    calls"): its certificate and key (a service's serve and identify it, the gateway's identify it to
    the services) and the CA that signs every certificate of the platform. The same names in every
    pod, each mounting its own Secret. Required outside FEEDS_ENV=dev unless GRPC_MESH_MTLS=true
    declares that a service mesh encrypts and authenticates the calls instead."""

    grpc_mesh_mtls: bool = Field(default=False, validation_alias="GRPC_MESH_MTLS")
    grpc_tls_cert_file: str | None = Field(default=None, validate_default=True, validation_alias="GRPC_TLS_CERT_FILE")
    grpc_tls_key_file: str | None = Field(default=None, validate_default=True, validation_alias="GRPC_TLS_KEY_FILE")
    grpc_tls_ca_file: str | None = Field(default=None, validate_default=True, validation_alias="GRPC_TLS_CA_FILE")

    @field_validator("grpc_tls_cert_file", "grpc_tls_key_file", "grpc_tls_ca_file")
    @classmethod
    def _tls_file(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value or is_dev(info) or info.data.get("grpc_mesh_mtls"):
            return value or None
        raise ValueError("required outside FEEDS_ENV=dev: the gRPC certificate, its key and the platform's CA "
                         "(PEM files), unless GRPC_MESH_MTLS=true declares that a service mesh provides mTLS")

    @property
    def grpc_tls(self) -> tuple[str, str, str] | None:
        """(certificate, key, CA) files, or None when the calls are plaintext (a mesh's, or in dev)."""
        if self.grpc_tls_cert_file and self.grpc_tls_key_file and self.grpc_tls_ca_file:
            return self.grpc_tls_cert_file, self.grpc_tls_key_file, self.grpc_tls_ca_file
        return None


_HOST_PORT = re.compile(r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[^:\[\]]+))(?::(?P<port>\d{1,5}))?")


def _hosts_in_query(value: str) -> str:
    """A libpq multi-host URL (`postgresql://user@h1:5432,h2:5432/db?…`) in SQLAlchemy's form of it
    (`postgresql://user@/db?host=h1,h2&port=5432,5432&…`), which its URL parser reads and its psycopg
    dialect hands to libpq as they are. Any other URL is returned unchanged."""
    parts = urlsplit(value)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    if "," not in hosts:
        return value
    names, ports = [], []
    for host in hosts.split(","):
        match = _HOST_PORT.fullmatch(host)
        if match is None:
            raise ValueError(f"{host!r} in the URL's host list is not host, host:port or [ipv6]:port")
        names.append(match["ipv6"] or match["name"])
        ports.append(match["port"] or "")
    query = "&".join([f"host={quote(','.join(names), safe=',')}", f"port={','.join(ports)}",
                      *filter(None, [parts.query])])
    return f"{parts.scheme}://{userinfo}@{parts.path}?{query}"


def normalize_database_url(value: str) -> str:
    """Accept postgres://, postgresql:// and postgresql+psycopg:// URLs, with one host or libpq's list
    of hosts (`h1:5432,h2:5432`, the one answering `target_session_attrs` taken); always psycopg 3."""
    # Imported here: the gateway installs the runtime without its database extra.
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    value = _hosts_in_query(value)
    try:
        url = make_url(value)
    except (ArgumentError, ValueError):  # ValueError: a port that is no number
        raise ValueError("not a database URL (expected postgresql://user@host:port/dbname)") from None
    if url.get_backend_name() not in ("postgresql", "postgres"):
        raise ValueError(f"unsupported database {url.get_backend_name()!r}, expected postgresql")
    if not url.database:
        raise ValueError("the URL names no database")
    return url.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def parse_url_list(value: object) -> object:
    """A list given as one variable: a JSON list, or URLs separated by commas (empty: none)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise ValueError("not a JSON list of URLs") from None
    return comma_separated(text)


class RedisSettings(RuntimeSettings):
    """Where Redis is, for every process that talks to it (feeds_runtime.redis_clients makes the
    clients): one server at `REDIS_URL`, or the master that a Sentinel set names (`REDIS_SENTINELS`
    and `REDIS_SENTINEL_MASTER`), found again by asking the Sentinels after a failover. With
    Sentinels, `REDIS_URL` may still carry what is not an address: the password and user of the
    data nodes, the database number and `rediss://` for TLS (`redis://:password@/0`)."""

    # Whether a process of this kind may run without any Redis under FEEDS_ENV=dev (the gateway may).
    redis_optional_in_dev: ClassVar[bool] = False

    redis_sentinels: Annotated[list[tuple[str, int]], NoDecode] = Field(default=[], validation_alias="REDIS_SENTINELS")
    redis_sentinel_master: str | None = Field(default=None, validate_default=True,
                                              validation_alias="REDIS_SENTINEL_MASTER")
    # The Sentinels' own password (their `requirepass`), when they have one.
    redis_sentinel_password: SecretStr | None = Field(default=None, validate_default=True,
                                                      validation_alias="REDIS_SENTINEL_PASSWORD")
    redis_url: str | None = Field(default=None, validate_default=True, validation_alias="REDIS_URL")
    # Prefix for the platform's Redis keys, so test runs sharing one Redis never see each other's jobs.
    redis_namespace: str = Field(default="feeds", validation_alias="REDIS_NAMESPACE")

    @field_validator("redis_sentinels", mode="before")
    @classmethod
    def _sentinels(cls, value: Any) -> Any:
        return parse_addresses(value)

    @field_validator("redis_sentinel_master")
    @classmethod
    def _sentinel_master(cls, value: str | None, info: ValidationInfo) -> str | None:
        value = (value or "").strip() or None
        if "redis_sentinels" not in info.data:
            return value  # REDIS_SENTINELS is refused already
        if info.data["redis_sentinels"] and not value:
            raise ValueError("required with REDIS_SENTINELS: the name the Sentinels monitor the master under")
        if value and not info.data["redis_sentinels"]:
            raise ValueError("only with REDIS_SENTINELS, the Sentinels that know this master")
        return value

    @field_validator("redis_sentinel_password")
    @classmethod
    def _sentinel_password(cls, value: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        if not info.data.get("redis_sentinels"):
            raise ValueError("only with REDIS_SENTINELS")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        if "redis_sentinels" not in info.data:
            return value  # REDIS_SENTINELS is refused already
        if info.data["redis_sentinels"]:
            if not value:
                return None
            if not value.startswith(("redis://", "rediss://")):
                raise ValueError("with REDIS_SENTINELS, expected redis://… or rediss://… without a host")
            if urlsplit(value).hostname:
                raise ValueError("with REDIS_SENTINELS the Sentinels name the master: give no host here, only "
                                 "what the data nodes need (redis://:password@/0, rediss:///0), or leave it unset")
            return value
        if value:
            return check_redis_url(value)
        if cls.redis_optional_in_dev and is_dev(info):
            return None
        raise ValueError("required: redis://host:port/db (rediss:// for TLS), or REDIS_SENTINELS and "
                         "REDIS_SENTINEL_MASTER for a Sentinel set" + (" (optional under FEEDS_ENV=dev)"
                                                                       if cls.redis_optional_in_dev else ""))

    @property
    def redis_sentinel_set(self) -> tuple[list[tuple[str, int]], str] | None:
        """(Sentinel addresses, master name) when Redis runs under Sentinel, else None."""
        if self.redis_sentinels and self.redis_sentinel_master:
            return self.redis_sentinels, self.redis_sentinel_master
        return None

    @property
    def redis_configured(self) -> bool:
        """Whether any Redis is named (always, but for a dev gateway without one)."""
        return bool(self.redis_url or self.redis_sentinels)


class InfraSettings(RedisSettings):
    """Where PostgreSQL and Redis are; shared by every process kind."""

    database_url: str = Field(validation_alias="DATABASE_URL")
    # Streaming replicas of the same database, for the reads that tolerate lag (docs/architecture.md,
    # "Read replicas"); none, every read goes to DATABASE_URL.
    database_replica_urls: Annotated[list[str], NoDecode] = Field(default=[], validation_alias="DATABASE_REPLICA_URLS")
    # A replica further behind its primary than this serves no reads; a caller's write position is
    # kept twice as long, so it outlives any replica that may still serve the caller.
    database_replica_max_lag_seconds: float = Field(default=30.0, gt=0,
                                                    validation_alias="DATABASE_REPLICA_MAX_LAG_SECONDS")

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        return normalize_database_url(value)

    @field_validator("database_replica_urls", mode="before")
    @classmethod
    def _split_replica_urls(cls, value: object) -> object:
        return parse_url_list(value)

    @field_validator("database_replica_urls")
    @classmethod
    def _replica_urls(cls, value: list[str]) -> list[str]:
        return [normalize_database_url(url) for url in value]


class ServiceSettings(InfraSettings):
    """Settings common to every gRPC service; subclasses set `env_prefix`."""

    grpc_host: str = "127.0.0.1"
    grpc_port: int = Field(default=50051, ge=0, le=65535)
    # A plaintext port that answers the gRPC health check alone (Kubernetes' gRPC probe speaks no
    # TLS); 0, none.
    grpc_health_port: int = Field(default=50061, ge=0, le=65535)
    # Who may call the service (the identity in its client certificate) and for which tenants: "*"
    # for all, or a list of tenant ids; a call naming a tenant must be granted it (feeds_runtime.callers).
    grpc_callers: dict[str, Grant] = Field(default={"gateway": "*"})
    grpc_workers: int = Field(default=16, ge=1)
    # Seconds in-flight calls get to finish after SIGTERM.
    drain_grace_seconds: float = Field(default=10.0, gt=0)
    log_level: str = "INFO"
    db_pool_size: int = Field(default=10, ge=1)
    worker_processes: int = Field(default=1, ge=1)
    worker_threads: int = Field(default=4, ge=1)
    # Threads of each worker process that the service's bulk queues (a big post's fan-out ranges)
    # never take, so another job is not queued behind a burst of long ones.
    worker_reserved_threads: int = Field(default=1, ge=0)
    # Longest pause of an idle worker between polls of its queues (Dramatiq's worker timeout), so a
    # job chain (one job queueing the next) does not wait up to a second per hop.
    worker_idle_poll_ms: int = Field(default=100, ge=10, le=10_000)
    # Seconds a stopping worker waits for running jobs; keep it below the pod's termination grace
    # period so a job is finished rather than killed (an unfinished one is redelivered anyway).
    worker_shutdown_seconds: float = Field(default=60.0, gt=0)
    # A running job's claim on its outbox row lasts this long unless its worker extends it (every third
    # of it); once a claim lapses (the worker died or hangs), the relay sends the job again.
    outbox_lease_seconds: float = Field(default=5.0, ge=1)
    outbox_max_attempts: int = Field(default=20, ge=1)
    # Integration events older than this are dropped from the service's event log (a consumer behind
    # it is told its position expired); the relay trims every `events_trim_interval_seconds`.
    events_retention_seconds: float = Field(default=7 * 24 * 3600, ge=60)
    events_trim_interval_seconds: float = Field(default=60.0, gt=0)
    # Where the process serves its Prometheus metrics; port 0 turns metrics off for the process.
    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=9464, ge=0, le=65535)
    # Folder where worker and relay processes write the heartbeats their liveness probe checks; unset, none.
    heartbeat_dir: str | None = None


def load_settings(cls: type[T]) -> T:
    """Build the settings object or stop the process with one clear line per bad variable."""
    try:
        return cls()
    except ValidationError as exc:
        prefix = cls.model_config.get("env_prefix", "")
        problems = []
        for error in exc.errors():
            location = str(error["loc"][0]) if error["loc"] else "?"
            info = cls.model_fields.get(location)
            if info is None:  # pydantic reports an aliased field by its variable name already
                name = location.upper()
            elif isinstance(info.validation_alias, str):
                name = info.validation_alias
            else:
                name = f"{prefix}{location}".upper()
            message = error["msg"].removeprefix("Value error, ")
            problems.append(f"{name}: {message}")
        print(f"configuration error: {'; '.join(problems)}", file=sys.stderr)
        raise SystemExit(2) from None
