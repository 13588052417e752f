"""News' keyset cursors (feeds_runtime.cursors): the (time, id) of a page's last item, bound to the
list it pages: its kind, the subscriber where the list is personal, and the category filter. A cursor
replayed on another list, by another member or with another categoryId is a VALIDATION_ERROR, never
a page."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from feeds_runtime.cursors import CursorCodec, from_micros, micros
from news.codes import invalid


@dataclass(frozen=True)
class Position:
    """The last item of a page: the next page starts strictly after it."""

    at: dt.datetime
    id: uuid.UUID


@dataclass(frozen=True)
class Listing:
    """The list a cursor belongs to."""

    kind: str
    subscriber: uuid.UUID | None = None
    category: uuid.UUID | None = None

    @classmethod
    def subscription_feed(cls, subscriber: uuid.UUID, category: uuid.UUID | None) -> Listing:
        return cls("subscription-feed", subscriber, category)

    @classmethod
    def global_feed(cls, category: uuid.UUID | None) -> Listing:
        return cls("global-feed", None, category)

    @classmethod
    def subscriptions(cls, subscriber: uuid.UUID) -> Listing:
        return cls("subscriptions", subscriber)


class Cursors:
    def __init__(self, secret: bytes) -> None:
        self._codec = CursorCodec(secret, purpose="news.cursor", layout="q16s",
                                  invalid=lambda: invalid("cursor", "is malformed or belongs to another list"))

    def encode(self, listing: Listing, position: Position) -> str:
        return self._codec.encode((micros(position.at), position.id.bytes),
                                  (listing.kind, listing.subscriber, listing.category))

    def decode(self, listing: Listing, token: str) -> Position | None:
        """The position a cursor names; None for an empty cursor (the first page)."""
        if not token:
            return None
        return self._codec.decode_as(token, (listing.kind, listing.subscriber, listing.category),
                                     lambda at, item: Position(from_micros(at), uuid.UUID(bytes=item)))
