"""Request bodies parsed as JSON once, strictly, the same way on every route: nesting is bounded (no
parser recursion for a client to exhaust) and every string, key or value, must be text the services
can carry (no lone UTF-16 surrogates). Any failure is a `json.JSONDecodeError`, which each context
renders as its own validation error."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from feeds_runtime.text import has_lone_surrogate

MAX_DEPTH = 32


def loads(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    try:
        value = json.loads(raw)
    except RecursionError:
        raise json.JSONDecodeError(f"nested deeper than {max_depth} levels", "", 0) from None
    except UnicodeDecodeError:
        raise json.JSONDecodeError("not UTF-8 text", "", 0) from None
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if has_lone_surrogate(item):
                raise json.JSONDecodeError("strings must be valid Unicode text (no lone surrogates)", "", 0)
        elif isinstance(item, (dict, list)):
            if depth > max_depth:
                raise json.JSONDecodeError(f"nested deeper than {max_depth} levels", "", 0)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return value


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """Routes whose JSON bodies go through `loads` (FastAPI's documented custom-request hook)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
