"""The three REST envelopes, one per context, as docs/architecture.md and each context's page in
docs/ fix them."""

from __future__ import annotations

import enum
from typing import Any

from fastapi.responses import JSONResponse, Response

from gateway.rendering import JSONBody

SCOUT_OK = 102000


class Context(enum.Enum):
    TIMELINE = "timeline"
    NEWS = "news"
    SCOUT = "scout"
    GATEWAY = "gateway"


_PREFIXES = (
    ("/api/v1/timeline", Context.TIMELINE),
    ("/api/v1/subscriptions", Context.NEWS),
    ("/api/v1/feed", Context.NEWS),
    ("/api/v1/news", Context.NEWS),
    ("/api/v1/scout", Context.SCOUT),
    ("/api/v1/jobs", Context.SCOUT),
)


def context_for_path(path: str) -> Context:
    for prefix, context in _PREFIXES:
        if path == prefix or path.startswith(prefix + "/"):
            return context
    return Context.GATEWAY


# Success bodies.

def timeline_data(data: Any, *, next_cursor: str | None = None, paged: bool = False, status: int = 200) -> JSONBody:
    body: dict[str, Any] = {"data": data}
    if paged:
        body["page"] = {"next_cursor": next_cursor}
    return JSONBody(body, status_code=status)


def news_body(body: Any, status: int = 200) -> Response:
    if status == 204:
        return Response(status_code=204)
    return JSONResponse(body, status_code=status)


def scout_data(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse({"code": SCOUT_OK, "message": "ok", "data": data, "error": None}, status_code=status)


# Error bodies.

_TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
           422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error",
           503: "Service Unavailable", 504: "Gateway Timeout"}


def error(context: Context, status: int, code: str, message: str, *, scout_code: int | None = None) -> Response:
    """Render an error in the envelope of the context that owns the path."""
    if context is Context.NEWS:
        return JSONResponse(
            {"type": "about:blank", "title": _TITLES.get(status, "Error"), "status": status, "detail": message, "code": code},
            status_code=status,
            media_type="application/problem+json",
        )
    if context is Context.SCOUT:
        return JSONResponse(
            {"code": scout_code or status * 1000, "message": message, "data": None, "error": code},
            status_code=status,
        )
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
