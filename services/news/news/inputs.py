"""Parsing of request fields into domain values. A malformed field is a VALIDATION_ERROR that
names the field, raised before anything is read or written."""

from __future__ import annotations

import uuid

from feeds_runtime.text import is_blank
from news.codes import invalid


def parse_uuid(value: str, field: str, *, allow_nil: bool = False) -> uuid.UUID:
    try:
        parsed = uuid.UUID(value)
    except (ValueError, AttributeError, TypeError):
        raise invalid(field, "must be a UUID") from None
    if parsed.int == 0 and not allow_nil:
        raise invalid(field, "must not be the empty UUID")
    return parsed


def optional_uuid(value: str | None, field: str) -> uuid.UUID | None:
    """None (absent) stays None; a present value must be a non-empty UUID."""
    return None if value is None else parse_uuid(value, field)


def page_limit(value: int | None, *, default: int, maximum: int) -> int:
    if value is None:
        return default
    if not 1 <= value <= maximum:
        raise invalid("limit", f"must be between 1 and {maximum}")
    return value


def text(value: str, field: str, *, maximum: int) -> str:
    stripped = value.strip()
    if is_blank(stripped):
        raise invalid(field, "must not be blank")
    # The length as sent, as the API documents it (spaces around count too).
    if len(value) > maximum:
        raise invalid(field, f"must be at most {maximum} characters")
    return stripped
