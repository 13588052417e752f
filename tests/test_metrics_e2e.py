"""Every process of the running platform serves its Prometheus metrics: a post published through the
gateway and a scout scan move the series an operator graphs and alerts on (fan-out lag, runs,
queues, outbox, RPCs, REST routes, Dramatiq messages, database pools)."""

from __future__ import annotations

import json
import time
import uuid

import dramatiq
import httpx
import jwt
import pytest
from dramatiq.brokers.redis import RedisBroker
from sqlalchemy import create_engine, text
from prometheus_client.parser import text_string_to_metric_families

from devstack.host_client import Host
from devstack.platform import PROCESSES, SERVICES, Platform, Ports
from feeds_runtime.jobs import OUTBOX_ID_OPTION
from feeds_runtime.settings import normalize_database_url
from scout.jobs import SCAN_QUEUE, SCAN_RUN

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
    # Started is more than SERVING: every process, each worker's forked ones included, answers on
    # its metrics port once it has booted (until then the machine is busy booting the rest).
    for process in PROCESSES:
        scrape(platform.metrics_url(process))
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


def eventually(check, what: str, timeout: float = 120.0):
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


def queue_idle(broker: RedisBroker, queue: str) -> bool:
    """Redis holds no message of the queue, waiting or fetched: every job sent to it has been
    handled to the end, Dramatiq's own counting of it included."""
    return broker.client.hlen(f"{broker.namespace}:{queue}.msgs") == 0


def redeliver_acknowledged_job(database_url: str, broker: RedisBroker, job_id: str, owner: str) -> None:
    """Once the scan job's outbox row is acknowledged, send its message again as a relay would, and
    wait until the worker has handled every message of the scan queue, that copy included."""
    engine = create_engine(normalize_database_url(database_url))
    try:
        def acknowledged_row():
            with engine.connect() as connection:
                return connection.execute(text("SELECT id FROM scout.outbox WHERE args ->> 0 = :j AND acked_at IS NOT NULL"),
                                          {"j": job_id}).scalar()
        row_id = eventually(acknowledged_row, "the scan job acknowledged")
    finally:
        engine.dispose()
    broker.enqueue(dramatiq.Message(queue_name=SCAN_QUEUE, actor_name=SCAN_RUN, args=(job_id, owner), kwargs={},
                                    options={OUTBOX_ID_OPTION: row_id}))
    eventually(lambda: queue_idle(broker, SCAN_QUEUE), "the scan queue's messages handled")


def test_every_process_serves_the_series_operators_watch(platform: Platform, database_url: str, redis_url: str,
                                                         redis_namespace: str):
    host = Host(platform.gateway_url, HOST_KEY)
    owner = str(uuid.uuid4())
    token = jwt.encode({"sub": owner, "exp": int(time.time()) + 3600}, JWT_SECRET, algorithm="HS256")
    member = httpx.Client(base_url=platform.gateway_url, headers={"authorization": f"Bearer {token}"}, timeout=30)
    broker = RedisBroker(url=redis_url, namespace=redis_namespace)

    # Given a follower, a post published through the gateway reaches their home timeline
    author, follower = uuid.uuid4(), uuid.uuid4()
    followed = host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=follower)
    assert followed.status_code == 200, followed.text
    published = host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body={"body": "measured"},
                             headers={"Idempotency-Key": uuid.uuid4().hex})
    assert published.status_code == 201
    post_id = published.json()["data"]["id"]
    eventually(lambda: [i["post_id"] for i in host.request("GET", "/api/v1/timeline/home", viewer=follower)
                        .json()["data"]] == [post_id], "fan-out to the follower")
    # (the entry commits before its job's message is done with: wait for that, metrics included)
    eventually(lambda: queue_idle(broker, "timeline.fanout"), "the fan-out message handled")

    # And a scout scan runs to its end, and the news feed answers
    scan = member.post("/api/v1/scout/scan", json={"brief": {"intent": "演唱會", "terms": ["演唱會"], "target_count": 5}})
    assert scan.status_code == 200, scan.text
    run_id, job_id = scan.json()["data"]["run"]["id"], scan.json()["data"]["job"]["id"]
    eventually(lambda: member.get(f"/api/v1/scout/runs/{run_id}").json()["data"]["status"]
               in ("succeeded", "failed"), "the scan to end")
    assert member.get(f"/api/v1/scout/runs/{run_id}").status_code == 200
    # and a late duplicate of its job's message (a redelivery) is skipped once the job is acknowledged
    redeliver_acknowledged_job(database_url, broker, job_id, owner)
    assert httpx.get(f"{platform.gateway_url}/api/v1/feed/global").status_code == 200

    # Then the timeline worker has timed the fan-out and the scout worker counted the run
    timeline_worker = scrape_until(platform.metrics_url("timeline-worker"), "timeline_fanout_lag_seconds_count")
    assert total(timeline_worker, "timeline_fanout_chunks_total") >= 1
    assert total(timeline_worker, "dramatiq_messages_total", queue_name="timeline.fanout") >= 1
    assert total(timeline_worker, "dramatiq_message_duration_milliseconds_count", queue_name="timeline.fanout") >= 1
    scout_worker = scrape_until(platform.metrics_url("scout-worker"), "scout_runs_total")
    # (the scan ran once; its duplicate, counted among the messages, is in progress nowhere)
    assert total(scout_worker, "scout_runs_total", status="succeeded") == 1
    assert total(scout_worker, "scout_source_requests_total", source="dev", outcome="ok") >= 1
    assert total(scout_worker, "scout_scan_duration_seconds_count", stage="stage 1") == 1
    assert total(scout_worker, "dramatiq_messages_total", queue_name="scout.scan") >= 2
    assert total(scout_worker, "dramatiq_messages_inprogress", queue_name="scout.scan") == 0

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
