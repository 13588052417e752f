"""FastAPI application: routes per context, one envelope/error module, channels opened at start-up."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.utils import generate_unique_id
from fastapi.telemetry import TelemetryConfig

from feeds_runtime.observability.http import RequestMetrics
from feeds_runtime.tls import TlsFiles
from gateway import errors, store
from gateway.auth import HostSignature, MemberAuth
from gateway.clients import ServiceChannel
from gateway.contract import document
from gateway.headers import ResponseHeaders
from gateway.idempotency import Idempotency
from gateway.request_limits.rate import RateLimits
from gateway.request_limits.size import RequestSize
from gateway.routes import dev_sign_in, health, news, pages, scout, timeline
from gateway.settings import GatewaySettings

CONTEXT_ROUTES = {"timeline": timeline, "news": news, "scout": scout}
# Probes and the scrape: called every few seconds, never traced.
UNTRACED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
# FastAPI's own tracing, active once the process turned tracing on (`tracing.configure`): a server
# span per REST request, under the caller's trace context, named by its route template. Nothing
# else of it: no spans per dependency or serialization, no metrics or logs (Prometheus and the JSON
# logs have those).
TELEMETRY: TelemetryConfig = {
    "operation_spans": False, "metrics": False, "logs": False,
    "exclude": lambda scope: scope.get("path") in UNTRACED_PATHS,
}


def create_app(settings: GatewaySettings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        addresses = {"timeline": settings.timeline_address, "news": settings.news_address, "scout": settings.scout_address}
        app.state.channels = {
            name: ServiceChannel(name, addresses[name], settings.rpc_deadline_seconds, module.IDEMPOTENT_READS,
                                 TlsFiles(*settings.grpc_tls) if settings.grpc_tls else None)
            for name, module in CONTEXT_ROUTES.items()
        }
        app.state.redis = store.connect(settings)
        app.state.rate_limits = RateLimits(settings, app.state.redis)
        app.state.idempotency = Idempotency(settings, app.state.redis)
        yield
        for channel in app.state.channels.values():
            await channel.close()
        if app.state.redis is not None:
            await app.state.redis.aclose()

    app = FastAPI(
        title="Feeds platform gateway",
        version="1.0.0",
        description="REST over the timeline, news and scout gRPC services. Each context answers in its own envelope.",
        lifespan=lifespan,
        telemetry=TELEMETRY,
        # No Swagger UI or ReDoc: FastAPI's pages load their scripts from a CDN. /openapi.json is the
        # contract; any viewer or client generator reads it.
        docs_url=None,
        redoc_url=None,
        # A path with a trailing slash is a 404 like any other unknown path: Starlette's redirect to
        # the path without it builds its Location from the Host header, which the client controls.
        redirect_slashes=False,
        # Operation ids by context and handler (`timeline_follow`), so a generated client's functions
        # read as what they do; FastAPI's own for an untagged route.
        generate_unique_id_function=lambda route: f"{route.tags[0]}_{route.name}" if route.tags
        else generate_unique_id(route),
    )
    app.state.settings = settings
    app.state.member_auth = MemberAuth(settings)
    app.state.host_signature = HostSignature(settings)
    errors.install(app)
    # The innermost middleware: sizes are checked before routing, so before any body is parsed or any
    # caller authenticated, and the refusal still carries the request id and the common headers.
    app.add_middleware(RequestSize, max_body_bytes=settings.max_body_bytes, max_header_bytes=settings.max_header_bytes)
    app.add_middleware(RequestMetrics)
    app.add_middleware(ResponseHeaders)
    app.include_router(health.router)
    for module in CONTEXT_ROUTES.values():
        app.include_router(module.router)
    app.include_router(pages.router)
    if settings.is_dev:
        app.include_router(dev_sign_in.router)

    def openapi() -> dict:
        if app.openapi_schema is None:
            app.openapi_schema = document.build(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
