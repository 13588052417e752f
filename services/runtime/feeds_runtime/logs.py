"""Structured JSON logs on stderr, each record carrying the current request id and, inside a trace,
its trace and span ids (null otherwise)."""

from __future__ import annotations

import logging
import sys

from opentelemetry import trace
from pythonjsonlogger.json import JsonFormatter

from feeds_runtime import context


class _RequestContext(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = context.request_id.get()
        span = trace.get_current_span().get_span_context()
        record.trace_id = trace.format_trace_id(span.trace_id) if span.is_valid else None
        record.span_id = trace.format_span_id(span.span_id) if span.is_valid else None
        return True


def configure_logging(service: str, level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_RequestContext())
    handler.setFormatter(
        JsonFormatter(
            "%(levelname)s %(name)s %(message)s %(request_id)s %(trace_id)s %(span_id)s",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
            static_fields={"service": service},
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # The readiness probe opens an Alembic context every few seconds; its banner is noise.
    logging.getLogger("alembic").setLevel(logging.WARNING)
