"""Tables of the timeline schema."""

from __future__ import annotations

from feeds_runtime.db import declarative_base
from feeds_runtime.outbox import outbox_table

SCHEMA = "timeline"

Base = declarative_base(SCHEMA)

outbox = outbox_table(Base.metadata)
