"""One trace follows a published post from the REST call to the fan-out actor's SQL: gateway, gRPC
server, the outbox row, the relay's send, the Dramatiq message and the job, as the
in-memory exporter of the traced stack (`traced_stack.py`) records them; and the log lines of the
call carry the trace id."""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from devstack.host_client import Host
from devstack.infra import free_port
from devstack.processes import ProcessGroup, grpc_serving, http_ok, wait_for
from devstack.tls import DEV_CA

STACK = Path(__file__).with_name("traced_stack.py")
HOST_KEY = {"tenant_id": str(uuid.uuid4()), "key_id": "trace-host", "secret": uuid.uuid4().hex}
PUBLISH = "/feeds.timeline.v1.TimelineService/PublishPost"
FANOUT = "timeline.fanout_chunk"


class Stack:
    def __init__(self, processes: ProcessGroup) -> None:
        self.gateway_url = f"http://127.0.0.1:{free_port()}"
        self.spans_url = f"http://127.0.0.1:{free_port()}/"
        grpc_port = free_port()
        self.process = processes.start("traced-stack", [sys.executable, str(STACK)], {
            "GATEWAY_PORT": self.gateway_url.rsplit(":", 1)[1], "TIMELINE_GRPC_PORT": str(grpc_port),
            "GATEWAY_TIMELINE_ADDRESS": f"127.0.0.1:{grpc_port}", "SPANS_PORT": self.spans_url.rsplit(":", 1)[1][:-1],
            "TIMELINE_HOST_KEYS": json.dumps([HOST_KEY]), "TIMELINE_WORKER_THREADS": "2",
            # One process serves timeline and runs the gateway: the certificate names it the gateway.
            **DEV_CA.env("gateway"),
        })
        wait_for(lambda: http_ok(f"{self.gateway_url}/healthz") and http_ok(self.spans_url)
                 and grpc_serving(f"127.0.0.1:{grpc_port}"), "the traced stack", processes, timeout=120)

    def spans(self) -> list[dict]:
        return httpx.get(self.spans_url, timeout=10).json()

    def log_lines(self) -> list[dict]:
        assert self.process.log_path is not None
        lines = self.process.log_path.read_text(errors="replace").splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]


@pytest.fixture
def stack(processes: ProcessGroup) -> Stack:
    return Stack(processes)


def ancestry(span: dict, by_id: dict[str, dict]) -> list[dict]:
    """The span and its parents up to the trace's root."""
    chain = [span]
    while chain[-1]["parent_id"] is not None:
        chain.append(by_id[chain[-1]["parent_id"]])
    return chain


def only(spans: list[dict], what: str, **expected) -> dict:
    found = [s for s in spans if all(s.get(k) == v or s["attributes"].get(k) == v for k, v in expected.items())]
    assert len(found) == 1, f"{what}: {len(found)} spans match {expected}"
    return found[0]


def test_one_trace_runs_from_the_rest_call_through_the_outbox_and_the_message_to_the_actors_sql(stack: Stack):
    host = Host(stack.gateway_url, HOST_KEY)
    author, follower = uuid.uuid4(), uuid.uuid4()
    assert host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=follower).status_code == 200

    # When an author publishes through the gateway
    published = host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body={"body": "traced"},
                             headers={"Idempotency-Key": uuid.uuid4().hex})
    assert published.status_code == 201, published.text

    # Then, once the fan-out job has run, one trace holds the whole path
    def fanned_out() -> list[dict] | None:
        spans = stack.spans()
        rest = [s for s in spans if s["kind"] == "SERVER" and s["attributes"].get("http.route") == "/api/v1/timeline/posts"]
        if not rest:
            return None
        trace = [s for s in spans if s["trace_id"] == rest[0]["trace_id"]]
        return trace if any(s["name"] == f"process {FANOUT}" for s in trace) else None

    deadline = time.monotonic() + 60
    while (trace := fanned_out()) is None:
        stack.process.popen.poll()
        assert stack.process.popen.returncode is None, stack.process.log_tail()
        assert time.monotonic() < deadline, "no fan-out job in the publish's trace"
        time.sleep(0.2)
    by_id = {s["span_id"]: s for s in trace}

    rest = only(trace, "REST request", kind="SERVER", **{"http.route": "/api/v1/timeline/posts"})
    server = only(trace, "gRPC server call", kind="SERVER", name=PUBLISH)
    assert server["attributes"]["rpc.grpc.status_code"] == 0
    outbox_insert = [s for s in trace if s["parent_id"] == server["span_id"]
                     and "INSERT INTO timeline.outbox" in s["attributes"].get("db.statement", "")]
    assert outbox_insert, "the server span has no SQL writing the outbox row"
    send = only(trace, "relay's send", kind="PRODUCER", name=f"send {FANOUT}")
    job = only(trace, "fan-out job", kind="CONSUMER", name=f"process {FANOUT}")
    assert job["attributes"]["messaging.destination.name"] == "timeline.fanout"
    entries = [s for s in trace if s["kind"] == "CLIENT" and s["parent_id"] == job["span_id"]
               and "INSERT INTO timeline.timeline_entries" in s["attributes"].get("db.statement", "")]
    assert len(entries) == 1, "the fan-out job's span has no SQL writing the follower's entry"

    # The actor's SQL sits under the job, the message, the outbox row's span, the RPC and the REST call
    assert [s["span_id"] for s in ancestry(entries[0], by_id)] == [
        entries[0]["span_id"], job["span_id"], send["span_id"], server["span_id"], rest["span_id"]]
    assert rest["parent_id"] is None
    assert job["status"] != "ERROR" and server["status"] != "ERROR"

    # And the entry is there: the traced path is the one that delivered the post
    home = host.request("GET", "/api/v1/timeline/home", viewer=follower).json()["data"]
    assert [item["post_id"] for item in home] == [published.json()["data"]["id"]]

    # And only requests and jobs start traces: no SQL outside them (relay polling, lease renewals)
    roots = [s for s in stack.spans() if s["parent_id"] is None]
    assert roots and {s["kind"] for s in roots} <= {"SERVER", "CONSUMER"}, {(s["kind"], s["name"]) for s in roots}

    # And the server's log line of the call carries the trace id beside the request id
    rpc_lines = [line for line in stack.log_lines() if line.get("message") == "rpc" and line.get("method") == PUBLISH]
    assert len(rpc_lines) == 1
    assert rpc_lines[0]["trace_id"] == rest["trace_id"] and rpc_lines[0]["request_id"]
    assert rpc_lines[0]["span_id"] == server["span_id"]
