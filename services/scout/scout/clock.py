"""Wire time: UTC unix nanoseconds, 0 for "not known / not yet"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# A posted_at further ahead than this is a source's mistake, shown as unknown.
FUTURE_TOLERANCE = timedelta(minutes=10)


def to_ns(value: datetime | None) -> int:
    if value is None:
        return 0
    return (value - EPOCH) // timedelta(microseconds=1) * 1000


def known_posted_at(value: datetime | None, now: datetime) -> datetime | None:
    """posted_at only as the source could tell it: missing, epoch, naive or future values are unknown."""
    if value is None or value.tzinfo is None or value <= EPOCH or value > now + FUTURE_TOLERANCE:
        return None
    return value.astimezone(UTC)


def now_utc() -> datetime:
    return datetime.now(UTC)


def judging_now(fixed: datetime | None) -> datetime:
    """The instant a scan judges recency and posting times against: the configured one, else now."""
    return fixed if fixed is not None else datetime.now(UTC)
