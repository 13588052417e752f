"""OpenTelemetry traces, the same way in every process.

Off unless the standard `OTEL_*` variables name an OTLP endpoint: then each process records spans
and sends them in batches over OTLP (HTTP/protobuf unless `OTEL_EXPORTER_OTLP_PROTOCOL=grpc`).
When off, no tracer provider is installed, the hooks below cost next to nothing and the outbox
carries no trace context. A test passes its own span processor (an in-memory exporter).

One trace follows a request end to end: the gateway's REST span (FastAPI's own telemetry), the
server span of the service (`rpc_span`, under the context the gateway puts in the call's metadata),
the SQL it runs, the outbox row it writes (the row keeps `current_context()`), the relay's send span
under that row, and the job's consumer span under the message (the Dramatiq middleware of
`feeds_runtime.jobs`), whose SQL and outbox rows continue it.
Only requests and jobs start traces: SQL or Redis calls outside them (the relay's polling, lease
renewals, readiness checks) record nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from typing import Any, Literal

import grpc
from opentelemetry import propagate, trace
from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.sampling import (
    ALWAYS_OFF,
    ALWAYS_ON,
    Decision,
    ParentBased,
    Sampler,
    SamplingResult,
    TraceIdRatioBased,
)
from opentelemetry.trace import SpanKind, Status, StatusCode
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from feeds_runtime.settings import load_settings

log = logging.getLogger("feeds.tracing")

TRACER_NAME = "feeds"
HEALTH_SERVICE_PREFIX = "/grpc.health.v1.Health/"

Protocol = Literal["http/protobuf", "grpc"]


class TracingSettings(BaseSettings):
    """The OpenTelemetry variables this runtime reads itself (the exporter reads its own: headers,
    timeout, compression, certificates; the SDK reads the resource ones)."""

    model_config = SettingsConfigDict(extra="ignore")

    sdk_disabled: bool = Field(default=False, validation_alias="OTEL_SDK_DISABLED")
    traces_exporter: Literal["otlp", "none"] = Field(default="otlp", validation_alias="OTEL_TRACES_EXPORTER")
    # Unset, both: tracing off.
    endpoint: str | None = Field(default=None, validation_alias="OTEL_EXPORTER_OTLP_ENDPOINT")
    traces_endpoint: str | None = Field(default=None, validation_alias="OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    protocol: Protocol = Field(default="http/protobuf", validation_alias="OTEL_EXPORTER_OTLP_PROTOCOL")
    traces_protocol: Protocol | None = Field(default=None, validation_alias="OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    sampler: Literal["always_on", "always_off", "traceidratio", "parentbased_always_on",
                     "parentbased_always_off", "parentbased_traceidratio"] = Field(
        default="parentbased_always_on", validation_alias="OTEL_TRACES_SAMPLER")
    sampler_arg: float = Field(default=1.0, ge=0.0, le=1.0, validation_alias="OTEL_TRACES_SAMPLER_ARG")

    @property
    def exporting(self) -> bool:
        return not self.sdk_disabled and self.traces_exporter == "otlp" and bool(self.endpoint or self.traces_endpoint)

    def make_sampler(self) -> Sampler:
        ratio = TraceIdRatioBased(self.sampler_arg)
        root = {"always_on": ALWAYS_ON, "always_off": ALWAYS_OFF, "traceidratio": ratio}[
            self.sampler.removeprefix("parentbased_")]
        return ParentBased(root) if self.sampler.startswith("parentbased_") else root


class RequestsStartTraces(Sampler):
    """A span with no parent starts a trace only if it is a request (SERVER) or a job (CONSUMER);
    otherwise the configured sampler decides."""

    def __init__(self, sampler: Sampler) -> None:
        self._sampler = sampler

    def should_sample(self, parent_context: Context | None, trace_id: int, name: str,
                      kind: SpanKind | None = None, attributes: Any = None, links: Any = None,
                      trace_state: Any = None) -> SamplingResult:
        parent = trace.get_current_span(parent_context).get_span_context()
        if not parent.is_valid and kind not in (SpanKind.SERVER, SpanKind.CONSUMER):
            return SamplingResult(Decision.DROP)
        return self._sampler.should_sample(parent_context, trace_id, name, kind, attributes, links, trace_state)

    def get_description(self) -> str:
        return f"RequestsStartTraces{{{self._sampler.get_description()}}}"


_provider: TracerProvider | None = None


def enabled() -> bool:
    return _provider is not None


def configure(service: str, process: str, processor: SpanProcessor | None = None) -> bool:
    """Turn tracing on for this process if an exporter is configured (or a test passes `processor`);
    returns whether it is on. A second call keeps what the first one set."""
    global _provider
    if _provider is not None:
        return True
    settings = load_settings(TracingSettings)  # a bad variable stops the process, as any setting
    if processor is None:
        if not settings.exporting:
            return False
        processor = BatchSpanProcessor(_otlp_exporter(settings.traces_protocol or settings.protocol))
    _provider = TracerProvider(
        resource=Resource.create({"service.name": service, "feeds.process": process}),
        sampler=RequestsStartTraces(settings.make_sampler()),
    )
    _provider.add_span_processor(processor)
    trace.set_tracer_provider(_provider)
    log.info("tracing on", extra={"sampler": settings.sampler})
    return True


def _otlp_exporter(protocol: Protocol):
    # Each exporter reads its endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables.
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

        return GrpcExporter()
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter

    return HttpExporter()


def tracer() -> trace.Tracer:
    return trace.get_tracer(TRACER_NAME)


def current_context() -> dict[str, str] | None:
    """The current trace context as W3C headers (`traceparent`, …), to store with work done later;
    None outside any trace."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier or None


