"""The host request signature (docs/architecture.md, "Host signing"): HMAC-SHA256 over the method,
the raw path and query exactly as sent, the timestamp, the viewer and the body's SHA-256. The gateway
verifies it; host clients (tests, benchmarks, tools) compute it with the same function."""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_VERSION = "v1"


def string_to_sign(method: str, raw_path: str, raw_query: str, timestamp: str, viewer: str, body: bytes) -> str:
    return "\n".join([method.upper(), raw_path, raw_query, timestamp, viewer, hashlib.sha256(body).hexdigest()])


def sign(secret: str, method: str, raw_path: str, raw_query: str, timestamp: str, viewer: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), string_to_sign(method, raw_path, raw_query, timestamp, viewer, body).encode(),
                      hashlib.sha256).hexdigest()
    return f"{SIGNATURE_VERSION}={digest}"
