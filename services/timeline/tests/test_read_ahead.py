"""The first batch of a filtered home read is sized by what the viewer's last page saw."""

from __future__ import annotations

import uuid

from timeline.read_ahead import ReadAhead

TENANT = uuid.uuid4()


def test_a_viewer_not_seen_reads_what_it_wants_first() -> None:
    assert ReadAhead(capacity=10).first_batch(TENANT, uuid.uuid4(), 51, 1000) == 51


def test_the_share_the_last_page_kept_sizes_the_next_first_batch() -> None:
    # Given a viewer whose last page examined 250 entries to keep 50
    read_ahead, viewer = ReadAhead(capacity=10), uuid.uuid4()
    read_ahead.learn(TENANT, viewer, 250, 50)
    # Then its next page reads five entries per one it wants, with room, within the bound
    assert 255 < read_ahead.first_batch(TENANT, viewer, 51, 1000) <= 300
    assert read_ahead.first_batch(TENANT, viewer, 51, 200) == 200
    # And another tenant's viewer of the same id is not that viewer
    assert read_ahead.first_batch(uuid.uuid4(), viewer, 51, 1000) == 51


def test_a_page_that_kept_nothing_reads_up_to_the_bound_next() -> None:
    read_ahead, viewer = ReadAhead(capacity=10), uuid.uuid4()
    read_ahead.learn(TENANT, viewer, 1000, 0)
    assert read_ahead.first_batch(TENANT, viewer, 51, 1000) == 1000


def test_the_least_recently_read_viewer_is_forgotten_past_the_capacity() -> None:
    read_ahead = ReadAhead(capacity=2)
    first, second, third = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    for viewer in (first, second, third):
        read_ahead.learn(TENANT, viewer, 100, 10)
    assert read_ahead.first_batch(TENANT, first, 11, 1000) == 11
    assert read_ahead.first_batch(TENANT, third, 11, 1000) > 11