def extract(carrier: Mapping[str, str] | None) -> Context | None:
    return propagate.extract(carrier) if carrier else None


@contextmanager
def rpc_span(method: str, metadata: Mapping[str, str]) -> Iterator[trace.Span | None]:
    """The server span of one unary RPC, under the caller's context from its metadata; None for
    health checks and when tracing is off."""
    if _provider is None or method.startswith(HEALTH_SERVICE_PREFIX):
        yield None
        return
    service, _, name = method.lstrip("/").rpartition("/")
    with tracer().start_as_current_span(
        method, context=propagate.extract(metadata), kind=SpanKind.SERVER, record_exception=False,
        set_status_on_exception=False,
        attributes={"rpc.system": "grpc", "rpc.service": service, "rpc.method": name},
    ) as span:
        yield span


def rpc_outcome(span: trace.Span | None, code: str) -> None:
    """The gRPC status of the call (`grpc.StatusCode` name) on its span: an error status unless OK."""
    if span is None:
        return
    span.set_attribute("rpc.grpc.status_code", grpc.StatusCode[code].value[0])
    if code != "OK":
        span.set_status(Status(StatusCode.ERROR, code))


def producer_span(name: str, parent: Mapping[str, str] | None, attributes: Mapping[str, Any]):
    """The span of sending work recorded under `parent` (an outbox row's context): the message sent
    inside it carries it. Nothing for work recorded outside any trace."""
    if not parent:
        return nullcontext()
    return tracer().start_as_current_span(name, context=propagate.extract(parent), kind=SpanKind.PRODUCER,
                                          attributes=attributes)


def call_metadata() -> list[tuple[str, str]]:
    """The current trace context as gRPC metadata for an outgoing call: the service's server span
    joins the caller's trace (no client span of its own: the caller's span covers the call, and
    grpc.aio's interceptor machinery costs more than the span it would add). Empty when off."""
    if _provider is None:
        return []
    return list((current_context() or {}).items())


def instrument_database() -> None:
    """A client span per SQL statement, at psycopg's level so reads that bypass SQLAlchemy
    (`db.driver_connection`) are seen too; nothing when tracing is off."""
    if _provider is None:
        return
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor

    instrumentor = PsycopgInstrumentor()
    if not instrumentor.is_instrumented_by_opentelemetry:
        instrumentor.instrument()
