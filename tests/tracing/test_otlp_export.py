"""Exporting is turned on by the standard OTEL_ variables alone: a real server process sends its
spans over OTLP/HTTP to the endpoint named, under the caller's trace, and nothing for health checks;
a bad value stops the process with one line naming the variable."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from devstack.infra import free_port
from devstack.processes import ProcessGroup, grpc_serving, python_module, wait_for
from devstack.tls import DEV_CA
from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
PING = "/feeds.timeline.v1.TimelineAdmin/Ping"


class Collector:
    """An OTLP/HTTP trace receiver: every span it was sent, with its process's service name."""

    def __init__(self) -> None:
        self.spans: list[dict] = []
        collector = self

        class Receive(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                request = ExportTraceServiceRequest()
                request.ParseFromString(self.rfile.read(int(self.headers["content-length"])))
                for resource in request.resource_spans:
                    attributes = {a.key: a.value.string_value for a in resource.resource.attributes}
                    for scope in resource.scope_spans:
                        collector.spans += [{"service": attributes.get("service.name"), "path": self.path,
                                             "name": span.name, "trace_id": span.trace_id.hex(),
                                             "parent_id": span.parent_span_id.hex()} for span in scope.spans]
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Receive)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def collector() -> Iterator[Collector]:
    collector = Collector()
    yield collector
    collector.server.shutdown()


def test_a_server_exports_its_spans_to_the_endpoint_the_variables_name(processes: ProcessGroup, collector: Collector):
    port = free_port()
    env = {"TIMELINE_GRPC_PORT": str(port), "OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint,
           "OTEL_BSP_SCHEDULE_DELAY": "100"}
    processes.run("timeline-migrate", python_module("timeline", "migrate"), env)
    processes.start("timeline-server", python_module("timeline", "server"), env)
    address = f"127.0.0.1:{port}"
    wait_for(lambda: grpc_serving(address), "timeline SERVING", processes)

    # When a caller inside a trace calls the server
    with DEV_CA.channel(address) as channel:
        timeline_pb2_grpc.TimelineAdminStub(channel).Ping(
            pb.PingRequest(), metadata=[("traceparent", f"00-{TRACE_ID}-{PARENT_ID}-01")], timeout=10)

    # Then the call's span reaches the collector at the OTLP path, in the caller's trace
    deadline = time.monotonic() + 30
    while not any(span["name"] == PING for span in collector.spans):
        processes.check_alive()
        assert time.monotonic() < deadline, f"no {PING} span exported: {collector.spans}"
        time.sleep(0.1)
    [span] = [span for span in collector.spans if span["name"] == PING]
    assert span == {"service": "timeline", "path": "/v1/traces", "name": PING, "trace_id": TRACE_ID,
                    "parent_id": PARENT_ID}
    # And the health checks it answered (the readiness wait above) left no trace
    assert not [s for s in collector.spans if "grpc.health" in s["name"]]


@pytest.mark.parametrize("variable, value", [("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
                                             ("OTEL_TRACES_SAMPLER_ARG", "2")])
def test_a_bad_tracing_variable_stops_the_process_naming_it(platform_env, variable, value):
    result = subprocess.run(python_module("timeline", "migrate"), env={**os.environ, **platform_env, variable: value},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith(f"configuration error: {variable}: "), result.stderr
