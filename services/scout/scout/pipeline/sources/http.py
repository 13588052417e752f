"""One GET to a live search provider: its JSON body, or a typed failure. Throttling and transient
failures are retried with jittered exponential backoff (and never sooner than the provider's
Retry-After); every other kind fails at once, since asking again cannot help."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_random_exponential

from scout.pipeline.sources.base import FailureKind, SourceUnavailable

log = logging.getLogger(__name__)

# httpx logs every request URL at INFO, and both providers take their credential in the query string.
logging.getLogger("httpx").setLevel(logging.WARNING)

# A provider's verdict on one answer: None when it is a success, else the failure's kind and a
# safe description (status and provider codes, never the provider's free text or the request).
Classifier = Callable[[int, Any], "tuple[FailureKind, str] | None"]


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 3
    base_seconds: float = 0.5
    max_seconds: float = 8.0


def text_field(item: dict, key: str) -> str:
    """A text field of a provider's JSON object: '' when it is absent or not text."""
    value = item.get(key)
    return value if isinstance(value, str) else ""


def query_value(url: str, name: str) -> str | None:
    """The first value of a query parameter of a provider's URL (a next page's cursor)."""
    values = parse_qs(urlsplit(url).query).get(name)
    return values[0] if values else None


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """Retry-After as seconds (RFC 9110: a delay in seconds or an HTTP date)."""
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        return max((parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds(), 0.0)
    except (TypeError, ValueError):
        return None


def _once(source: str, url: str, params: dict, headers: dict | None, timeout: float, classify: Classifier,
          transport: httpx.BaseTransport | None) -> Any:
    try:
        with httpx.Client(timeout=timeout, transport=transport) as client:
            response = client.get(url, params=params, headers=headers)
    except httpx.TimeoutException:
        raise SourceUnavailable(source, FailureKind.TRANSIENT, "timed out") from None
    except httpx.HTTPError as error:  # its text holds the URL, so only its type is kept
        raise SourceUnavailable(source, FailureKind.TRANSIENT, type(error).__name__) from None
    try:
        body = response.json()
    except ValueError:
        body = None
    verdict = classify(response.status_code, body)
    if verdict is not None:
        kind, detail = verdict
        raise SourceUnavailable(source, kind, detail, retry_after=retry_after_seconds(response.headers))
    if body is None:
        raise SourceUnavailable(source, FailureKind.MALFORMED, f"HTTP {response.status_code} body is not JSON")
    return body


def _worth_retrying(error: BaseException, policy: RetryPolicy) -> bool:
    """Throttling or a transient failure, unless the provider asks for a longer wait than a scan can spend."""
    if not isinstance(error, SourceUnavailable) or not error.retryable:
        return False
    return error.retry_after is None or error.retry_after <= policy.max_seconds


def get_json(source: str, url: str, *, params: dict, timeout: float, classify: Classifier,
             retry: RetryPolicy = RetryPolicy(), headers: dict | None = None,
             before_attempt: Callable[[], None] | None = None,
             transport: httpx.BaseTransport | None = None) -> Any:
    """The decoded body of a successful answer. `before_attempt` runs before every attempt (the
    quota governor's admission, which may raise BudgetReached: never retried)."""
    jitter = wait_random_exponential(multiplier=retry.base_seconds, max=retry.max_seconds)

    def failure(state: RetryCallState) -> BaseException | None:
        return state.outcome.exception() if state.outcome else None

    def wait(state: RetryCallState) -> float:
        error = failure(state)
        asked = getattr(error, "retry_after", None) or 0.0
        return min(max(asked, jitter(state)), retry.max_seconds)

    def before_sleep(state: RetryCallState) -> None:
        log.warning("scout source %s; retrying in %.1fs", failure(state), state.upcoming_sleep)

    def attempt() -> Any:
        if before_attempt is not None:
            before_attempt()
        return _once(source, url, params, headers, timeout, classify, transport)

    retrying = Retrying(
        stop=stop_after_attempt(retry.attempts), wait=wait, reraise=True, before_sleep=before_sleep,
        retry=retry_if_exception(lambda error: _worth_retrying(error, retry)),
    )
    return retrying(attempt)
