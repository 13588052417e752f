"""Feed reading: limits, cursors and the empty-subscriptions case. Read-only."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from feeds_runtime.db import Executor
from news import codes
from news.cursor import Cursors, Listing
from news.domain import FeedItem, FeedPost, PostStatus
from news.feeds import repository
from news.inputs import optional_uuid, page_limit, parse_uuid
from news.subscriptions import repository as subscriptions
from news.subscriptions.service import ensure_enabled

DEFAULT_LIMIT = 20
MAX_LIMIT = 30


@dataclass(frozen=True)
class FeedPage:
    items: list[FeedItem]
    next_cursor: str
    has_more: bool


class FeedService:
    def __init__(self, cursors: Cursors, *, subscriptions_enabled: bool) -> None:
        self._cursors = cursors
        self._subscriptions_enabled = subscriptions_enabled

    def _page(self, listing: Listing, rows: list[FeedItem], limit: int) -> FeedPage:
        items, has_more = rows[:limit], len(rows) > limit
        next_cursor = self._cursors.encode(listing, items[-1].position) if has_more else ""
        return FeedPage(items, next_cursor, has_more)

    def subscription_feed(
        self, session: Executor, subscriber: uuid.UUID, cursor: str, limit: int | None, category_id: str | None
    ) -> tuple[FeedPage, bool]:
        """The page and whether the subscriber follows nothing (A1)."""
        ensure_enabled(self._subscriptions_enabled)
        size = page_limit(limit, default=DEFAULT_LIMIT, maximum=MAX_LIMIT)
        category = optional_uuid(category_id, "categoryId")
        listing = Listing.subscription_feed(subscriber, category)
        after = self._cursors.decode(listing, cursor)
        rows = repository.subscription_feed(session, subscriber, after, category, size + 1)
        empty_subscriptions = not rows and not subscriptions.has_active(session, subscriber)
        return self._page(listing, rows, size), empty_subscriptions

    def global_feed(self, session: Executor, cursor: str, limit: int | None, category_id: str | None) -> FeedPage:
        size = page_limit(limit, default=DEFAULT_LIMIT, maximum=MAX_LIMIT)
        category = optional_uuid(category_id, "categoryId")
        listing = Listing.global_feed(category)
        after = self._cursors.decode(listing, cursor)
        rows = repository.global_feed(session, after, category, size + 1)
        return self._page(listing, rows, size)

    def post(self, session: Executor, viewer: uuid.UUID | None, post_id: str) -> FeedPost:
        """A published post of an author or of a company that is not suspended, for anyone, as in both
        feeds (INV-REP-003, docs/news.md); any other post, a draft or a suspended company's, only for its writer."""
        found = repository.post(session, parse_uuid(post_id, "id"))
        readable = found is not None and found.status is PostStatus.PUBLISHED and found.company_status != "Suspended"
        if found is None or not (readable or found.created_by == viewer):
            raise codes.post_not_found()
        return found
