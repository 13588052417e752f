"""The request id: the caller's `X-Request-Id` when it is 1 to 64 ASCII characters, else a new one.
It is on `request.state.request_id` and in the `request_id` context variable (logs, the call
metadata to services) while the request is handled, and `ResponseHeaders` (gateway.headers) echoes
it on the response, an error included.

Set by that plain ASGI middleware rather than by a Starlette `@app.middleware("http")` function,
which runs the rest of the stack in a task of its own and streams every response body to it
through a memory channel, a cost each response paid in proportion to its size."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from starlette.datastructures import Headers
from starlette.types import Scope

from feeds_runtime import context as request_context

HEADER = "x-request-id"
MAX_LENGTH = 64


@contextmanager
def bound(scope: Scope) -> Iterator[str]:
    """The request's id, on its state and in the context variable until the request is handled."""
    incoming = Headers(scope=scope).get(HEADER, "")
    rid = incoming if 0 < len(incoming) <= MAX_LENGTH and incoming.isascii() else uuid.uuid4().hex
    scope.setdefault("state", {})["request_id"] = rid
    token = request_context.request_id.set(rid)
    try:
        yield rid
    finally:
        request_context.request_id.reset(token)
