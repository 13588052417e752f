"""What every search source answers: raw candidates in pages, or a typed failure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Protocol

# Flow B: one search term asks one source for at most this many candidates per stage.
PAGE_LIMIT = 20


class FailureKind(StrEnum):
    """Why a source could not answer; what an operator does about it differs for each."""

    AUTH = "auth"  # the credential is missing, invalid, expired or about to expire: replace or refresh it
    PERMISSION = "permission"  # the credential lacks a permission the search needs (or the account is barred)
    RATE_LIMITED = "rate_limited"  # throttled for now: retried with backoff, then wait
    QUOTA_EXHAUSTED = "quota_exhausted"  # the account's allowance is used up: nothing helps until it renews
    TRANSIENT = "transient"  # the provider or the network failed: retried with backoff
    MALFORMED = "malformed"  # the provider refused the request or answered something unreadable


RETRYABLE = frozenset({FailureKind.RATE_LIMITED, FailureKind.TRANSIENT})


class SourceUnavailable(Exception):
    """The source could not answer, and why.

    `detail` is safe to log and store: it names the failure, never a token, a key or a header.
    """

    def __init__(self, source: str, kind: FailureKind, detail: str, *, retry_after: float | None = None) -> None:
        super().__init__(f"{source}: {kind}: {detail}")
        self.source = source
        self.kind = kind
        self.detail = detail
        # Seconds the provider asked to wait (Retry-After), when it said.
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind in RETRYABLE


class BudgetReached(Exception):
    """The shared query budget of a source is spent for now: the source is not asked again this run."""

    def __init__(self, source: str, detail: str) -> None:
        super().__init__(f"{source}: {detail}")
        self.source = source
        self.detail = detail


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


@dataclass(frozen=True)
class SearchWindow:
    """What a scan asks of the sources beyond its terms: only posts since `since` when the brief
    sets a window (None: any age; spec 004 lets age lower a score, never exclude a post), and the
    scan clock `now` that relative dates ("3 天前") count back from (None: the wall clock)."""

    since: datetime | None = None
    now: datetime | None = None

    @property
    def recent(self) -> bool:
        return self.since is not None

    def clock(self) -> datetime:
        return self.now if self.now is not None else datetime.now(UTC)


ANY_AGE = SearchWindow()


class SearchSource(Protocol):
    name: str

    def search(self, query: str, *, limit: int, cursor: str | None = None,
               window: SearchWindow = ANY_AGE) -> SearchPage:
        """One request: at most `limit` candidates for `query`, continuing after `cursor`.
        Raises SourceUnavailable, or BudgetReached when the shared budget allows no request."""
        ...
