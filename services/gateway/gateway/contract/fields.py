"""Field types of the REST bodies: plain `str`/`int` to the renderers (and to mypy), with the JSON
Schema format the document shows."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import ConfigDict, WithJsonSchema

Uuid = Annotated[str, WithJsonSchema({"type": "string", "format": "uuid"})]
# RFC 3339, UTC.
DateTime = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]
# Unix nanoseconds, UTC; 0 when not known (scout).
Nanos = Annotated[int, WithJsonSchema({"type": "integer", "format": "int64", "minimum": 0})]

# A body has exactly its declared keys: the document says so (additionalProperties: false), so a key
# added to a renderer but not to its type fails the contract tests instead of reaching clients.
CLOSED = ConfigDict(extra="forbid")

# A path id: the document says UUID; the service that owns it refuses anything else as its own
# validation error (checked after authentication, which comes first).
UuidPath = Annotated[str, Path(json_schema_extra={"format": "uuid"})]
