"""A host backend calling the gateway's timeline API with signed requests (docs/architecture.md,
"Host signing"): the one signing client of tests, benchmarks and local tools."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Mapping

import httpx

from feeds_runtime.signing import NONCE_HEADER, new_nonce, sign


class Host:
    """Signs every request (v3) with the host key `{"tenant_id", "key_id", "secret"}` and a fresh
    nonce, so the same write sent twice in one second is two requests, each accepted once."""

    def __init__(self, base_url: str, key: Mapping[str, str], timeout: float = 15) -> None:
        self.client = httpx.Client(base_url=base_url, timeout=timeout)
        self.key = key
        self.tenant = key["tenant_id"]

    def headers(self, method: str, path: str, *, query: str = "", viewer: uuid.UUID | str | None = None,
                body: bytes = b"", timestamp: int | None = None, secret: str | None = None,
                idempotency_key: str = "", nonce: str | None = None) -> dict[str, str]:
        stamp = str(timestamp if timestamp is not None else int(time.time()))
        viewer_text = "" if viewer is None else str(viewer)
        nonce = nonce or new_nonce()
        signature = sign(secret or self.key["secret"], method, path, query, stamp, viewer_text, body,
                         version="v3", idempotency_key=idempotency_key, nonce=nonce)
        return {"X-Activity-Key-Id": self.key["key_id"], "X-Activity-Timestamp": stamp,
                "X-Activity-Viewer": viewer_text, NONCE_HEADER: nonce, "X-Activity-Signature": signature}

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
