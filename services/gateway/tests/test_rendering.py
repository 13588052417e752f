"""The gateway's fast rendering gives the same text as protobuf's own JSON formatting."""

from __future__ import annotations

from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import given
from hypothesis import strategies as st

from gateway.rendering import rfc3339

# Timestamp's valid range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
seconds = st.integers(-62_135_596_800, 253_402_300_799)
nanos = st.one_of(st.just(0), st.integers(1, 999).map(lambda n: n * 1_000_000),
                  st.integers(1, 999_999).map(lambda n: n * 1000), st.integers(0, 999_999_999))


@given(seconds, nanos)
def test_rfc3339_matches_protobuf(seconds: int, nanos: int) -> None:
    stamp = Timestamp(seconds=seconds, nanos=nanos)
    assert rfc3339(stamp) == stamp.ToJsonString()
