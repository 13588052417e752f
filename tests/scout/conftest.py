"""The scout context as it runs: migrated schema, gRPC server with its watchdog, two Dramatiq worker
processes, the outbox relay and the gateway, all real, on free ports. A local HTTP server speaks the
Threads keyword-search API (the primary source) and SerpApi's (stage 3) and stands in for what the
search engines answer, per query."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import datetime

import httpx
import pytest
from sqlalchemy import create_engine, text

from devstack import scout_seed
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for
from devstack.scout_seed import SeedPost, SeedRun
from devstack.search_api import SearchApi as ThreadsApi
from devstack.tokens import member_headers
from feeds_runtime.settings import normalize_database_url

JWT_SECRET = "scout-test-secret"
# The provider credentials the scout processes get, and the only ones the search stand-in accepts.
THREADS_TOKEN, SERP_KEY = "test-threads-token", "test-serp-key"


def threads_post(shortcode: str, text_: str, *, user: str = "someone", host: str = "www.threads.net",
                 query: str = "", timestamp: str | None = "2026-07-01T10:00:00+0000") -> dict:
    post = {"id": shortcode, "text": text_, "username": user, "shortcode": shortcode,
            "permalink": f"https://{host}/@{user}/post/{shortcode}{query}"}
    if timestamp:
        post["timestamp"] = timestamp
    return post


@pytest.fixture(scope="session")
def threads_api() -> Iterator[ThreadsApi]:
    api = ThreadsApi(threads_token=THREADS_TOKEN, serp_key=SERP_KEY)
    yield api
    api.close()


def scout_env(threads_api: ThreadsApi) -> dict[str, str]:
    return {
        "SCOUT_SOURCES": "threads,serp",
        "SCOUT_THREADS_ACCESS_TOKEN": THREADS_TOKEN,
        "SCOUT_THREADS_BASE_URL": f"{threads_api.url}/v1.0",
        "SCOUT_SERP_API_KEY": SERP_KEY,
        "SCOUT_SERP_BASE_URL": threads_api.url,
        # The suite's scans share one account budget; a test of the budget sets its own.
        "SCOUT_SERP_HOURLY_SEARCHES": "100000",
        "SCOUT_WATCHDOG_INTERVAL_SECONDS": "0.5",
        "SCOUT_WORKER_THREADS": "2",
    }


# Package scope: the stack stops when this folder's tests end (see tests/browser/conftest.py).
@pytest.fixture(scope="package")
def scout_stack(tmp_path_factory, platform_env: dict[str, str], threads_api: ThreadsApi) -> Iterator[Platform]:
    group = ProcessGroup(log_dir=tmp_path_factory.mktemp("scout-logs"), env=platform_env)
    ports = Ports.free()
    platform = Platform(group, ports=ports, extra_env={"scout": scout_env(threads_api),
                                                       "gateway": {"GATEWAY_JWT_SECRET": JWT_SECRET}})
    try:
        group.run("scout-migrate", python_module("scout", "migrate"), platform.service_env("scout"))
        platform.start_service("scout", kinds=("server", "relay"))
        for n in (1, 2):  # two worker processes, so two workers can race for one job
            group.start(f"scout-worker-{n}", python_module("scout", "worker"), platform.service_env("scout"))
        platform.start_gateway()
        wait_for(lambda: grpc_serving(platform.grpc_address("scout")), "scout SERVING", group)
        wait_for(lambda: http_ok(f"{platform.gateway_url}/healthz"), "gateway up", group)
        yield platform
    finally:
        group.stop()


@pytest.fixture(scope="session")
def engine(database_url: str):
    engine = create_engine(normalize_database_url(database_url))
    yield engine
    engine.dispose()


def scan_jobs_settled(engine, job_id: str | None = None) -> bool:
    """Every delivery of the scan job (of every scan job, without `job_id`) has run and been
    acknowledged: nothing of it is still searching, and nothing will run it again."""
    with engine.connect() as c:
        return c.execute(text("SELECT count(*) FROM scout.outbox WHERE acked_at IS NULL "
                              "AND (CAST(:j AS text) IS NULL OR args ->> 0 = :j)"), {"j": job_id}).scalar_one() == 0


@pytest.fixture(autouse=True)
def earlier_scans_settled(engine, scout_stack) -> None:
    """Each test starts once the scans of the tests before it are done: the search stand-in is
    shared, and a late search of an earlier scan would count among this test's requests."""
    wait_for(lambda: scan_jobs_settled(engine), "earlier scan jobs acknowledged", scout_stack.group, 120)


class Member:
    """One signed-in member talking to the gateway."""

    def __init__(self, base_url: str, member_id: uuid.UUID | None = None) -> None:
        self.id = member_id or uuid.uuid4()
        self.http = httpx.Client(base_url=base_url, headers=member_headers(JWT_SECRET, self.id), timeout=30)

    def call(self, method: str, path: str, **kwargs) -> httpx.Response:
        return self.http.request(method, path, **kwargs)

    def ok(self, method: str, path: str, **kwargs) -> dict:
        response = self.call(method, path, **kwargs)
        body = response.json()
        assert response.status_code == 200 and body["code"] == 102000, (response.status_code, body)
        assert body["error"] is None
        return body["data"]

    def scan(self, **brief) -> dict:
        return self.ok("POST", "/api/v1/scout/scan", json={"brief": brief})

    def wait_terminal(self, run_id: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            run = self.ok("GET", f"/api/v1/scout/runs/{run_id}")
            if run["status"] in ("succeeded", "failed", "cancelled"):
                return run
            assert time.monotonic() < deadline, f"run still {run['status']}"
            time.sleep(0.1)


@pytest.fixture
def member(scout_stack: Platform) -> Member:
    return Member(scout_stack.gateway_url)


@pytest.fixture
def other_member(scout_stack: Platform) -> Member:
    return Member(scout_stack.gateway_url)


class Seed:
    """Writes a finished run and its results straight into the schema, as a published scan would
    have left them, for the tests of reading, ordering and actions (devstack.scout_seed)."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def run(self, owner: uuid.UUID, *, theme_key: str = "theme", status: str = "succeeded", target: int = 20,
            created_at: datetime | str | None = None, posts: list[dict] = ()) -> str:
        run = SeedRun(owner, theme_key=theme_key, status=status, target_count=target, eligible_count=len(posts),
                      created_at=created_at)
        with self.engine.begin() as c:
            scout_seed.write(c, [run])
            for post in posts:
                self.post(c, owner, run.id, theme_key, **post)
        return str(run.id)

    def post(self, c, owner, run_id, theme_key, *, score: float, posted_at: str | None = None,
             status: str = "new", post_id: uuid.UUID | None = None, canonical_id: str | None = None,
             created_at: str | None = None) -> None:
        chosen = {name: value for name, value in (("id", post_id), ("canonical_id", canonical_id)) if value is not None}
        scout_seed.write(c, posts=[SeedPost(owner, run_id, theme_key, score, posted_at=posted_at,
                                            outreach_status=status, created_at=created_at, **chosen)])

    def count(self, sql: str, **params) -> int:
        with self.engine.connect() as c:
            return c.execute(text(sql), params).scalar_one()


@pytest.fixture(scope="package")
def seed(engine, scout_stack) -> Seed:
    return Seed(engine)
