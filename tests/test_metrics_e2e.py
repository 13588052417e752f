"""Every process of the running platform serves its Prometheus metrics: a post published through the
gateway and a scout scan move the series an operator graphs and alerts on (fan-out lag, runs,
queues, outbox, RPCs, REST routes, Dramatiq messages, database pools)."""

from __future__ import annotations

import json
import time
import uuid

import httpx
import jwt
import pytest
from prometheus_client.parser import text_string_to_metric_families

from devstack.host_client import Host
from devstack.platform import SERVICES, Platform, Ports

HOST_KEY = {"tenant_id": str(uuid.uuid4()), "key_id": "metrics-host", "secret": uuid.uuid4().hex}
JWT_SECRET = uuid.uuid4().hex
POOL_SERIES = {"feeds_db_pool_connections_in_use", "feeds_db_pool_waiting", "feeds_db_pool_size"}


@pytest.fixture
def platform(processes):
    platform = Platform(processes, ports=Ports.free(metrics=True), extra_env={
        "gateway": {"TIMELINE_HOST_KEYS": json.dumps([HOST_KEY]), "GATEWAY_JWT_SECRET": JWT_SECRET,
                    # The first scan loads the text segmenter's dictionary, slow on a loaded machine.
                    "GATEWAY_RPC_DEADLINE_SECONDS": "60"}})
    platform.start()
    return platform


def scrape(url: str, headers: dict | None = None) -> dict[str, list]:
    """Samples by metric family name: {family: [(sample name, labels, value), …]}. A process that
    is still starting opens its metrics port a moment after its main port: wait for the answer."""
    def answer() -> httpx.Response | None:
        try:
            return httpx.get(url, headers=headers, timeout=10)
        except httpx.TransportError:
            return None
    response = eventually(answer, f"an answer at {url}")
    assert response.status_code == 200, (url, response.status_code)
    return {family.name: [(s.name, s.labels, s.value) for s in family.samples]
            for family in text_string_to_metric_families(response.text)}


def total(samples: dict[str, list], sample_name: str, **labels: str) -> float:
    family = sample_name.removesuffix("_total").removesuffix("_count")
    return sum(value for name, sample_labels, value in samples.get(family, [])
               if name == sample_name and labels.items() <= sample_labels.items())


def eventually(check, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while not (result := check()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)
    return result


def scrape_until(url: str, sample_name: str) -> dict[str, list]:
    """Scrape `url` until `sample_name` has counted something (workers record after their commit)."""
    def moved():
        samples = scrape(url)
        return samples if total(samples, sample_name) >= 1 else None
    return eventually(moved, f"{sample_name} at {url}")


def test_every_process_serves_the_series_operators_watch(platform: Platform):
    host = Host(platform.gateway_url, HOST_KEY)
    token = jwt.encode({"sub": str(uuid.uuid4()), "exp": int(time.time()) + 3600}, JWT_SECRET, algorithm="HS256")
    member = httpx.Client(base_url=platform.gateway_url, headers={"authorization": f"Bearer {token}"}, timeout=30)

    # Given a follower, a post published through the gateway reaches their home timeline
    author, follower = uuid.uuid4(), uuid.uuid4()
    assert host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=follower).status_code == 200
    published = host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body={"body": "measured"},
                             headers={"Idempotency-Key": uuid.uuid4().hex})
    assert published.status_code == 201
    post_id = published.json()["data"]["id"]
    eventually(lambda: [i["post_id"] for i in host.request("GET", "/api/v1/timeline/home", viewer=follower)
                        .json()["data"]] == [post_id], "fan-out to the follower")

    # And a scout scan runs to its end, and the news feed answers
    scan = member.post("/api/v1/scout/scan", json={"brief": {"intent": "演唱會", "terms": ["演唱會"], "target_count": 5}})
    assert scan.status_code == 200, scan.text
    run_id = scan.json()["data"]["run"]["id"]
    eventually(lambda: member.get(f"/api/v1/scout/runs/{run_id}").json()["data"]["status"]
               in ("succeeded", "failed"), "the scan to end")
    assert member.get(f"/api/v1/scout/runs/{run_id}").status_code == 200
    assert httpx.get(f"{platform.gateway_url}/api/v1/feed/global").status_code == 200

    # Then the timeline worker has timed the fan-out and the scout worker counted the run
    timeline_worker = scrape_until(platform.metrics_url("timeline-worker"), "timeline_fanout_lag_seconds_count")
    assert total(timeline_worker, "timeline_fanout_chunks_total") >= 1
    assert total(timeline_worker, "dramatiq_messages_total", queue_name="timeline.fanout") >= 1
    assert total(timeline_worker, "dramatiq_message_duration_milliseconds_count", queue_name="timeline.fanout") >= 1
    scout_worker = scrape_until(platform.metrics_url("scout-worker"), "scout_runs_total")
    assert total(scout_worker, "scout_runs_total", status="succeeded") >= 1
    assert total(scout_worker, "scout_source_requests_total", source="dev", outcome="ok") >= 1
    assert total(scout_worker, "scout_scan_duration_seconds_count", stage="stage 1") == 1

    # And every process answers with its own series
    for service in SERVICES:
        server = scrape(platform.metrics_url(f"{service}-server"))
        assert total(server, "grpc_server_handled_total", grpc_code="OK") >= 1, service
        assert total(server, "grpc_server_handling_seconds_count") >= 1, service
        handled = {(labels["grpc_service"], labels["grpc_method"]) for _, labels, _ in server["grpc_server_handled"]}
        assert all(name.startswith((f"feeds.{service}.v1.", "grpc.health.v1.")) and method for name, method in handled)
        assert any(name.startswith(f"feeds.{service}.v1.") for name, _ in handled), handled
        worker = scrape(platform.metrics_url(f"{service}-worker"))
        relay = scrape(platform.metrics_url(f"{service}-relay"))
        for process, samples in (("server", server), ("worker", worker), ("relay", relay)):
            assert POOL_SERIES <= samples.keys(), f"{service}-{process}"
        assert total(server, "feeds_db_pool_size") >= 1
        queues = {labels["queue"] for _, labels, _ in relay["feeds_queue_depth"]}
        assert {labels["queue"] for _, labels, _ in relay["feeds_queue_oldest_age_seconds"]} == queues
        assert any(queue.startswith(f"{service}.") for queue in queues), (service, queues)
        for family in ("feeds_outbox_pending", "feeds_outbox_oldest_pending_age_seconds"):
            assert [labels for _, labels, _ in relay[family]] == [{"service": service}], family
    assert "timeline.fanout" in {labels["queue"] for _, labels, _ in scrape(
        platform.metrics_url("timeline-relay"))["feeds_queue_depth"]}

    # And the gateway labels REST requests by route template, on its metrics port and at /metrics
    gateway = scrape(platform.metrics_url("gateway"))
    routes = {labels["route"] for _, labels, _ in gateway["http_requests"]}
    assert {"/api/v1/timeline/posts", "/api/v1/scout/runs/{run_id}", "/api/v1/feed/global"} <= routes
    assert not any(run_id in route or post_id in route for route in routes)
    assert total(gateway, "http_requests_total", route="/api/v1/timeline/posts", method="POST", status="201") == 1
    assert total(gateway, "http_request_duration_seconds_count", route="/api/v1/scout/scan") == 1
    assert "http_requests" in scrape(f"{platform.gateway_url}/metrics")
    # Not through a proxy: the Ingress forwards the public site, which shows no metrics
    assert httpx.get(f"{platform.gateway_url}/metrics", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 404
