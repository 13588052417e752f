"""Keyset cursors: URL-safe base64 of (version, scope, timestamp, id) and a keyed BLAKE2b tag.

The scope names the list a cursor belongs to, so a cursor of one list is refused by another; a
tampered, truncated or foreign cursor is a VALIDATION_ERROR, never a wrong page."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import struct
import uuid
from dataclasses import dataclass

from news.inputs import invalid

VERSION = 1
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_LAYOUT = struct.Struct(">BBq16s")  # version, scope, microseconds since the epoch, id
_TAG_BYTES = 12


@dataclass(frozen=True)
class Position:
    """The last item of a page: the next page starts strictly after it."""

    at: dt.datetime
    id: uuid.UUID


class CursorCodec:
    SUBSCRIPTION_FEED = 1
    GLOBAL_FEED = 2
    SUBSCRIPTIONS = 3

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _tag(self, payload: bytes) -> bytes:
        return hashlib.blake2b(payload, key=self._secret[:64], digest_size=_TAG_BYTES).digest()

    def encode(self, scope: int, position: Position) -> str:
        micros = (position.at - _EPOCH) // dt.timedelta(microseconds=1)
        payload = _LAYOUT.pack(VERSION, scope, micros, position.id.bytes)
        return base64.urlsafe_b64encode(payload + self._tag(payload)).rstrip(b"=").decode("ascii")

    def decode(self, scope: int, token: str) -> Position | None:
        """The position a cursor names; None for an empty cursor (the first page)."""
        if not token:
            return None
        malformed = invalid("cursor", "is malformed or belongs to another list")
        if len(token) > 64 or not token.isascii():
            raise malformed
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            raise malformed from None
        if len(raw) != _LAYOUT.size + _TAG_BYTES:
            raise malformed
        payload, tag = raw[: _LAYOUT.size], raw[_LAYOUT.size :]
        if not hmac.compare_digest(tag, self._tag(payload)):
            raise malformed
        version, cursor_scope, micros, id_bytes = _LAYOUT.unpack(payload)
        if version != VERSION or cursor_scope != scope:
            raise malformed
        try:
            at = _EPOCH + dt.timedelta(microseconds=micros)
        except OverflowError:
            raise malformed from None
        return Position(at=at, id=uuid.UUID(bytes=id_bytes))
