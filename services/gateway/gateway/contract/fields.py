"""Field types of the REST bodies: plain `str`/`int` to the renderers (and to mypy), with the JSON
Schema format the document shows; and the text rules of request fields as JSON Schema patterns, each
the document's statement of the rule the owning service applies (feeds_runtime.text)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Path
from pydantic import ConfigDict, WithJsonSchema

from feeds_runtime.text import blank_class

Uuid = Annotated[str, WithJsonSchema({"type": "string", "format": "uuid"})]
# RFC 3339, UTC.
DateTime = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]
# Unix nanoseconds, UTC; 0 when not known (scout).
Nanos = Annotated[int, WithJsonSchema({"type": "integer", "format": "int64", "minimum": 0})]

# A body has exactly its declared keys: the document says so (additionalProperties: false), so a key
# added to a renderer but not to its type fails the contract tests instead of reaching clients.
CLOSED = ConfigDict(extra="forbid")

NIL_UUID = "00000000-0000-0000-0000-000000000000"
# A path id: the document says UUID; the service that owns it refuses anything else as its own
# validation error (checked after authentication, which comes first).
UuidPath = Annotated[str, Path(json_schema_extra={"format": "uuid"})]
# News refuses the nil UUID as an id (docs/news.md).
NewsUuidPath = Annotated[str, Path(json_schema_extra={"format": "uuid", "not": {"const": NIL_UUID}})]

# A time a request gives (timeline), RFC 3339 with its offset; the route parses it.
RFC3339 = "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"

# A timeline label as the timeline service accepts it (timeline.domain.LABEL_PATTERN; a test holds
# the two equal).
LABEL_PATTERN = "^[a-z0-9][a-z0-9_-]{0,31}$"
LabelPath = Annotated[str, Path(json_schema_extra={"pattern": LABEL_PATTERN, "maxLength": 32})]

# Cc: what scout calls a control character (PostgreSQL cannot store the first of them, NUL, at all).
_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f"


def visible_text() -> str:
    """Timeline and news text: at least one character a reader sees, and no NUL."""
    return f"^[^\\u0000]*[^{blank_class()}\\u0000][^\\u0000]*$"


def printable_text() -> str:
    """Scout text: trimmed, at least one visible character and no control character."""
    return f"^\\s*[^{_CONTROL}]*[^{blank_class()}{_CONTROL}][^{_CONTROL}]*\\s*$"


def printable_or_blank() -> str:
    """Optional scout text: blank (then unset), or printable."""
    return f"^\\s*[^{_CONTROL}]*\\s*$"


def no_nul() -> str:
    return "^[^\\u0000]*$"


def pattern(rule: Callable[[], str], **more: Any) -> Callable[[dict[str, Any]], None]:
    """A field's `json_schema_extra`: the rule's pattern, built when the document is (the blank
    characters are found by scanning Unicode once), and any other keywords."""

    def extra(schema: dict[str, Any]) -> None:
        schema.update(pattern=rule(), **more)

    return extra

