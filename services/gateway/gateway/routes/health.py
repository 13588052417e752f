"""Process and readiness probes, and the metrics scrape."""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from pydantic import with_config
from typing_extensions import TypedDict

from feeds_runtime.observability import metrics
from gateway.contract.fields import CLOSED

router = APIRouter(tags=["health"])


@with_config(CLOSED)
class Alive(TypedDict):
    status: Literal["ok"]


@with_config(CLOSED)
class Readiness(TypedDict):
    status: Literal["ready", "not_ready"]
    services: dict[str, Literal["SERVING", "NOT_SERVING"]]


@router.get("/healthz", summary="The gateway process is up", response_model=Alive)
async def healthz() -> Alive:
    return {"status": "ok"}


@router.get("/readyz", summary="Every service the gateway needs answers SERVING on its gRPC health check",
            response_model=Readiness,
            responses={503: {"model": Readiness, "description": "A service does not answer SERVING"}})
async def readyz(request: Request) -> JSONResponse:
    channels = request.app.state.channels
    results = await asyncio.gather(*(channel.serving() for channel in channels.values()))
    ready = all(results)
    body: Readiness = {"status": "ready" if ready else "not_ready",
                       "services": {name: ("SERVING" if ok else "NOT_SERVING") for name, ok in zip(channels, results)}}
    return JSONResponse(body, status_code=200 if ready else 503)


@router.get("/metrics", include_in_schema=False)
async def metrics_scrape(request: Request) -> Response:
    """The gateway's Prometheus metrics for a scraper that calls the pod directly. A request relayed
    by a proxy (the Ingress adds X-Forwarded-For) is answered 404, so the public site shows none."""
    if not metrics.enabled() or "x-forwarded-for" in request.headers or "forwarded" in request.headers:
        raise HTTPException(status_code=404)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
