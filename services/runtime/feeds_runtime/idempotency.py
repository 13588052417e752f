"""An `Idempotency-Key` as the gateway and the services take it (docs/architecture.md,
"Idempotency-Key"): the one rule for a valid key, and the fingerprint a service keeps beside the key
to tell a retry of the same request from another request under it."""

from __future__ import annotations

import hashlib
import json

MAX_KEY_CHARS = 255
KEY_RULE = f"1 to {MAX_KEY_CHARS} printable ASCII characters"


def valid_key(key: str) -> bool:
    return 0 < len(key) <= MAX_KEY_CHARS and key.isascii() and key.isprintable()


def request_fingerprint(*parts: object) -> str:
    """SHA-256 of the JSON of what makes a request this request (as the service reads it)."""
    return hashlib.sha256(json.dumps(list(parts), sort_keys=True).encode()).hexdigest()
