"""gRPC server bootstrap shared by every service.

The service's port speaks mTLS (feeds_runtime.tls) and serves only callers its settings allow
(feeds_runtime.callers); in plaintext only where a service mesh provides mTLS (GRPC_MESH_MTLS), or in
dev without certificates. Health is also answered on a plaintext port of its own that serves nothing
else, for Kubernetes' gRPC probe, which speaks no TLS.

Health follows the process's real state: NOT_SERVING until `ready()` says the database is reachable
and migrated, SERVING after, NOT_SERVING again once SIGTERM starts the drain. On SIGTERM the server
stops accepting calls and gives in-flight ones `drain_grace_seconds` to finish.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterable
from concurrent import futures
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from feeds_runtime.callers import Callers
from feeds_runtime.errors import DomainError
from feeds_runtime.interceptors import ServerInterceptor, default_invalid_input
from feeds_runtime.settings import GrpcTlsSettings, ServiceSettings
from feeds_runtime.tls import TlsFiles, server_credentials

log = logging.getLogger("feeds.server")

# Health name that is SERVING from start to drain whatever the database does: a liveness probe on it
# restarts a server whose threads are stuck, never one that merely waits for PostgreSQL.
LIVENESS = "liveness"


@dataclass(frozen=True)
class Registration:
    """One servicer: its full proto name and how to add it to a server."""

    name: str
    add: Callable[[grpc.Server], None]


class ServiceServer:
    def __init__(
        self,
        settings: ServiceSettings,
        tls: GrpcTlsSettings,
        registrations: Iterable[Registration],
        ready: Callable[[], bool],
        readiness_poll_seconds: float = 0.5,
        invalid_input: Callable[[str], DomainError] = default_invalid_input,
    ) -> None:
        self._settings = settings
        self._registrations = list(registrations)
        self._ready = ready
        self._poll = readiness_poll_seconds
        self._stopping = threading.Event()
        self._on_drain: list[Callable[[], None]] = []
        self._health = health.HealthServicer(experimental_non_blocking=True)
        files = TlsFiles(*tls.grpc_tls) if tls.grpc_tls else None
        callers = Callers(settings.grpc_callers, from_mesh=files is None)
        self._server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=settings.grpc_workers),
            interceptors=[ServerInterceptor(callers, invalid_input)],
            options=[("grpc.so_reuseport", 0)],
        )
        for registration in self._registrations:
            registration.add(self._server)
        health_pb2_grpc.add_HealthServicer_to_server(self._health, self._server)
        names = [r.name for r in self._registrations]
        reflection.enable_server_reflection([*names, health.SERVICE_NAME, reflection.SERVICE_NAME], self._server)
        self._set_status(health_pb2.HealthCheckResponse.NOT_SERVING)
        address = f"{settings.grpc_host}:{settings.grpc_port}"
        if files is not None:
            self.port = self._server.add_secure_port(address, server_credentials(files))
        else:
            log.warning("gRPC in plaintext: callers are named by the mesh", extra={"mesh": tls.grpc_mesh_mtls})
            self.port = self._server.add_insecure_port(address)
        # The plaintext health port: the same health statuses, no other service.
        self._health_server: grpc.Server | None = None
        self.health_port = 0
        if settings.grpc_health_port:
            self._health_server = grpc.server(futures.ThreadPoolExecutor(max_workers=2),
                                              options=[("grpc.so_reuseport", 0)])
            health_pb2_grpc.add_HealthServicer_to_server(self._health, self._health_server)
            self.health_port = self._health_server.add_insecure_port(f"{settings.grpc_host}:{settings.grpc_health_port}")

    def _set_status(self, status: int) -> None:
        for name in ["", *(r.name for r in self._registrations)]:
            self._health.set(name, status)

    def _watch_readiness(self) -> None:
        while not self._stopping.is_set():
            try:
                ready = self._ready()
            except Exception:  # a database that is down is a state, not a crash
                log.warning("readiness check failed", exc_info=True)
                ready = False
            if self._stopping.is_set():
                return
            self._set_status(
                health_pb2.HealthCheckResponse.SERVING if ready else health_pb2.HealthCheckResponse.NOT_SERVING
            )
            self._stopping.wait(self._poll if not ready else self._poll * 10)

    def start(self) -> None:
        self._server.start()
        if self._health_server is not None:
            self._health_server.start()
        self._health.set(LIVENESS, health_pb2.HealthCheckResponse.SERVING)
        threading.Thread(target=self._watch_readiness, name="readiness", daemon=True).start()
        log.info("listening", extra={"address": f"{self._settings.grpc_host}:{self.port}",
                                     "health_port": self.health_port})

    def on_drain(self, callback: Callable[[], None]) -> None:
        """Run `callback` when the drain starts: background work of the server process stops first."""
        self._on_drain.append(callback)

    def drain(self) -> None:
        """Report NOT_SERVING, refuse new calls, let in-flight calls finish within the grace."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        for callback in self._on_drain:
            callback()
        self._health.enter_graceful_shutdown()
        log.info("draining", extra={"grace_seconds": self._settings.drain_grace_seconds})
        self._server.stop(self._settings.drain_grace_seconds).wait()
        if self._health_server is not None:
            self._health_server.stop(0).wait()
        log.info("stopped")

    def serve_forever(self) -> None:
        self.start()
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        stop.wait()
        self.drain()
