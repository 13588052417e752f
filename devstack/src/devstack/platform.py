"""Which processes make up the platform and how to start them in order:
migrations first, then each service's server, worker and outbox relay, then the gateway."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from devstack.infra import free_port
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for
from devstack.tls import DEV_CA, TOOLS, callers_env

SERVICES = ("timeline", "news", "scout")
KINDS = ("server", "worker", "relay")
# Every long-running process by name, in start order; each serves its metrics on a port of its own.
PROCESSES = (*(f"{service}-{kind}" for service in SERVICES for kind in KINDS), "gateway")
METRICS_BASE_PORT = 9100


@dataclass
class Ports:
    timeline: int = 50051
    news: int = 50052
    scout: int = 50053
    gateway: int = 8080
    # Metrics port per process name (`timeline-worker`, `gateway`); a process not named here has none.
    metrics: dict[str, int] = field(default_factory=dict)
    # Each service's plaintext health port.
    health: dict[str, int] = field(default_factory=lambda: {"timeline": 50061, "news": 50062, "scout": 50063})

    @staticmethod
    def metrics_ports(ports: Iterable[int] | None = None) -> dict[str, int]:
        """A metrics port for every process: `ports` in order, or from METRICS_BASE_PORT up."""
        return dict(zip(PROCESSES, ports if ports is not None else range(METRICS_BASE_PORT, 65536)))

    @classmethod
    def free(cls, *, metrics: bool = False) -> Ports:
        """Ports nothing listens on now, so several platforms (tests, benchmarks) run side by side;
        with `metrics`, a metrics port for every process too."""
        return cls(timeline=free_port(), news=free_port(), scout=free_port(), gateway=free_port(),
                   metrics=cls.metrics_ports(free_port() for _ in PROCESSES) if metrics else {},
                   health={service: free_port() for service in SERVICES})

    def grpc(self, service: str) -> int:
        return getattr(self, service)


@dataclass
class Platform:
    group: ProcessGroup
    ports: Ports = field(default_factory=Ports)
    # Extra variables per process kind, e.g. {"gateway": {"GATEWAY_JWT_SECRET": "…"}}.
    extra_env: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def gateway_url(self) -> str:
        return f"http://127.0.0.1:{self.ports.gateway}"

    def grpc_address(self, service: str) -> str:
        return f"127.0.0.1:{self.ports.grpc(service)}"

    def service_env(self, service: str) -> dict[str, str]:
        """The service's variables for any of its processes: its ports (metrics off unless `process_env`
        names a port), its certificate of the dev CA, and the gateway and dev tools as its callers."""
        prefix = service.upper()
        return {f"{prefix}_GRPC_PORT": str(self.ports.grpc(service)), f"{prefix}_METRICS_PORT": "0",
                f"{prefix}_GRPC_HEALTH_PORT": str(self.ports.health[service]), **DEV_CA.env(service),
                **callers_env((service,), TOOLS), **self.extra_env.get(service, {})}

    def process_env(self, service: str, kind: str) -> dict[str, str]:
        return {**self.service_env(service), **self._metrics_env(service, f"{service}-{kind}")}

    def _metrics_env(self, prefix: str, process: str) -> dict[str, str]:
        return {f"{prefix.upper()}_METRICS_PORT": str(self.ports.metrics.get(process, 0))}

    def metrics_url(self, process: str) -> str | None:
        port = self.ports.metrics.get(process)
        return f"http://127.0.0.1:{port}/metrics" if port else None

    def migrate(self) -> None:
        for service in SERVICES:
            self.group.run(f"{service}-migrate", python_module(service, "migrate"), self.service_env(service))

    def start_service(self, service: str, kinds: tuple[str, ...] = KINDS) -> None:
        for kind in kinds:
            self.group.start(f"{service}-{kind}", python_module(service, kind), self.process_env(service, kind))

    def start_gateway(self, name: str = "gateway") -> None:
        env = {
            "GATEWAY_PORT": str(self.ports.gateway),
            **{f"GATEWAY_{s.upper()}_ADDRESS": self.grpc_address(s) for s in SERVICES},
            **DEV_CA.env("gateway"),
            **self._metrics_env("gateway", "gateway"),
            **self.extra_env.get("gateway", {}),
        }
        self.group.start(name, python_module("gateway", "server"), env)

    def start(self, timeout: float = 90.0) -> None:
        self.migrate()
        for service in SERVICES:
            self.start_service(service)
        self.start_gateway()
        for service in SERVICES:
            wait_for(lambda s=service: grpc_serving(self.grpc_address(s)), f"{service} SERVING", self.group, timeout)
        wait_for(lambda: http_ok(f"{self.gateway_url}/readyz"), "gateway /readyz", self.group, timeout)

    def describe(self) -> list[tuple[str, str, str]]:
        """(process or page, where it answers, its metrics URL or "")."""
        listening = {f"{s}-server": f"grpc+mTLS {self.grpc_address(s)}, health {self.ports.health[s]}"
                     for s in SERVICES} | {"gateway": self.gateway_url}
        rows = [(name, listening.get(name, ""), self.metrics_url(name) or "") for name in PROCESSES]
        rows += [("OpenAPI", f"{self.gateway_url}/openapi.json", ""), ("scout workbench", f"{self.gateway_url}/scout", ""),
                 ("news reader", f"{self.gateway_url}/feed", "")]
        return rows
