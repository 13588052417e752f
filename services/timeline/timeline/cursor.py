"""Opaque home-timeline cursors: version, the last entry's (ranked_at, id), and an HMAC tag bound to
the tenant and viewer, in URL-safe base64 without padding. A cursor that was altered, forged, issued
to another viewer or tenant, or comes from another contract fails to decode."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from feeds_runtime.errors import InvalidArgument

VERSION = 1
_BODY = struct.Struct(">Bq16s")  # version, ranked_at in microseconds since the epoch, entry id
_TAG_BYTES = 16
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Position:
    ranked_at: datetime
    entry_id: uuid.UUID


def _tag(secret: bytes, tenant_id: uuid.UUID, viewer_id: uuid.UUID, body: bytes) -> bytes:
    scope = b"timeline.home|" + tenant_id.bytes + viewer_id.bytes
    return hmac.new(secret, scope + body, hashlib.sha256).digest()[:_TAG_BYTES]


def encode(secret: bytes, tenant_id: uuid.UUID, viewer_id: uuid.UUID, position: Position) -> str:
    micros = (position.ranked_at - _EPOCH) // timedelta(microseconds=1)
    body = _BODY.pack(VERSION, micros, position.entry_id.bytes)
    return base64.urlsafe_b64encode(body + _tag(secret, tenant_id, viewer_id, body)).rstrip(b"=").decode()


def decode(secret: bytes, tenant_id: uuid.UUID, viewer_id: uuid.UUID, cursor: str) -> Position:
    invalid = InvalidArgument("invalid_cursor", "cursor is not a next_cursor issued for this timeline")
    expected_length = _BODY.size + _TAG_BYTES
    if not cursor.isascii() or len(cursor) != (expected_length * 4 + 2) // 3:
        raise invalid
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError):
        raise invalid from None
    # One spelling per cursor: the decoded bytes must re-encode to exactly what was sent.
    canonical = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    body, tag = raw[: _BODY.size], raw[_BODY.size:]
    if canonical != cursor or len(raw) != expected_length or not hmac.compare_digest(tag, _tag(secret, tenant_id, viewer_id, body)):
        raise invalid
    version, micros, entry_id = _BODY.unpack(body)
    if version != VERSION:
        raise invalid
    return Position(_EPOCH + timedelta(microseconds=micros), uuid.UUID(bytes=entry_id))
