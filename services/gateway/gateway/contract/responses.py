"""What an operation answers, declared on its route (`responses=`): the success body's type, wrapped
in the context's envelope, and the error statuses particular to it. The statuses every operation of
a context shares (400, 401, 503, 504) are added by gateway.contract.document from the route itself."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from gateway.envelopes import PROBLEM_JSON, Context, ScoutBody, TimelineBody, TimelinePageBody
from gateway.errors import RETRY_AFTER_SECONDS

REF = "#/components/schemas/"
# The body types the document's components hold, by component name (filled as routes declare them).
BODIES: dict[str, Any] = {}
# Request bodies a route reads itself rather than through FastAPI (the signed timeline API), by name.
REQUESTS: dict[str, type[BaseModel]] = {}
ERROR_COMPONENTS = {Context.TIMELINE: "TimelineError", Context.NEWS: "NewsProblem", Context.SCOUT: "ScoutError"}
ERROR_TEXT = {
    400: "The request is malformed; the code names what is wrong.",
    401: "No valid credentials (member token or host signature).",
    403: "The caller may not act on this resource.",
    404: "No such resource for this caller.",
    409: "The request clashes with the resource's current state, or a request with this Idempotency-Key "
         "is still running.",
    413: "The body exceeds the gateway's bound (GATEWAY_MAX_BODY_BYTES); refused before it is read.",
    422: "This Idempotency-Key was used for a different request.",
    429: "The caller's quota is spent: retry after Retry-After seconds.",
    431: "The header block exceeds the gateway's bound (GATEWAY_MAX_HEADER_BYTES).",
    503: "A service or its store is unavailable right now: nothing was done, retry after Retry-After seconds.",
    504: "A service did not answer in time: the outcome is unknown, retry idempotent requests.",
}
SUCCESS_TEXT = {200: "OK", 201: "Created", 202: "Accepted: the work is queued", 204: "Done; no body"}


def _ref(name: str, body_type: Any) -> dict[str, str]:
    if BODIES.setdefault(name, body_type) != body_type:
        raise ValueError(f"two body types named {name}")
    return {"$ref": REF + name}


def request(model: type[BaseModel]) -> dict[str, str]:
    """A request body read by the route itself, as a component named after its model."""
    if REQUESTS.setdefault(model.__name__, model) is not model:
        raise ValueError(f"two request bodies named {model.__name__}")
    return {"$ref": REF + model.__name__}


def _json(schema: dict[str, Any], media_type: str = "application/json") -> dict[str, Any]:
    return {"content": {media_type: {"schema": schema}}}


def error(context: Context, status: int) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": ERROR_TEXT[status],
        **_json({"$ref": REF + ERROR_COMPONENTS[context]}, PROBLEM_JSON if context is Context.NEWS else "application/json"),
    }
    if status == 503:
        response["headers"] = {"Retry-After": _header(f"Seconds to wait ({RETRY_AFTER_SECONDS})", INTEGER)}
    elif status == 429:
        response["headers"] = {
            "Retry-After": _header("Seconds until the quota allows another request", INTEGER),
            "RateLimit-Policy": _header('The quota the request counted against, e.g. `"posts";q=60;w=60` (IETF '
                                        'RateLimit fields; a member\'s reads, posts, subscriptions, scans, suggestions '
                                        'and other writes, a host key\'s requests)', TEXT),
            "RateLimit": _header('What is left of it, e.g. `"posts";r=0;t=12`', TEXT),
        }
    return response


INTEGER = {"type": "integer", "minimum": 0}
TEXT = {"type": "string"}


def _header(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "description": description, "schema": schema}


def _answers(context: Context, schema: dict[str, Any] | None, success: tuple[int, ...], errors: tuple[int, ...]) -> dict:
    ok = {status: {"description": SUCCESS_TEXT[status], **(_json(schema) if schema and status != 204 else {})}
          for status in success}
    return {**ok, **{status: error(context, status) for status in errors}}


def timeline(data: Any, *errors: int, success: tuple[int, ...] = (200,), paged: bool = False,
             listed: bool = False) -> dict:
    """`{"data": <data>}`; with `listed` `{"data": [<data>…]}` (a whole list, no paging); with `paged`
    `{"data": [<data>…], "page": {"next_cursor"}}`."""
    if paged:
        schema = _ref(data.__name__ + "Page", TimelinePageBody[data])
    elif listed:
        schema = _ref(data.__name__ + "List", TimelineBody[list[data]])
    else:
        schema = _ref(data.__name__ + "Response", TimelineBody[data])
    return _answers(Context.TIMELINE, schema, success, errors)


def news(data: Any | None, *errors: int, success: tuple[int, ...] = (200,)) -> dict:
    """The body itself (news has no success envelope); None for a 204."""
    schema = _ref(data.__name__, data) if data is not None else None
    return _answers(Context.NEWS, schema, success, errors)


def scout(data: Any, *errors: int) -> dict:
    """`{"code": 102000, "message": "ok", "data": <data>, "error": null}`."""
    return _answers(Context.SCOUT, _ref(data.__name__ + "Response", ScoutBody[data]), (200,), errors)
