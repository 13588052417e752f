"""Process and readiness probes, and the metrics scrape."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from feeds_runtime.observability import metrics

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The gateway process is up")
async def healthz() -> dict:
    return {"status": "ok"}


@router.get("/readyz", summary="Every service the gateway needs answers SERVING on its gRPC health check")
async def readyz(request: Request) -> JSONResponse:
    channels = request.app.state.channels
    results = await asyncio.gather(*(channel.serving() for channel in channels.values()))
    services = {name: ("SERVING" if ok else "NOT_SERVING") for name, ok in zip(channels, results)}
    ready = all(results)
    return JSONResponse({"status": "ready" if ready else "not_ready", "services": services}, status_code=200 if ready else 503)


@router.get("/metrics", include_in_schema=False)
async def metrics_scrape(request: Request) -> Response:
    """The gateway's Prometheus metrics for a scraper that calls the pod directly. A request relayed
    by a proxy (the Ingress adds X-Forwarded-For) is answered 404, so the public site shows none."""
    if not metrics.enabled() or "x-forwarded-for" in request.headers or "forwarded" in request.headers:
        raise HTTPException(status_code=404)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
