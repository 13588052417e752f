"""Opaque keyset cursors: a version byte and fixed-size payload fields (a `struct` layout), then a keyed
HMAC-SHA256 tag, in URL-safe base64 without padding.

The tag covers the codec's purpose, a binding context and the payload. The binding (for instance
tenant and viewer, or list kind, subscriber and filter) travels nowhere: the caller supplies it again
when decoding, so a cursor issued for one context fails in any other. Decoding is strict: one
spelling per cursor, exact length, tag, then version. Every failure raises the caller's own error and
tells nothing about which check refused it."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TypeVar

BindingValue = uuid.UUID | str | int | bytes | None
T = TypeVar("T")

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def micros(at: datetime) -> int:
    """An aware timestamp as whole microseconds since the epoch (a `q` payload field)."""
    return (at - _EPOCH) // _MICROSECOND


def from_micros(value: int) -> datetime:
    return _EPOCH + value * _MICROSECOND


def _binding_bytes(values: Sequence[BindingValue]) -> bytes:
    """An unambiguous encoding: each value typed and length-prefixed, so ("ab", "c") ≠ ("a", "bc")
    and None ≠ "" ≠ 0."""
    parts = []
    for value in values:
        if value is None:
            parts.append(b"n")
        elif isinstance(value, uuid.UUID):
            parts.append(b"u" + value.bytes)
        elif isinstance(value, bool) or not isinstance(value, (str, int, bytes)):
            raise TypeError(f"cannot bind a cursor to {type(value).__name__}")
        elif isinstance(value, int):
            parts.append(b"i" + value.to_bytes(16, "big", signed=True))
        else:
            raw = value.encode() if isinstance(value, str) else value
            parts.append((b"s" if isinstance(value, str) else b"b") + struct.pack(">I", len(raw)) + raw)
    return b"".join(parts)


class CursorCodec:
    """One cursor contract. `layout` is the payload's struct format without byte order (big-endian
    is used), e.g. "q16s" for (microseconds, UUID bytes); `invalid` builds the error raised for any
    cursor that does not decode."""

    def __init__(
        self, secret: bytes, *, purpose: str, layout: str, invalid: Callable[[], Exception],
        version: int = 1, tag_bytes: int = 16,
    ) -> None:
        if len(secret) < 16:
            raise ValueError("a cursor secret needs at least 16 bytes")
        if not 0 <= version <= 255 or not 8 <= tag_bytes <= 32:
            raise ValueError("version is one byte; the tag keeps 8..32 bytes of HMAC-SHA256")
        self._secret = secret
        self._purpose = _binding_bytes([purpose])
        self._version = version
        self._payload = struct.Struct(">B" + layout)
        self._tag_bytes = tag_bytes
        self._raw_length = self._payload.size + tag_bytes
        self._token_length = (self._raw_length * 4 + 2) // 3
        self._invalid = invalid

    def _tag(self, payload: bytes, binding: Sequence[BindingValue]) -> bytes:
        message = self._purpose + _binding_bytes(binding) + payload
        return hmac.new(self._secret, message, hashlib.sha256).digest()[: self._tag_bytes]

    def encode(self, fields: Sequence, binding: Sequence[BindingValue] = ()) -> str:
        payload = self._payload.pack(self._version, *fields)
        return base64.urlsafe_b64encode(payload + self._tag(payload, binding)).rstrip(b"=").decode("ascii")

    def decode(self, token: str, binding: Sequence[BindingValue] = ()) -> tuple:
        """The payload fields (version excluded) of a cursor this codec issued for `binding`."""
        return self.decode_as(token, binding, lambda *fields: fields)

    def decode_as(self, token: str, binding: Sequence[BindingValue], read: Callable[..., T]) -> T:
        """`read(*fields)` of a cursor this codec issued for `binding`. A payload `read` cannot turn
        into a position (a time out of range, an id of the wrong shape) is refused like a bad tag:
        a cursor forged with a leaked or default key still never reaches the database as garbage."""
        if not token.isascii() or len(token) != self._token_length:
            raise self._invalid()
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            raise self._invalid() from None
        # One spelling per cursor: unused trailing bits or stray characters make another token.
        if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != token or len(raw) != self._raw_length:
            raise self._invalid()
        payload, tag = raw[: self._payload.size], raw[self._payload.size :]
        if not hmac.compare_digest(tag, self._tag(payload, binding)):
            raise self._invalid()
        version, *fields = self._payload.unpack(payload)
        if version != self._version:
            raise self._invalid()
        try:
            return read(*fields)
        except (ValueError, OverflowError, TypeError):
            raise self._invalid() from None
