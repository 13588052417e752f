"""Request size bounds, checked before routing: a header block over GATEWAY_MAX_HEADER_BYTES is a
431 and a body over GATEWAY_MAX_BODY_BYTES a 413, both in the envelope of the context the path
belongs to. A declared Content-Length over the bound is refused before a byte of the body is read;
a body sent without one is counted as it arrives and refused once it passes the bound, so no route
ever parses, hashes or authenticates more than the bound."""

from __future__ import annotations

from fastapi import HTTPException
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway import envelopes
from gateway.errors import generic_code


class BodyTooLarge(HTTPException):
    """Raised from `receive` while a route reads the body; FastAPI passes an HTTPException through
    its body parsing untouched, and the gateway's handler renders it like any other."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"the request body exceeds {limit} bytes")


class RequestSize:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_header_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_header_bytes = max_header_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if sum(len(name) + len(value) for name, value in scope["headers"]) > self.max_header_bytes:
            await self._refuse(scope, receive, send, 431, f"the request headers exceed {self.max_header_bytes} bytes")
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            await self._refuse(scope, receive, send, 413, BodyTooLarge(self.max_body_bytes).detail)
            return
        received = 0

        async def bounded_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    raise BodyTooLarge(self.max_body_bytes)
            return message

        await self.app(scope, bounded_receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
        context = envelopes.context_for_path(scope["path"])
        response = envelopes.error(context, status, generic_code(context, status), message)
        # The client may still be sending the body it announced; it is not read, and the connection closes.
        response.headers["Connection"] = "close"
        await response(scope, receive, send)
