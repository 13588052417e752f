"""The host request signature (docs/architecture.md, "Host signing"): HMAC-SHA256 over the method,
the raw path and query exactly as sent, the timestamp, the viewer and the body's SHA-256; `v2` adds
the Idempotency-Key header, so that a request's key cannot be swapped or stripped, and `v3` adds the
client's nonce (X-Activity-Nonce), which makes every request's signature its own and on which replay
protection keys. The gateway verifies every version; host clients (tests, benchmarks, tools) sign
with the same function."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Literal

Version = Literal["v1", "v2", "v3"]
VERSIONS: tuple[Version, ...] = ("v1", "v2", "v3")
NONCE_HEADER = "X-Activity-Nonce"
# 32 to 128 characters of the URL-safe base64 alphabet: 32 hex digits are 128 bits, the least a nonce holds.
NONCE_PATTERN = r"^[A-Za-z0-9_-]{32,128}$"
_NONCE = re.compile(NONCE_PATTERN)


def new_nonce() -> str:
    """A fresh nonce of 128 random bits, as 32 hex digits."""
    return secrets.token_hex(16)


def is_nonce(text: str) -> bool:
    return _NONCE.fullmatch(text) is not None


def string_to_sign(method: str, raw_path: str, raw_query: str, timestamp: str, viewer: str, body: bytes, *,
                   version: Version = "v2", idempotency_key: str = "", nonce: str = "") -> str:
    lines = [method.upper(), raw_path, raw_query, timestamp, viewer, hashlib.sha256(body).hexdigest()]
    if version in ("v2", "v3"):
        lines.append(idempotency_key)
    if version == "v3":
        if not is_nonce(nonce):
            raise ValueError("a v3 signature covers a nonce of 32 to 128 URL-safe base64 characters")
        lines.append(nonce)
    return "\n".join(lines)


def sign(secret: str, method: str, raw_path: str, raw_query: str, timestamp: str, viewer: str, body: bytes, *,
         version: Version = "v2", idempotency_key: str = "", nonce: str = "") -> str:
    text = string_to_sign(method, raw_path, raw_query, timestamp, viewer, body, version=version,
                          idempotency_key=idempotency_key, nonce=nonce)
    return f"{version}={hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()}"
