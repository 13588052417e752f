"""Subscribe, unsubscribe and list: the rules of UC-NWS-004 (docs/news.md). The caller owns the transaction."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.orm import Session

from feeds_runtime.db import Executor
from news import codes
from news.cursor import Cursors, Listing, Position
from news.inputs import page_limit, parse_uuid
from news.domain import Subscription, SubscriptionTarget
from news.subscriptions import repository
from news.subscriptions.target import subscription_target


@dataclass(frozen=True)
class Subscribed:
    subscription_id: uuid.UUID
    target: SubscriptionTarget
    created: bool


@dataclass(frozen=True)
class SubscriptionPage:
    items: list[Subscription]
    next_cursor: str
    has_more: bool


def ensure_enabled(enabled: bool) -> None:
    if not enabled:
        raise codes.subscriptions_disabled()


class SubscriptionService:
    def __init__(self, cursors: Cursors, *, enabled: bool) -> None:
        self._cursors = cursors
        self._enabled = enabled

    def subscribe(
        self, session: Session, subscriber: uuid.UUID, kind: str, target_user_id: str | None, target_company_id: str | None
    ) -> Subscribed:
        ensure_enabled(self._enabled)
        target = subscription_target(subscriber, kind, target_user_id, target_company_id)
        existing = repository.find_for_target(session, subscriber, target)
        if existing is None:
            created_id = repository.insert_unless_exists(session, subscriber, target)
            if created_id is not None:
                return Subscribed(created_id, target, created=True)
            # A concurrent subscribe won the unique key: answer with its row. ON CONFLICT DO NOTHING
            # waited for the winner to commit (had it rolled back, our insert would have gone in),
            # rows are never hard-deleted, and under READ COMMITTED this next statement sees every
            # committed row, so the winner's row is always there.
            existing = repository.winner_for_target(session, subscriber, target)
        if existing.deleted_at is not None:
            repository.reactivate(session, existing.id, subscriber)
        return Subscribed(existing.id, target, created=False)

    def unsubscribe(self, session: Session, subscriber: uuid.UUID, subscription_id: str) -> None:
        ensure_enabled(self._enabled)
        parsed = parse_uuid(subscription_id, "id")
        subscription = repository.get(session, parsed)
        if subscription is None:
            raise codes.subscription_not_found()
        if subscription.subscriber_user_id != subscriber:
            raise codes.subscription_forbidden()
        repository.soft_delete(session, parsed, subscriber)

    def list_active(self, session: Executor, subscriber: uuid.UUID, cursor: str, limit: int | None) -> SubscriptionPage:
        ensure_enabled(self._enabled)
        size = page_limit(limit, default=50, maximum=100)
        listing = Listing.subscriptions(subscriber)
        after = self._cursors.decode(listing, cursor)
        rows = repository.list_active(session, subscriber, after, size + 1)
        items, has_more = rows[:size], len(rows) > size
        next_cursor = (
            self._cursors.encode(listing, Position(items[-1].created_at, items[-1].id))
            if has_more
            else ""
        )
        return SubscriptionPage(items, next_cursor, has_more)
