"""The gateway's own /openapi.json taken at its word, against the real platform (every service, worker
and relay, PostgreSQL, Redis) on free ports.

Schemathesis: generated valid and invalid requests to every operation, signed as a host or carrying
a member token as the document's security schemes say (contract_hooks), under every default check:
no 5xx, only documented statuses, content types, headers and body schemas, valid data accepted,
invalid data refused, authentication enforced, unsupported methods refused. The examples per
operation are bounded so the run stays within a few minutes on a small machine.

openapi-python-client: the served document generates a client with no error or warning, and that
client's functions call the platform and read its answers into the generated models."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from devstack.host_client import Host
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup
from devstack.tokens import member_token

HOST_KEY = {"tenant_id": str(uuid.uuid4()), "key_id": "contract-host", "secret": uuid.uuid4().hex}
JWT_SECRET = uuid.uuid4().hex
# Generated cases per operation and phase: enough to reach every parameter's edges, few enough that
# the 55 operations run in a few minutes on two cores.
MAX_EXAMPLES = 10


@pytest.fixture(scope="module")
def platform(tmp_path_factory, platform_env: dict[str, str]) -> Iterator[Platform]:
    group = ProcessGroup(log_dir=tmp_path_factory.mktemp("contract-logs"), env=platform_env)
    # The quotas of writes are sized to what a person does; the fuzzer, one member sending hundreds of
    # writes, is to reach the handlers rather than the quotas (which tests of their own cover).
    generous = {f"GATEWAY_MEMBER_{kind}_RATE_LIMIT": "100000/minute"
                for kind in ("POST", "SUBSCRIPTION", "SCAN", "SUGGESTION", "WRITE")}
    platform = Platform(group, ports=Ports.free(), extra_env={
        "gateway": {"TIMELINE_HOST_KEYS": json.dumps([HOST_KEY]), "GATEWAY_JWT_SECRET": JWT_SECRET, **generous},
        "scout": {"SCOUT_MAX_RUNNING_SCANS": "100000"}})
    try:
        platform.start()
        yield platform
    finally:
        group.stop()


# One seed, so a run is reproducible and its verdict is the code's, not the draw's; change it to
# explore other cases.
SEED = 20261201


# A bound for a loaded machine; the run itself takes a few minutes.
@pytest.mark.timeout(1200)
def test_every_operation_keeps_the_documented_contract(platform: Platform, tmp_path: Path) -> None:
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.gateway.contract_hooks",
           "CONTRACT_HOST_KEY": json.dumps(HOST_KEY), "CONTRACT_JWT_SECRET": JWT_SECRET,
           "CONTRACT_MEMBER": str(uuid.uuid4()), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    # One worker: hypothesis reads its filters' source with ast.parse, which CPython 3.11 cannot run
    # in two threads at once ("AST constructor recursion depth mismatch", python/cpython#106905).
    run = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run", f"{platform.gateway_url}/openapi.json",
         "--max-examples", str(MAX_EXAMPLES), "--workers", "1", "--request-timeout", "30",
         "--generation-database", "none", "--generation-with-security-parameters", "false",
         "--suppress-health-check", "all", "--no-color", "--seed", str(SEED)],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=1100)
    # The report names each failure with the request that reproduces it.
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    generated = re.search(r"(\d+) generated", run.stdout)
    assert generated and int(generated.group(1)) > 0, run.stdout[-5000:]


@pytest.fixture
def generated_client(platform: Platform, tmp_path: Path) -> Iterator[str]:
    """The package openapi-python-client makes of the served document; its output must be its one
    progress line, no warning and no error. Yields the package's name, importable meanwhile."""
    document = tmp_path / "openapi.json"
    document.write_bytes(httpx.get(f"{platform.gateway_url}/openapi.json").content)
    config = tmp_path / "generator.yaml"
    config.write_text("post_hooks: []\n")  # the code as generated, without a formatter run over it
    package = tmp_path / "feeds_client"
    run = subprocess.run(
        [str(Path(sys.executable).with_name("openapi-python-client")), "generate", "--path", str(document),
         "--meta", "none", "--output-path", str(package), "--config", str(config)],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (run.stdout + run.stderr).strip() == f"Generating {package}", run.stdout + run.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield package.name
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == package.name]:
            del sys.modules[name]


def test_a_generated_client_calls_every_context(platform: Platform, generated_client: str) -> None:
    def load(module: str):
        return importlib.import_module(f"{generated_client}.{module}")

    clients, models = load("client"), load("models")
    member = str(uuid.uuid4())
    as_member = clients.AuthenticatedClient(base_url=platform.gateway_url, token=member_token(JWT_SECRET, member))

    alive = load("api.health.health_healthz").sync(client=clients.Client(base_url=platform.gateway_url))
    assert isinstance(alive, models.Alive)

    # News: subscribe to an author, then find the subscription in the member's list.
    author = uuid.uuid4()
    subscribed = load("api.news.news_subscribe").sync(
        client=as_member, body=models.SubscribeToAuthor(target_kind="Author", target_user_id=author))
    assert isinstance(subscribed, models.NewsSubscribed), subscribed
    listed = load("api.news.news_list_subscriptions").sync(client=as_member)
    assert isinstance(listed, models.NewsSubscriptionList), listed
    assert [item.target for item in listed.items] == [author]

    # Scout: the member's runs, none yet, in scout's envelope.
    runs = load("api.scout.scout_list_runs").sync(client=as_member)
    assert isinstance(runs, models.ScoutRunListResponse), runs
    assert runs.data.list_ == [] and runs.data.pagination.total == 0

    # Timeline, as a signed host: the key id is the client's credential, each request is signed (v3) as sent.
    host = Host("http://unused", HOST_KEY)

    def sign(request: httpx.Request) -> None:
        request.headers.update(host.headers(request.method, request.url.path, query=request.url.query.decode(),
                                            viewer=request.headers.get("X-Activity-Viewer", ""),
                                            body=request.read(),
                                            idempotency_key=request.headers.get("Idempotency-Key", "")))

    as_host = clients.AuthenticatedClient(base_url=platform.gateway_url, token=HOST_KEY["key_id"], prefix="",
                                          auth_header_name="X-Activity-Key-Id",
                                          httpx_args={"event_hooks": {"request": [sign]}})
    # The generator types the viewer header as a UUID but puts it in the headers as given: pass its text.
    viewer, followee = uuid.uuid4(), uuid.uuid4()
    followed = load("api.timeline.timeline_follow").sync(client=as_host, followee_id=followee,
                                                         x_activity_viewer=str(viewer))
    assert isinstance(followed, models.TimelineFollowResponse), followed
    assert followed.data.following and followed.data.followee_id == followee
    published = load("api.timeline.timeline_publish_post").sync(
        client=as_host, x_activity_viewer=str(followee), body=models.TimelinePostBody(body="hello from a generated client"))
    assert isinstance(published, models.TimelinePostResponse), published
    assert published.data.author_id == followee
