"""Process and readiness probes."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

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
