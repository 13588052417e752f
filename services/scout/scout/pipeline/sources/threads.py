"""Meta Threads keyword search (GET /keyword_search), one page per request."""

from __future__ import annotations

from datetime import datetime

import httpx

from scout.pipeline.identity import post_identity, shortcode_identity
from scout.pipeline.sources.base import RawCandidate, SearchPage, SourceUnavailable, get_json

FIELDS = "id,text,permalink,shortcode,timestamp,username"


def parse_threads_time(value: object) -> datetime | None:
    """Threads writes 2023-10-17T05:42:03+0000; anything else is unknown."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%S%z")
    except ValueError:
        return None


class ThreadsSource:
    name = "threads"

    def __init__(self, *, base_url: str, access_token: str, search_type: str, timeout: float,
                 transport: httpx.BaseTransport | None = None) -> None:
        self._url = base_url.rstrip("/") + "/keyword_search"
        self._token = access_token
        self._search_type = search_type
        self._timeout = timeout
        self._transport = transport

    def search(self, query: str, *, limit: int, cursor: str | None = None) -> SearchPage:
        params = {"q": query, "search_type": self._search_type, "fields": FIELDS, "limit": limit}
        if cursor:
            params["after"] = cursor
        # The token travels in a header, so no URL that reaches a log carries it.
        headers = {"Authorization": f"Bearer {self._token}"}
        body = get_json(self.name, self._url, params=params, headers=headers, timeout=self._timeout,
                        transport=self._transport)
        try:
            items = body["data"]
            if not isinstance(items, list):
                raise TypeError("data is not a list")
            candidates = [c for c in (self._candidate(item) for item in items) if c is not None]
            paging = body.get("paging") or {}
            after = (paging.get("cursors") or {}).get("after")
        except (ValueError, KeyError, TypeError, AttributeError):
            raise SourceUnavailable("threads: malformed response body") from None
        has_more = bool(items) and isinstance(after, str) and bool(after)
        return SearchPage(candidates=candidates, next_cursor=after if has_more else None)

    @staticmethod
    def _candidate(item: dict) -> RawCandidate | None:
        if not isinstance(item, dict):
            raise TypeError("item is not an object")
        username = item.get("username") if isinstance(item.get("username"), str) else ""
        permalink = item.get("permalink") if isinstance(item.get("permalink"), str) else ""
        identity = post_identity(permalink) if permalink else None
        if identity is None and isinstance(item.get("shortcode"), str):
            identity = shortcode_identity(item["shortcode"], username)
        url = identity.url if identity is not None and not permalink else permalink
        if not url:
            return None
        body = item.get("text") if isinstance(item.get("text"), str) else ""
        return RawCandidate(url=url, text=body, author=username,
                            posted_at=parse_threads_time(item.get("timestamp")))
