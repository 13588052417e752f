"""The three REST envelopes, one per context, as docs/architecture.md and each context's page in
docs/ fix them. Each body is a TypedDict: mypy holds the renderers to it, and the OpenAPI document
is generated from it (gateway.contract)."""

from __future__ import annotations

import enum
from typing import Any, Generic, Literal, TypeVar

from fastapi.responses import JSONResponse, Response
from pydantic import with_config
from typing_extensions import TypedDict

from gateway.contract.fields import CLOSED
from gateway.rendering import JSONBody

SCOUT_OK: Literal[102000] = 102000
PROBLEM_JSON = "application/problem+json"


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


Data = TypeVar("Data")


# Success bodies (news answers its bodies bare, with no envelope).

@with_config(CLOSED)
class TimelineBody(TypedDict, Generic[Data]):
    data: Data


@with_config(CLOSED)
class TimelinePage(TypedDict):
    next_cursor: str | None


@with_config(CLOSED)
class TimelinePageBody(TypedDict, Generic[Data]):
    data: list[Data]
    page: TimelinePage


@with_config(CLOSED)
class ScoutBody(TypedDict, Generic[Data]):
    code: Literal[102000]
    message: Literal["ok"]
    data: Data
    error: None


def timeline_data(data: Any, *, status: int = 200) -> JSONBody:
    body: TimelineBody[Any] = {"data": data}
    return JSONBody(body, status_code=status)


def timeline_page(data: list[Any], next_cursor: str | None) -> JSONBody:
    body: TimelinePageBody[Any] = {"data": data, "page": {"next_cursor": next_cursor}}
    return JSONBody(body)


def news_body(body: Any, status: int = 200) -> Response:
    if status == 204:
        return Response(status_code=204)
    return JSONResponse(body, status_code=status)


def scout_data(data: Any, status: int = 200) -> JSONResponse:
    body: ScoutBody[Any] = {"code": SCOUT_OK, "message": "ok", "data": data, "error": None}
    return JSONResponse(body, status_code=status)


# Error bodies.

@with_config(CLOSED)
class TimelineErrorDetail(TypedDict):
    code: str
    message: str


@with_config(CLOSED)
class TimelineError(TypedDict):
    error: TimelineErrorDetail


@with_config(CLOSED)
class NewsProblem(TypedDict):
    """RFC 9457 problem details, with the news error code in `code`."""

    type: Literal["about:blank"]
    title: str
    status: int
    detail: str
    code: str


@with_config(CLOSED)
class ScoutError(TypedDict):
    code: int
    message: str
    data: None
    error: str


_TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
           409: "Conflict", 413: "Content Too Large", 422: "Unprocessable Content", 429: "Too Many Requests",
           431: "Request Header Fields Too Large", 500: "Internal Server Error", 503: "Service Unavailable",
           504: "Gateway Timeout"}


def error(context: Context, status: int, code: str, message: str, *, scout_code: int | None = None) -> Response:
    """Render an error in the envelope of the context that owns the path."""
    if context is Context.NEWS:
        problem: NewsProblem = {"type": "about:blank", "title": _TITLES.get(status, "Error"), "status": status,
                                "detail": message, "code": code}
        return JSONResponse(problem, status_code=status, media_type=PROBLEM_JSON)
    if context is Context.SCOUT:
        scout: ScoutError = {"code": scout_code or status * 1000, "message": message, "data": None, "error": code}
        return JSONResponse(scout, status_code=status)
    body: TimelineError = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status)
