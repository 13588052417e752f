"""SerpApi's Google engine, restricted to Threads post URLs, one result page per request.

Requests are shaped for Traditional-Chinese Taiwan (interface language, country, Google domain and
result language). Google ignores `num` since September 2025, so none is sent: a page holds what
Google gives (about 10) and the next one starts where SerpApi's pagination says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from scout.pipeline.sources.base import (
    ANY_AGE,
    FailureKind,
    RawCandidate,
    SearchPage,
    SearchWindow,
    SourceUnavailable,
)
from scout.pipeline.sources.http import RetryPolicy, get_json, query_value, text_field

SITE_FILTER = "(site:threads.net OR site:threads.com) inurl:post"
LOCALE = {"hl": "zh-tw", "gl": "tw", "google_domain": "google.com.tw", "lr": "lang_zh-TW"}
# Google's recency filters (tbs=qdr:…): the narrowest that still covers the brief's window.
_RECENCY = ((timedelta(hours=1), "qdr:h"), (timedelta(days=1), "qdr:d"), (timedelta(days=7), "qdr:w"),
            (timedelta(days=31), "qdr:m"), (timedelta(days=366), "qdr:y"))
# SerpApi answers 200 with this error when Google found nothing (more): an empty page, not a failure.
_NO_RESULTS = "hasn't returned any results"
# Its 429 means either the hourly throughput limit or an account out of searches; the text tells which.
_OUT_OF_SEARCHES = re.compile(r"run out of searches|searches for the month|upgrade your plan|plan searches", re.I)

_ABSOLUTE_FORMATS = ("%b %d, %Y", "%Y-%m-%d", "%d %b %Y", "%B %d, %Y", "%Y年%m月%d日")
_RELATIVE = re.compile(
    r"^\s*(\d+)\s*(?:(秒|分鐘|分|小時|天|日|週|周|星期|個月|月|年)前"
    r"|(second|sec|minute|min|hour|hr|day|week|month|year)s?\s+ago)\s*$", re.I)
_UNIT = {
    "秒": timedelta(seconds=1), "second": timedelta(seconds=1), "sec": timedelta(seconds=1),
    "分鐘": timedelta(minutes=1), "分": timedelta(minutes=1), "minute": timedelta(minutes=1),
    "min": timedelta(minutes=1), "小時": timedelta(hours=1), "hour": timedelta(hours=1), "hr": timedelta(hours=1),
    "天": timedelta(days=1), "日": timedelta(days=1), "day": timedelta(days=1),
    "週": timedelta(weeks=1), "周": timedelta(weeks=1), "星期": timedelta(weeks=1), "week": timedelta(weeks=1),
    # A month or a year ago is approximate on Google's side too.
    "個月": timedelta(days=30), "月": timedelta(days=30), "month": timedelta(days=30),
    "年": timedelta(days=365), "year": timedelta(days=365),
}


def parse_serp_date(value: object, now: datetime) -> datetime | None:
    """Google's date of a result: absolute ("Oct 17, 2023", "2023年10月17日") or relative to the
    search ("3 天前", "5 hours ago", "昨天"), the latter counted back from `now`, the scan clock."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text in ("昨天", "yesterday", "Yesterday"):
        return now - timedelta(days=1)
    relative = _RELATIVE.match(text)
    if relative:
        count, unit = int(relative.group(1)), (relative.group(2) or relative.group(3)).lower()
        return now - count * _UNIT[unit]
    for pattern in _ABSOLUTE_FORMATS:
        try:
            return datetime.strptime(text, pattern).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def recency_filter(window: SearchWindow) -> str | None:
    if window.since is None:
        return None
    span = window.clock() - window.since
    return next((value for limit, value in _RECENCY if span <= limit), None)


