"""News cursors: round trip, and a cursor refused as VALIDATION_ERROR when tampered with or replayed
on another list kind, by another subscriber or with another category filter."""

from __future__ import annotations

import base64
import datetime as dt
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feeds_runtime.errors import InvalidArgument
from news.cursor import Cursors, Listing, Position

CURSORS = Cursors(b"k" * 32)
MEMBER, OTHER, CATEGORY = uuid.UUID(int=1), uuid.UUID(int=2), uuid.UUID(int=3)
FEED = Listing.subscription_feed(MEMBER, None)


def refused(listing: Listing, token: str, cursors: Cursors = CURSORS) -> None:
    with pytest.raises(InvalidArgument) as error:
        cursors.decode(listing, token)
    assert error.value.reason == "VALIDATION_ERROR" and error.value.metadata == {"field": "cursor"}


@given(st.datetimes(min_value=dt.datetime(1971, 1, 1), max_value=dt.datetime(9000, 1, 1),
                    timezones=st.just(dt.UTC)), st.uuids())
def test_round_trip(at, post_id):
    token = CURSORS.encode(FEED, Position(at, post_id))
    assert token.isascii() and not set(token) & set("=+/")
    assert CURSORS.decode(FEED, token) == Position(at, post_id)


def test_empty_cursor_is_the_first_page():
    assert CURSORS.decode(FEED, "") is None


@given(st.binary(min_size=1, max_size=60))
def test_random_tokens_are_refused(raw):
    refused(FEED, base64.urlsafe_b64encode(raw).decode().rstrip("="))


def test_a_cursor_pages_only_the_list_member_and_category_it_was_issued_for():
    position = Position(dt.datetime.now(dt.UTC), uuid.uuid4())
    lists = [
        Listing.subscription_feed(MEMBER, None),
        Listing.subscription_feed(MEMBER, CATEGORY),
        Listing.subscription_feed(OTHER, None),
        Listing.subscription_feed(OTHER, CATEGORY),
        Listing.global_feed(None),
        Listing.global_feed(CATEGORY),
        Listing.subscriptions(MEMBER),
        Listing.subscriptions(OTHER),
    ]
    for issued in lists:
        token = CURSORS.encode(issued, position)
        assert CURSORS.decode(issued, token) == position
        for other in lists:
            if other != issued:
                refused(other, token)
        refused(issued, token, Cursors(b"x" * 32))
