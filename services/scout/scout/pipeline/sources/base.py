"""What every search source answers: raw candidates in pages, or `SourceUnavailable`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

# Flow B: one search term asks one source for at most this many candidates per stage.
PAGE_LIMIT = 20


class SourceUnavailable(Exception):
    """The source could not answer (refused, throttled, down, too slow or unreadable).

    The message is safe to log: it names the source and the failure, never a token or a header.
    """


@dataclass(frozen=True)
class RawCandidate:
    """One item as a source answered it: not yet normalized, deduplicated or judged."""

    url: str
    text: str
    author: str = ""
    posted_at: datetime | None = None


@dataclass(frozen=True)
class SearchPage:
    candidates: list[RawCandidate]
    # Opaque to the pipeline; None when the source has nothing after this page.
    next_cursor: str | None


class SearchSource(Protocol):
    name: str

    def search(self, query: str, *, limit: int, cursor: str | None = None) -> SearchPage:
        """One request: at most `limit` candidates for `query`, continuing after `cursor`."""
        ...
