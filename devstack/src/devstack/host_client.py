"""A host backend calling the gateway's timeline API with signed requests (docs/architecture.md,
"Host signing"): the one signing client of tests, benchmarks and local tools."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import deque
from collections.abc import Mapping

import httpx

from feeds_runtime.signing import sign


WRITES = ("POST", "PUT", "PATCH", "DELETE")
# The write signatures this process sent lately (oldest first), whichever Host (thread) sent them.
_SENT_ORDER: deque[str] = deque()
_SENT: set[str] = set()
_SENT_KEPT = 10_000
_SENT_LOCK = threading.Lock()


class Host:
    """Signs every request (v2) with the host key `{"tenant_id", "key_id", "secret"}`.

    The gateway refuses a write whose signature it has seen, so a write the client repeats within a
    second (the same request, retried) is signed with the next second rather than sent twice."""

    def __init__(self, base_url: str, key: Mapping[str, str], timeout: float = 15) -> None:
        self.client = httpx.Client(base_url=base_url, timeout=timeout)
        self.key = key
        self.tenant = key["tenant_id"]

    def headers(self, method: str, path: str, *, query: str = "", viewer: uuid.UUID | str | None = None,
                body: bytes = b"", timestamp: int | None = None, secret: str | None = None,
                idempotency_key: str = "") -> dict[str, str]:
        stamp = timestamp if timestamp is not None else int(time.time())
        viewer_text = "" if viewer is None else str(viewer)

        def signature_at(at: int) -> str:
            return sign(secret or self.key["secret"], method, path, query, str(at), viewer_text, body,
                        idempotency_key=idempotency_key)

        signature = signature_at(stamp)
        if method.upper() in WRITES and timestamp is None:
            with _SENT_LOCK:
                while signature in _SENT:
                    stamp += 1
                    signature = signature_at(stamp)
                _SENT.add(signature)
                _SENT_ORDER.append(signature)
                if len(_SENT_ORDER) > _SENT_KEPT:
                    _SENT.discard(_SENT_ORDER.popleft())
        return {"X-Activity-Key-Id": self.key["key_id"], "X-Activity-Timestamp": str(stamp),
                "X-Activity-Viewer": viewer_text, "X-Activity-Signature": signature}

    def request(self, method: str, path: str, *, query: str = "", viewer: uuid.UUID | str | None = None,
                json_body=None, headers: dict[str, str] | None = None, timestamp: int | None = None,
                secret: str | None = None) -> httpx.Response:
        body = b"" if json_body is None else json.dumps(json_body).encode()
        extra = headers or {}
        key = next((value for name, value in extra.items() if name.lower() == "idempotency-key"), "")
        all_headers = {**self.headers(method, path, query=query, viewer=viewer, body=body, timestamp=timestamp,
                                      secret=secret, idempotency_key=key),
                       "Content-Type": "application/json", **extra}
        return self.client.request(method, path + (f"?{query}" if query else ""), content=body, headers=all_headers)

    def close(self) -> None:
        self.client.close()
