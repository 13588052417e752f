"""The timeline service's server, relay and worker and the gateway's process (its `feeds-gateway`
command) in one process, tracing into an in-memory span exporter: the real request path, with every
span where a test can read it.

Run with the platform's environment plus GATEWAY_PORT, TIMELINE_GRPC_PORT, GATEWAY_TIMELINE_ADDRESS
and SPANS_PORT; `GET http://127.0.0.1:<SPANS_PORT>/` answers the finished spans as a JSON list.
Stops on SIGTERM, as the gateway does.
"""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import entry_points

import dramatiq
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import format_span_id, format_trace_id

from feeds_runtime.observability import tracing
from feeds_runtime.settings import GrpcTlsSettings, load_settings

EXPORTER = InMemorySpanExporter()


def as_dict(span: ReadableSpan) -> dict:
    context = span.get_span_context()
    return {
        "name": span.name,
        "kind": span.kind.name,
        "trace_id": format_trace_id(context.trace_id),
        "span_id": format_span_id(context.span_id),
        "parent_id": format_span_id(span.parent.span_id) if span.parent else None,
        "status": span.status.status_code.name,
        "attributes": {key: value if isinstance(value, str | int | float | bool) else list(value)
                       for key, value in (span.attributes or {}).items()},
    }


class Spans(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps([as_dict(span) for span in EXPORTER.get_finished_spans()]).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def main() -> None:
    # Before anything else, as each process does first; the service's own setup keeps this provider.
    tracing.configure("timeline", "stack", processor=SimpleSpanProcessor(EXPORTER))
    from timeline.app import SERVICE

    SERVICE.observe("server")
    SERVICE.migrate()
    server = SERVICE.build_server(load_settings(GrpcTlsSettings))
    server.start()
    relay = SERVICE.relay()
    threading.Thread(target=relay.run, name="relay", daemon=True).start()
    from timeline import worker  # configures the worker's broker, then declares the actors on it

    dramatiq.Worker(worker.broker, worker_threads=2, worker_timeout=100).start()
    spans = ThreadingHTTPServer(("127.0.0.1", int(os.environ["SPANS_PORT"])), Spans)
    threading.Thread(target=spans.serve_forever, name="spans", daemon=True).start()
    # The gateway's own command, in the foreground until SIGTERM; its tracing setup keeps the exporter's.
    gateway = entry_points(group="console_scripts", name="feeds-gateway")
    next(iter(gateway)).load()(["server"])


if __name__ == "__main__":
    main()
