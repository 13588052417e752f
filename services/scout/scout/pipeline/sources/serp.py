"""SerpApi's Google engine, restricted to Threads post URLs, one result page per request."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

from scout.pipeline.sources.base import RawCandidate, SearchPage, SourceUnavailable, get_json

SITE_FILTER = "(site:threads.net OR site:threads.com) inurl:post"
_DATE_FORMATS = ("%b %d, %Y", "%Y-%m-%d", "%d %b %Y", "%B %d, %Y")


def parse_serp_date(value: object) -> datetime | None:
    """Absolute dates only; relative ones ("3 days ago") are not reliable enough to keep."""
    if not isinstance(value, str):
        return None
    for pattern in _DATE_FORMATS:
        try:
            return datetime.strptime(value.strip(), pattern).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


class SerpSource:
    name = "serp"

    def __init__(self, *, base_url: str, api_key: str, timeout: float,
                 transport: httpx.BaseTransport | None = None) -> None:
        self._url = base_url.rstrip("/") + "/search.json"
        self._api_key = api_key
        self._timeout = timeout
        self._transport = transport

    def search(self, query: str, *, limit: int, cursor: str | None = None) -> SearchPage:
        start = int(cursor) if cursor and cursor.isdigit() else 0
        params = {"engine": "google", "q": f"{query} {SITE_FILTER}", "api_key": self._api_key,
                  "start": start, "num": limit}
        body = get_json(self.name, self._url, params=params, timeout=self._timeout, transport=self._transport)
        try:
            if not isinstance(body, dict):
                raise TypeError("body is not an object")
            results = body.get("organic_results")
            if results is None:
                # SerpApi answers 200 with {"error": "Google hasn't returned any results…"}
                # when a query has no (more) results: an empty page, not a failure.
                if "error" in body:
                    return SearchPage(candidates=[], next_cursor=None)
                raise KeyError("organic_results")
            if not isinstance(results, list):
                raise TypeError("organic_results is not a list")
            candidates = [c for c in (self._candidate(r) for r in results[:limit]) if c is not None]
            has_next = bool((body.get("serpapi_pagination") or {}).get("next"))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise SourceUnavailable("serp: malformed response body") from None
        next_start = start + len(results)
        return SearchPage(candidates=candidates, next_cursor=str(next_start) if has_next and results else None)

    @staticmethod
    def _candidate(result: dict) -> RawCandidate | None:
        if not isinstance(result, dict):
            raise TypeError("result is not an object")
        link = result.get("link")
        if not isinstance(link, str) or not link:
            return None
        snippet = result.get("snippet") if isinstance(result.get("snippet"), str) else ""
        title = result.get("title") if isinstance(result.get("title"), str) else ""
        return RawCandidate(url=link, text=snippet or title, author="",
                            posted_at=parse_serp_date(result.get("date")))
