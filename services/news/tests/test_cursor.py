"""Keyset cursors: round trip, and every kind of tampering refused as VALIDATION_ERROR."""

from __future__ import annotations

import base64
import datetime as dt
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feeds_runtime.errors import InvalidArgument
from news.cursor import CursorCodec, Position

CODEC = CursorCodec(b"k" * 32)
SCOPE = CursorCodec.SUBSCRIPTION_FEED


@given(st.datetimes(min_value=dt.datetime(1971, 1, 1), max_value=dt.datetime(9000, 1, 1),
                    timezones=st.just(dt.UTC)), st.uuids())
def test_round_trip(at, post_id):
    token = CODEC.encode(SCOPE, Position(at, post_id))
    assert token.isascii() and "=" not in token and "+" not in token and "/" not in token
    assert CODEC.decode(SCOPE, token) == Position(at, post_id)


def test_empty_cursor_is_the_first_page():
    assert CODEC.decode(SCOPE, "") is None


@given(st.binary(min_size=1, max_size=60))
def test_random_tokens_are_refused(raw):
    with pytest.raises(InvalidArgument) as refused:
        CODEC.decode(SCOPE, base64.urlsafe_b64encode(raw).decode().rstrip("="))
    assert refused.value.reason == "VALIDATION_ERROR"


def test_flipped_bits_other_scopes_and_other_keys_are_refused():
    token = CODEC.encode(SCOPE, Position(dt.datetime.now(dt.UTC), uuid.uuid4()))
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    for index in range(len(raw)):
        flipped = bytearray(raw)
        flipped[index] ^= 0x01
        with pytest.raises(InvalidArgument):
            CODEC.decode(SCOPE, base64.urlsafe_b64encode(bytes(flipped)).decode().rstrip("="))
    with pytest.raises(InvalidArgument):
        CODEC.decode(CursorCodec.GLOBAL_FEED, token)
    with pytest.raises(InvalidArgument):
        CursorCodec(b"x" * 32).decode(SCOPE, token)
