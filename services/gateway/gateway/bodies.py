"""Request bodies parsed as JSON once, strictly, the same way on every route. What no field of any
route accepts is refused here, naming where it was: nesting past a bound (no parser recursion for a
client to exhaust), a string (key or value) the services cannot carry (a lone UTF-16 surrogate), a
number beyond 64 bits (Python would build a 5,000-digit integer, or refuse to), NaN and Infinity
(not JSON), and a key given twice in one object (which value counts would be the parser's guess).
Any failure is a `json.JSONDecodeError` whose message is the answer's ("<field>: <reason>"), which
each context renders as its own validation error."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from feeds_runtime.text import has_lone_surrogate

MAX_DEPTH = 32
# The most digits a 64-bit integer has, and the range of one (signed or unsigned).
_MAX_DIGITS = 20
_SMALLEST, _LARGEST = -(2 ** 63), 2 ** 64 - 1
# A field name quoted in a message is cut to this many characters.
_NAME_CHARS = 64


class _Refused:
    """A value the parser met that no route accepts; the walk after parsing names where it was."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


_BEYOND_64_BITS = _Refused("a number beyond 64 bits")
_NOT_A_NUMBER = _Refused("NaN and Infinity are not JSON numbers")


class _Duplicated(dict):
    """An object that named `key` more than once."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.key = key


def _integer(text: str) -> int | _Refused:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        return _BEYOND_64_BITS
    number = int(text)
    return number if _SMALLEST <= number <= _LARGEST else _BEYOND_64_BITS


def _float(text: str) -> float | _Refused:
    number = float(text)
    return number if math.isfinite(number) else _BEYOND_64_BITS


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Duplicated(pairs, key)
        seen.add(key)
    return dict(pairs)


def _name(path: tuple[str | int, ...]) -> str:
    parts = []
    for part in path:
        text = str(part)
        if has_lone_surrogate(text):
            text = text.encode("utf-8", "backslashreplace").decode()
        parts.append(text if len(text) <= _NAME_CHARS else text[:_NAME_CHARS] + "…")
    return ".".join(parts)


def _refuse(path: tuple[str | int, ...], reason: str) -> json.JSONDecodeError:
    where = _name(path)
    return json.JSONDecodeError(f"{where}: {reason}" if where else reason, "", 0)


def loads(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    try:
        value = json.loads(raw, parse_int=_integer, parse_float=_float, parse_constant=lambda _: _NOT_A_NUMBER,
                           object_pairs_hook=_object)
    except RecursionError:
        raise _refuse((), f"nested deeper than {max_depth} levels") from None
    except UnicodeDecodeError:
        raise _refuse((), "the body is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise _refuse((), f"the body is not valid JSON ({error.msg} at character {error.pos})") from None
    pending: list[tuple[Any, int, tuple[str | int, ...]]] = [(value, 1, ())]
    while pending:
        item, depth, path = pending.pop()
        if isinstance(item, _Refused):
            raise _refuse(path, item.reason)
        if isinstance(item, str):
            if has_lone_surrogate(item):
                raise _refuse(path, "strings must be valid Unicode text (no lone surrogates)")
        elif isinstance(item, (dict, list)):
            if depth > max_depth:
                raise _refuse(path, f"nested deeper than {max_depth} levels")
            if isinstance(item, _Duplicated):
                raise _refuse((*path, item.key), "given more than once")
            if isinstance(item, dict):
                for key, child in item.items():
                    if has_lone_surrogate(key):
                        raise _refuse((*path, key), "names must be valid Unicode text (no lone surrogates)")
                    pending.append((child, depth + 1, (*path, key)))
            else:
                pending.extend((child, depth + 1, (*path, index)) for index, child in enumerate(item))
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
