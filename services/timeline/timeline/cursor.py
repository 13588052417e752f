"""Opaque home-timeline cursors over the last entry's (ranked_at, id), on the shared keyset codec,
bound to the tenant and viewer: a cursor that was altered, forged, issued to another viewer or tenant,
or comes from another contract fails to decode as `invalid_cursor`."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from feeds_runtime.cursors import CursorCodec, from_micros, micros
from timeline import codes


@dataclass(frozen=True)
class Position:
    ranked_at: datetime
    entry_id: uuid.UUID


class HomeCursors:
    def __init__(self, secret: bytes) -> None:
        self._codec = CursorCodec(
            secret, purpose="timeline.home", layout="q16s",
            invalid=codes.invalid_cursor,
        )

    def encode(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, position: Position) -> str:
        return self._codec.encode((micros(position.ranked_at), position.entry_id.bytes), (tenant_id, viewer_id))

    def decode(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, token: str) -> Position:
        return self._codec.decode_as(token, (tenant_id, viewer_id),
                                     lambda at, entry_id: Position(from_micros(at), uuid.UUID(bytes=entry_id)))
