"""The host request signature (docs/architecture.md, "Host signing"): HMAC-SHA256 over the method,
the raw path and query exactly as sent, the timestamp, the viewer and the body's SHA-256, and in
`v2` also the Idempotency-Key header, so that a request's key cannot be swapped or stripped. The
gateway verifies both versions; host clients (tests, benchmarks, tools) sign with the same function."""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal

Version = Literal["v1", "v2"]
VERSIONS: tuple[Version, ...] = ("v1", "v2")


def string_to_sign(method: str, raw_path: str, raw_query: str, timestamp: str, viewer: str, body: bytes, *,
                   version: Version = "v2", idempotency_key: str = "") -> str:
    lines = [method.upper(), raw_path, raw_query, timestamp, viewer, hashlib.sha256(body).hexdigest()]
    if version == "v2":
        lines.append(idempotency_key)
    return "\n".join(lines)


def sign(secret: str, method: str, raw_path: str, raw_query: str, timestamp: str, viewer: str, body: bytes, *,
         version: Version = "v2", idempotency_key: str = "") -> str:
    text = string_to_sign(method, raw_path, raw_query, timestamp, viewer, body, version=version,
                          idempotency_key=idempotency_key)
    return f"{version}={hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()}"
