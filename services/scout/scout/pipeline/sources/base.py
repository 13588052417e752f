"""What every search source answers: raw candidates in pages, or `SourceUnavailable`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import httpx

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


def get_json(source: str, url: str, *, params: dict, timeout: float, headers: dict | None = None,
             transport: httpx.BaseTransport | None = None) -> Any:
    """One GET to a live search provider, its JSON body decoded. Every way the provider can fail
    (timeout, connection, a non-200 status, a body that is not JSON) is that source unavailable."""
    try:
        with httpx.Client(timeout=timeout, transport=transport) as client:
            response = client.get(url, params=params, headers=headers)
    except httpx.TimeoutException:
        raise SourceUnavailable(f"{source}: timed out") from None
    except httpx.HTTPError as error:
        raise SourceUnavailable(f"{source}: {type(error).__name__}") from None
    if response.status_code != 200:
        raise SourceUnavailable(f"{source}: HTTP {response.status_code}")
    try:
        return response.json()
    except ValueError:
        raise SourceUnavailable(f"{source}: malformed response body") from None
