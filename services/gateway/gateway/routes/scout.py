"""REST routes of the scout context."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["scout"])

# gRPC methods safe to retry on UNAVAILABLE: {"feeds.scout.v1.Service": ["Method", …]}.
IDEMPOTENT_READS: dict[str, list[str]] = {}
