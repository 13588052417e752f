"""Domain values on the wire: RFC 3339 UTC timestamps, UUIDs as strings, empty for none."""

from __future__ import annotations

import datetime as dt
import uuid


def timestamp(value: dt.datetime | None) -> str:
    if value is None:
        return ""
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def uuid_text(value: uuid.UUID | None) -> str:
    return "" if value is None else str(value)


def optional(message, field: str) -> str | None:
    """A proto3 `optional` string field: None when unset."""
    return getattr(message, field) if message.HasField(field) else None