def classify_serp(status: int, body: Any) -> tuple[FailureKind, str] | None:
    """SerpApi's HTTP status, with its JSON `error` and `search_metadata.status`."""
    message = text_field(body, "error") if isinstance(body, dict) else ""
    if status == 200:
        metadata = body.get("search_metadata") if isinstance(body, dict) else None
        if isinstance(metadata, dict) and metadata.get("status") == "Error" and _NO_RESULTS not in message:
            return FailureKind.TRANSIENT, "search status Error"
        return None
    if status == 401:
        return FailureKind.AUTH, "HTTP 401 (invalid API key)"
    if status == 403:
        return FailureKind.PERMISSION, "HTTP 403 (account not allowed)"
    if status == 429:
        if _OUT_OF_SEARCHES.search(message):
            return FailureKind.QUOTA_EXHAUSTED, "HTTP 429 (account out of searches)"
        return FailureKind.RATE_LIMITED, "HTTP 429 (hourly throughput limit)"
    if status >= 500:
        return FailureKind.TRANSIENT, f"HTTP {status}"
    return FailureKind.MALFORMED, f"HTTP {status}"


def _next_start(pagination: object, start: int, returned: int) -> int | None:
    """Where the next page starts, as SerpApi's pagination says; None on the last page."""
    if not isinstance(pagination, dict) or not isinstance(pagination.get("next"), str):
        return None
    value = query_value(pagination["next"], "start")
    if value is not None and value.isdigit() and int(value) > start:
        return int(value)
    return start + returned if returned else None


class SerpSource:
    name = "serp"

    def __init__(self, *, base_url: str, api_key: str, timeout: float, retry: RetryPolicy = RetryPolicy(),
                 admit: Callable[[], Callable[[], None]] | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        """`admit()` takes one search from the shared hourly budget (raising BudgetReached)."""
        self._url = base_url.rstrip("/") + "/search.json"
        self._api_key = api_key
        self._timeout = timeout
        self._retry = retry
        self._admit = admit
        self._transport = transport

    def request_params(self, query: str, *, cursor: str | None, window: SearchWindow) -> dict:
        start = int(cursor) if cursor and cursor.isdigit() else 0
        params: dict = {"engine": "google", "q": f"{query} {SITE_FILTER}", **LOCALE}
        if start:
            params["start"] = start
        if tbs := recency_filter(window):
            params["tbs"] = tbs
        return params

    def search(self, query: str, *, limit: int, cursor: str | None = None,
               window: SearchWindow = ANY_AGE) -> SearchPage:
        params = self.request_params(query, cursor=cursor, window=window)

        def admit() -> None:
            if self._admit is not None:
                self._admit()

        body = get_json(self.name, self._url, params={**params, "api_key": self._api_key}, timeout=self._timeout,
                        classify=classify_serp, retry=self._retry,
                        before_attempt=admit, transport=self._transport)
        return self.page(body, start=params.get("start", 0), limit=limit, now=window.clock())

    def page(self, body: Any, *, start: int, limit: int, now: datetime) -> SearchPage:
        try:
            if not isinstance(body, dict):
                raise TypeError("body is not an object")
            results = body.get("organic_results")
            if results is None:
                if _NO_RESULTS in str(body.get("error", "")) or (body.get("search_information") or {}).get(
                        "organic_results_state") == "Fully empty":
                    return SearchPage(candidates=[], next_cursor=None)
                raise KeyError("organic_results")
            if not isinstance(results, list):
                raise TypeError("organic_results is not a list")
            candidates = [c for c in (self._candidate(r, now) for r in results[:limit]) if c is not None]
            after = _next_start(body.get("serpapi_pagination"), start, len(results))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise SourceUnavailable(self.name, FailureKind.MALFORMED, "unexpected response shape") from None
        return SearchPage(candidates=candidates, next_cursor=str(after) if after is not None and results else None)

    @staticmethod
    def _candidate(result: dict, now: datetime) -> RawCandidate | None:
        if not isinstance(result, dict):
            raise TypeError("result is not an object")
        link = result.get("link")
        if not isinstance(link, str) or not link:
            return None
        return RawCandidate(url=link, text=text_field(result, "snippet") or text_field(result, "title"), author="",
                            posted_at=parse_serp_date(result.get("date"), now))
