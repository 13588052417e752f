"""Meta Threads keyword search (GET /keyword_search), one page per request.

The user token travels as the `access_token` query parameter, as Meta documents it; no URL is ever
logged (see sources.http). Failures are read from the Graph error body: `{"error": {"code", ...}}`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import httpx

from scout.pipeline.identity import post_identity, shortcode_identity
from scout.pipeline.sources.base import (
    ANY_AGE,
    FailureKind,
    RawCandidate,
    SearchPage,
    SearchWindow,
    SourceUnavailable,
)
from scout.pipeline.sources.http import RetryPolicy, get_json, query_value, text_field

FIELDS = "id,text,permalink,shortcode,timestamp,username"
SEARCH_TYPES = ("TOP", "RECENT")

# Graph API error codes (developers.facebook.com, "Handling Errors" of the Graph API).
_AUTH_CODES = frozenset({102, 190})  # session or access token expired, revoked or invalid
_THROTTLE_CODES = frozenset({4, 17, 32, 341, 613})  # app, user, page and call-rate limits
_TRANSIENT_CODES = frozenset({1, 2})  # unknown error, service temporarily unavailable


def graph_error_kind(code: object) -> FailureKind | None:
    if not isinstance(code, int):
        return None
    if code in _AUTH_CODES:
        return FailureKind.AUTH
    if code == 10 or 200 <= code <= 299:
        return FailureKind.PERMISSION
    if code in _THROTTLE_CODES:
        return FailureKind.RATE_LIMITED
    if code in _TRANSIENT_CODES:
        return FailureKind.TRANSIENT
    return None


_BY_STATUS = {401: FailureKind.AUTH, 403: FailureKind.PERMISSION, 429: FailureKind.RATE_LIMITED}


def _by_status(status: int) -> FailureKind:
    return _BY_STATUS.get(status) or (FailureKind.TRANSIENT if status >= 500 else FailureKind.MALFORMED)


def classify_graph(status: int, body: Any) -> tuple[FailureKind, str] | None:
    """The kind of a Graph answer that is not a result page; None for a result page."""
    error = body.get("error") if isinstance(body, dict) else None
    if status == 200 and error is None:
        return None
    if not isinstance(error, dict):
        return _by_status(status), f"HTTP {status}"
    code, subcode = error.get("code"), error.get("error_subcode")
    detail = f"HTTP {status}, Graph error {code}" + (f"/{subcode}" if isinstance(subcode, int) else "")
    kind = graph_error_kind(code)
    if kind is None and error.get("is_transient") is True:
        kind = FailureKind.TRANSIENT
    return kind or _by_status(status), detail


def parse_threads_time(value: object) -> datetime | None:
    """Threads writes 2023-10-17T05:42:03+0000; anything else is unknown."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%S%z")
    except ValueError:
        return None


def _after_cursor(paging: object) -> str | None:
    """The cursor of the next page: `paging.cursors.after`, else the `after` of `paging.next`."""
    if not isinstance(paging, dict):
        return None
    after = (paging.get("cursors") or {}).get("after") if isinstance(paging.get("cursors"), dict) else None
    if not after and isinstance(paging.get("next"), str):
        after = query_value(paging["next"], "after")
    return after if isinstance(after, str) and after else None


class ThreadsSource:
    name = "threads"

    def __init__(self, *, base_url: str, access_token: str | Callable[[], str], search_type: str, timeout: float,
                 retry: RetryPolicy = RetryPolicy(), admit: Callable[[], Callable[[], None]] | None = None,
                 token_check: Callable[[], None] | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        """`access_token` is the token, or gives the current one (it may have been refreshed); `token_check()`
        raises the token self-check's failure; `admit()` takes one query from the shared budget
        (raising BudgetReached) and returns the refund of that query."""
        self._url = base_url.rstrip("/") + "/keyword_search"
        self._token = access_token if callable(access_token) else (lambda: access_token)
        self._search_type = search_type
        self._timeout = timeout
        self._retry = retry
        self._admit = admit
        self._token_check = token_check
        self._transport = transport

    def request_params(self, query: str, *, limit: int, cursor: str | None, window: SearchWindow) -> dict:
        params: dict = {"q": query, "search_type": "RECENT" if window.recent else self._search_type,
                        "fields": FIELDS, "limit": limit}
        if query.startswith("#") and len(query) > 1:
            # A topic tag: Threads searches tags with search_mode=TAG and the tag without its '#'.
            params["q"], params["search_mode"] = query[1:], "TAG"
        if window.since is not None:
            params["since"] = int(window.since.timestamp())
        if cursor:
            params["after"] = cursor
        return params

    def search(self, query: str, *, limit: int, cursor: str | None = None,
               window: SearchWindow = ANY_AGE) -> SearchPage:
        if self._token_check is not None:
            self._token_check()
        params = self.request_params(query, limit=limit, cursor=cursor, window=window)
        refunds: list[Callable[[], None]] = []

        def admit() -> None:
            if self._admit is not None:
                refunds.append(self._admit())

        body = get_json(self.name, self._url, params={**params, "access_token": self._token()},
                        timeout=self._timeout, classify=classify_graph, retry=self._retry, before_attempt=admit,
                        transport=self._transport)
        page = self.page(body)
        if refunds and not body["data"]:
            refunds[-1]()  # Meta counts a query against the 24-hour limit only when it finds something
        return page

    def page(self, body: Any) -> SearchPage:
        try:
            items = body["data"]
            if not isinstance(items, list):
                raise TypeError("data is not a list")
            candidates = [c for c in (self._candidate(item) for item in items) if c is not None]
            after = _after_cursor(body.get("paging"))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise SourceUnavailable(self.name, FailureKind.MALFORMED, "unexpected response shape") from None
        return SearchPage(candidates=candidates, next_cursor=after if items and after else None)

    @staticmethod
    def _candidate(item: dict) -> RawCandidate | None:
        if not isinstance(item, dict):
            raise TypeError("item is not an object")
        username, permalink = text_field(item, "username"), text_field(item, "permalink")
        identity = post_identity(permalink) if permalink else None
        if identity is None and isinstance(item.get("shortcode"), str):
            identity = shortcode_identity(item["shortcode"], username)
        url = identity.url if identity is not None and not permalink else permalink
        if not url:
            return None
        return RawCandidate(url=url, text=text_field(item, "text"), author=username,
                            posted_at=parse_threads_time(item.get("timestamp")))
