"""The one exception routes raise for a request the gateway itself refuses (shape, authentication);
the handlers in `gateway.errors` render it in the context's envelope."""

from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, *, scout_code: int | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.scout_code = status, code, message, scout_code
        self.headers = headers or {}
