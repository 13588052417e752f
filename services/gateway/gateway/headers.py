"""Headers on every response of the gateway: `nosniff` everywhere (a browser never second-guesses a
content type, so no JSON body runs as a script or a page), `no-store` on the API, whose answers
are a member's or a host's data and depend on who asks, what a request's handling left for its
response (`add_response_headers`), whichever response it ends in, and the request id
(gateway.request_ids)."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway import request_ids

API_PREFIX = "/api/"
_STATE_KEY = "response_headers"


def add_response_headers(request: Request, headers: dict[str, str]) -> None:
    """Headers for the response to this request, an error response included."""
    request.scope.setdefault("state", {}).setdefault(_STATE_KEY, {}).update(headers)


def response_headers(path: str) -> dict[str, str]:
    headers = {"X-Content-Type-Options": "nosniff"}
    if path.startswith(API_PREFIX):
        headers["Cache-Control"] = "no-store"
    return headers


class ResponseHeaders:
    """ASGI middleware holding the request id while the request is handled, and adding to each
    response `response_headers` it does not set itself and the request id."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = response_headers(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in {**extra, **scope.get("state", {}).get(_STATE_KEY, {})}.items():
                    headers.setdefault(name, value)
                headers[request_ids.HEADER] = rid
            await send(message)

        with request_ids.bound(scope) as rid:
            await self.app(scope, receive, send_with_headers)
