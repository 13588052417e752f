"""The whole platform holds together: every process started as `make run` starts it, every health
check SERVING, and one request travelling gateway → gRPC → PostgreSQL → outbox → Redis → Dramatiq
worker → PostgreSQL → back out through the gateway."""

from __future__ import annotations

import json
import time
import uuid

import httpx
import pytest
from sqlalchemy import create_engine, text

from devstack.host_client import Host
from devstack.platform import SERVICES, Platform, Ports
from devstack.processes import grpc_serving
from feeds_runtime.settings import normalize_database_url

HOST_KEY = {"tenant_id": str(uuid.uuid4()), "key_id": "e2e-host", "secret": uuid.uuid4().hex}


@pytest.fixture
def platform(processes):
    platform = Platform(
        processes,
        ports=Ports.free(),
        extra_env={"gateway": {"TIMELINE_HOST_KEYS": json.dumps([HOST_KEY]), "GATEWAY_JWT_SECRET": uuid.uuid4().hex}},
    )
    platform.start()
    return platform


def test_request_crosses_every_part_of_the_platform(platform, database_url):
    # Every service SERVING and the gateway ready
    assert all(grpc_serving(platform.grpc_address(service)) for service in SERVICES)
    client = httpx.Client(base_url=platform.gateway_url, timeout=15)
    host = Host(platform.gateway_url, HOST_KEY)
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "services": {s: "SERVING" for s in SERVICES}}

    # A follower follows an author, and the author publishes through the signed host API
    author, follower = uuid.uuid4(), uuid.uuid4()
    assert host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=follower).status_code == 200
    published = host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body={"body": "across the platform"},
                             headers={"Idempotency-Key": uuid.uuid4().hex})
    assert published.status_code == 201
    post_id = published.json()["data"]["id"]

    # The fan-out job travels through the outbox, Redis and a Dramatiq worker into the follower's timeline
    deadline = time.monotonic() + 30
    while True:
        home = host.request("GET", "/api/v1/timeline/home", viewer=follower)
        assert home.status_code == 200
        if [item["post_id"] for item in home.json()["data"]] == [post_id]:
            break
        assert time.monotonic() < deadline, "fan-out never reached the follower"
        time.sleep(0.1)

    # PostgreSQL holds the materialized entry, and every job is acknowledged (the entry is visible
    # before its job's acknowledgement commits, so that is waited for, not assumed)
    engine = create_engine(normalize_database_url(database_url))
    deadline = time.monotonic() + 30
    while _unacknowledged(engine):
        assert time.monotonic() < deadline, "jobs never acknowledged"
        time.sleep(0.1)
    with engine.connect() as connection:
        entries = connection.execute(text(
            "SELECT count(*) FROM timeline.timeline_entries WHERE tenant_id = :t AND viewer_id = :v AND post_id = :p"),
            {"t": HOST_KEY["tenant_id"], "v": str(follower), "p": post_id}).scalar_one()
    engine.dispose()
    assert entries == 1

    # The other contexts answer through the gateway in their own envelopes
    global_feed = client.get("/api/v1/feed/global")
    assert global_feed.status_code == 200 and isinstance(global_feed.json()["page"]["hasMore"], bool)
    scout = client.get("/api/v1/scout/runs")
    assert scout.status_code == 401 and scout.json()["data"] is None


def _unacknowledged(engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("SELECT count(*) FROM timeline.outbox WHERE acked_at IS NULL")).scalar_one()
