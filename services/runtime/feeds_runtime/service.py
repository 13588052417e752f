"""What a service declares about itself, and the `server | worker | migrate | relay` command line
every service shares (`python -m timeline server`, …)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Generic, TypeVar

import redis
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import Middleware
from prometheus_client.registry import Collector
from sqlalchemy import Engine, Table

from feeds_runtime import migrations, redis_clients
from feeds_runtime.db import Database, make_engine
from feeds_runtime.errors import DomainError
from feeds_runtime.events import EventLog, stream_key
from feeds_runtime.heartbeat import Heartbeat, WorkerHeartbeat
from feeds_runtime.interceptors import default_invalid_input
from feeds_runtime.jobs import configure_broker, redis_broker
from feeds_runtime.logs import configure_logging
from feeds_runtime.observability import metrics, tracing
from feeds_runtime.observability.backlog import OutboxBacklog, QueueBacklog
from feeds_runtime.outbox import OutboxLeases, Relay
from feeds_runtime.replicas import ReplicaSet, WritePositions
from feeds_runtime.server import Registration, ServiceServer
from feeds_runtime.settings import GrpcTlsSettings, ServiceSettings, load_settings

PROCESS_KINDS = ("server", "worker", "migrate", "relay")
# How long Dramatiq's main process waits for its worker processes to boot before it starts the
# processes their middleware asks for (the metrics exposition). Those are only known once a worker
# process has imported the actors: one that gives up sooner (Dramatiq's 30 s) on a slow start never
# serves the worker's metrics. A process that fails to boot ends the wait at once.
WORKER_BOOT_WAIT_MS = 300_000

# Seconds a read or a write waits on Redis for a write position before it goes on without it.
REPLICA_REDIS_TIMEOUT = 0.5

# The service's own settings class, so `SERVICE.settings` is typed as that class in its code.
S = TypeVar("S", bound=ServiceSettings)


@dataclass
class ServiceDefinition(Generic[S]):
    name: str
    settings_class: type[S]
    migrations_dir: Path
    outbox: Table
    # Builds the servicers once the database is known.
    registrations: Callable[[ServiceDefinition[S]], Sequence[Registration]]
    # Module that calls `configure_worker()` and then imports the actors.
    worker_module: str
    queues: Sequence[str]
    # Queues of long jobs, which take at most `worker_threads - worker_reserved_threads` threads of a
    # worker process (at least one).
    bulk_queues: Sequence[str] = ()
    # The context's validation error for input the runtime refuses before any servicer runs.
    invalid_input: Callable[[str], DomainError] = default_invalid_input
    # PostgreSQL settings each of the service's connections starts with.
    session_settings: Mapping[str, str] = field(default_factory=dict)
    # The service's integration event log (`feeds_runtime.events`), if it publishes events.
    events: Table | None = None

    @property
    def schema(self) -> str:
        if self.outbox.schema is None:
            raise TypeError(f"{self.name}: the outbox table must name the service's schema")
        return self.outbox.schema

    @cached_property
    def settings(self) -> S:
        return load_settings(self.settings_class)

    @cached_property
    def database(self) -> Database:
        settings = self.settings
        engine = make_engine(settings.database_url, pool_size=settings.db_pool_size, application_name=self.name,
                             session_settings=self.session_settings)
        return Database(engine, self._replicas(engine))

    def _replicas(self, primary: Engine) -> ReplicaSet | None:
        settings = self.settings
        if not settings.database_replica_urls:
            return None
        # Short timeouts: a Redis that does not answer sends reads to the primary, never stalls them.
        client = redis_clients.connect(settings, socket_timeout=REPLICA_REDIS_TIMEOUT,
                                       socket_connect_timeout=REPLICA_REDIS_TIMEOUT)
        positions = WritePositions(client, f"{settings.redis_namespace}:{self.name}:written:",
                                   ttl_seconds=2 * settings.database_replica_max_lag_seconds)
        engines = [make_engine(url, pool_size=settings.db_pool_size, application_name=f"{self.name}-replica-read",
                               session_settings=self.session_settings) for url in settings.database_replica_urls]
        return ReplicaSet(primary, engines, positions, self.name,
                          max_lag_seconds=settings.database_replica_max_lag_seconds)

    @cached_property
    def redis(self) -> redis.Redis:
        """The process's Redis client for what the service keeps there itself (locks, quotas); Dramatiq's
        broker has its own, from the same settings."""
        return redis_clients.connect(self.settings)

    def migrate(self) -> None:
        migrations.upgrade(self.database.engine, self.migrations_dir, self.schema)

    def is_migrated(self) -> bool:
        return migrations.is_current(self.database.engine, self.migrations_dir, self.schema)

    def build_server(self, tls: GrpcTlsSettings) -> ServiceServer:
        return ServiceServer(self.settings, tls, self.registrations(self), ready=self.is_migrated,
                             invalid_input=self.invalid_input)

    def observe(self, kind: str) -> None:
        """Logs, and traces when an exporter is configured (SQL statements included), for one process."""
        configure_logging(self.name, self.settings.log_level)
        if tracing.configure(self.name, kind):
            tracing.instrument_database()

    def configure_worker(self) -> RedisBroker:
        """Set the process's Dramatiq broker (with leased outbox delivery) before actors are declared."""
        self.observe("worker")
        middleware: list[Middleware] = []
        if self.settings.metrics_port:
            # Dramatiq's own message counters and durations, served by its exposition process on the
            # port `main` passed on (summing every worker process's samples). Ahead of the outbox
            # leases: a duplicate message they skip was counted in before Dramatiq counts it out, so
            # the in-progress gauge never goes below zero.
            from dramatiq.middleware.prometheus import Prometheus

            middleware.append(Prometheus())
        else:
            metrics.disable()
        middleware.append(
            OutboxLeases(self.database.engine, self.outbox, lease_seconds=self.settings.outbox_lease_seconds))
        if self.settings.heartbeat_dir:
            middleware.append(WorkerHeartbeat(self.settings.heartbeat_dir))
        bulk_threads = max(1, self.settings.worker_threads - self.settings.worker_reserved_threads)
        return configure_broker(self.settings, middleware=middleware,
                                queue_limits=dict.fromkeys(self.bulk_queues, bulk_threads))

    def relay(self) -> Relay:
        settings = self.settings
        heartbeat = Heartbeat(settings.heartbeat_dir, "relay") if settings.heartbeat_dir else None
        broker = configure_broker(settings)
        events = None
        if self.events is not None:
            events = EventLog(self.database.engine, self.events, broker.client,
                              stream_key(settings.redis_namespace, self.schema),
                              retention_seconds=settings.events_retention_seconds,
                              trim_interval_seconds=settings.events_trim_interval_seconds)
        return Relay(
            self.database.engine,
            self.outbox,
            broker,
            max_attempts=settings.outbox_max_attempts,
            on_cycle=heartbeat.beat if heartbeat else None,
            events=events,
        )

    def _serve_metrics(self, collectors: Sequence[Collector] = ()) -> None:
        if self.settings.metrics_port:
            metrics.serve(self.settings.metrics_port, self.settings.metrics_host, collectors)

    def main(self, argv: Sequence[str] | None = None) -> None:
        parser = argparse.ArgumentParser(prog=self.name, description=f"The {self.name} service.")
        parser.add_argument("kind", choices=PROCESS_KINDS, help="which process to run")
        kind = parser.parse_args(argv).kind
        settings = self.settings  # a bad variable stops here, before anything starts
        self.observe(kind)  # a Dramatiq worker process does it again for itself (`configure_worker`)
        if not settings.metrics_port:
            metrics.disable()
        if kind == "server":
            tls = load_settings(GrpcTlsSettings)  # no certificate and no mesh stops a server here too
            self._serve_metrics()
            self.build_server(tls).serve_forever()
        elif kind == "migrate":
            self.migrate()
        elif kind == "relay":
            relay = self.relay()
            # The backlogs of the service's queues and outbox are read on each scrape of the relay.
            self._serve_metrics([QueueBacklog(redis_broker(), self.queues),
                                 OutboxBacklog(self.database.engine, self.outbox, self.name)])
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, lambda *_: relay.stop())
            relay.run()
        elif kind == "worker":
            args = [sys.executable, "-m", "dramatiq", self.worker_module,
                    "--processes", str(settings.worker_processes), "--threads", str(settings.worker_threads),
                    "--worker-shutdown-timeout", str(int(settings.worker_shutdown_seconds * 1000)),
                    "--worker-fork-timeout", str(WORKER_BOOT_WAIT_MS),
                    "--queues", *self.queues]
            env = {**os.environ, "dramatiq_worker_timeout": str(settings.worker_idle_poll_ms)}
            if settings.metrics_port:
                env.update(metrics.multiprocess_env(self.name, settings.metrics_port, settings.metrics_host))
            sys.stdout.flush()
            # Dramatiq reads its idle poll bound from this variable when it is imported.
            os.execve(sys.executable, args, env)
