"""REST routes of the news context."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["news"])

# gRPC methods safe to retry on UNAVAILABLE: {"feeds.news.v1.Service": ["Method", …]}.
IDEMPOTENT_READS: dict[str, list[str]] = {}
