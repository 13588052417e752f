"""REST routes of the timeline context."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["timeline"])

# gRPC methods safe to retry on UNAVAILABLE: {"feeds.timeline.v1.Service": ["Method", …]}.
IDEMPOTENT_READS: dict[str, list[str]] = {}
