"""The shared cursor codec: round trips, and every altered, re-spelled, foreign or differently bound
cursor refused with the caller's own error."""

from __future__ import annotations

import base64
import uuid
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from feeds_runtime.cursors import CursorCodec, from_micros, micros


class Refused(Exception):
    pass


def codec(secret: bytes = b"k" * 32, *, purpose: str = "test.list", version: int = 1) -> CursorCodec:
    return CursorCodec(secret, purpose=purpose, layout="q16s", version=version, invalid=Refused)


CODEC = codec()
BINDING = ("feed", uuid.UUID(int=7), None)


def encode(at: datetime, item: uuid.UUID, binding=BINDING, using: CursorCodec = CODEC) -> str:
    return using.encode((micros(at), item.bytes), binding)


def raw(token: str) -> bytes:
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))


def spell(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@given(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)),
       st.uuids())
def test_round_trip_is_url_safe_and_unpadded(at, item):
    token = encode(at, item)
    assert token.isascii() and not set(token) & set("=+/")
    at_micros, item_bytes = CODEC.decode(token, BINDING)
    assert (from_micros(at_micros), uuid.UUID(bytes=item_bytes)) == (at, item)


@given(st.text(max_size=80))
def test_arbitrary_text_is_refused(token):
    with pytest.raises(Refused):
        CODEC.decode(token, BINDING)


def test_every_flipped_bit_and_every_truncation_is_refused():
    token = encode(datetime.now(UTC), uuid.uuid4())
    data = raw(token)
    for index in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[index] ^= 1 << bit
            with pytest.raises(Refused):
                CODEC.decode(spell(bytes(flipped)), BINDING)
    for cut in range(len(token)):
        with pytest.raises(Refused):
            CODEC.decode(token[:cut], BINDING)


def test_another_spelling_of_the_same_bytes_is_refused():
    token = encode(datetime.now(UTC), uuid.uuid4())
    for variant in (token + "=" * (-len(token) % 4), token + "\n", " " + token, token[:5] + "." + token[5:]):
        with pytest.raises(Refused):
            CODEC.decode(variant, BINDING)
    # The last character's unused low bits must be zero.
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = alphabet.index(token[-1])
    for other in alphabet:
        if other != token[-1] and alphabet.index(other) >> 2 == last >> 2:
            with pytest.raises(Refused):
                CODEC.decode(token[:-1] + other, BINDING)


def test_the_binding_purpose_key_and_version_are_all_checked():
    at, item = datetime.now(UTC), uuid.uuid4()
    token = encode(at, item)
    other_bindings = [
        ("feed", uuid.UUID(int=8), None),        # another subscriber
        ("feed", uuid.UUID(int=7), uuid.uuid4()),  # a filter where there was none
        ("list", uuid.UUID(int=7), None),        # another list
        ("feed", uuid.UUID(int=7)),              # fewer values
        ("feed", uuid.UUID(int=7), ""),          # "" is not None
        (),
    ]
    for binding in other_bindings:
        with pytest.raises(Refused):
            CODEC.decode(token, binding)
    for other in (codec(b"x" * 32), codec(purpose="test.other"), codec(version=2)):
        with pytest.raises(Refused):
            other.decode(token, BINDING)
    # Adjacent values cannot be re-split into another binding with the same bytes.
    split = CODEC.encode((0, item.bytes), ("ab", "c"))
    with pytest.raises(Refused):
        CODEC.decode(split, ("a", "bc"))


def test_a_weak_secret_or_unbindable_value_is_a_programming_error():
    with pytest.raises(ValueError):
        codec(b"short")
    with pytest.raises(TypeError):
        CODEC.encode((0, bytes(16)), (1.5,))


@pytest.mark.parametrize("at_micros", [2**63 - 1, -(2**63), 253402300800 * 10**6, -62135596800 * 10**6 - 1])
def test_a_correctly_signed_cursor_whose_time_is_out_of_range_is_refused(at_micros):
    # Given a cursor signed with the right key (as one forged with a leaked or default key would be)
    token = CODEC.encode((at_micros, uuid.uuid4().bytes), BINDING)
    # When it is read as a position, then it is refused like any other bad cursor, not an overflow
    with pytest.raises(Refused):
        CODEC.decode_as(token, BINDING, lambda at, item: (from_micros(at), uuid.UUID(bytes=item)))
