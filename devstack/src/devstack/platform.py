"""Which processes make up the platform and how to start them in order:
migrations first, then each service's server, worker and outbox relay, then the gateway."""

from __future__ import annotations

from dataclasses import dataclass, field
from devstack.infra import free_port
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for

SERVICES = ("timeline", "news", "scout")


@dataclass
class Ports:
    timeline: int = 50051
    news: int = 50052
    scout: int = 50053
    gateway: int = 8080

    @classmethod
    def free(cls) -> Ports:
        """Ports nothing listens on now, so several platforms (tests, benchmarks) run side by side."""
        return cls(timeline=free_port(), news=free_port(), scout=free_port(), gateway=free_port())

    def grpc(self, service: str) -> int:
        return getattr(self, service)


@dataclass
class Platform:
    group: ProcessGroup
    ports: Ports = field(default_factory=Ports)
    # Extra variables per process kind, e.g. {"gateway": {"GATEWAY_DEV_MODE": "true"}}.
    extra_env: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def gateway_url(self) -> str:
        return f"http://127.0.0.1:{self.ports.gateway}"

    def grpc_address(self, service: str) -> str:
        return f"127.0.0.1:{self.ports.grpc(service)}"

    def service_env(self, service: str) -> dict[str, str]:
        return {f"{service.upper()}_GRPC_PORT": str(self.ports.grpc(service)), **self.extra_env.get(service, {})}

    def migrate(self) -> None:
        for service in SERVICES:
            self.group.run(f"{service}-migrate", python_module(service, "migrate"), self.service_env(service))

    def start_service(self, service: str, kinds: tuple[str, ...] = ("server", "worker", "relay")) -> None:
        for kind in kinds:
            self.group.start(f"{service}-{kind}", python_module(service, kind), self.service_env(service))

    def start_gateway(self) -> None:
        env = {
            "GATEWAY_PORT": str(self.ports.gateway),
            **{f"GATEWAY_{s.upper()}_ADDRESS": self.grpc_address(s) for s in SERVICES},
            **self.extra_env.get("gateway", {}),
        }
        self.group.start("gateway", python_module("gateway", "server"), env)

    def start(self, timeout: float = 90.0) -> None:
        self.migrate()
        for service in SERVICES:
            self.start_service(service)
        self.start_gateway()
        for service in SERVICES:
            wait_for(lambda s=service: grpc_serving(self.grpc_address(s)), f"{service} SERVING", self.group, timeout)
        wait_for(lambda: http_ok(f"{self.gateway_url}/readyz"), "gateway /readyz", self.group, timeout)

    def describe(self) -> list[tuple[str, str]]:
        rows = [(f"{s} gRPC", self.grpc_address(s)) for s in SERVICES]
        rows += [("gateway REST", self.gateway_url), ("OpenAPI", f"{self.gateway_url}/openapi.json"),
                 ("scout workbench", f"{self.gateway_url}/scout"), ("news reader", f"{self.gateway_url}/feed")]
        return rows
