"""A viewer's policy applied at read time: mutes hide an author's posts from the next read on, from
every source of a page (entries, pulled big accounts, history below the horizon), and bring them back
on unmute or expiry, without a job. Reads are checked against the plain recomputation
(Timeline.expected_home)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from devstack.processes import wait_for
from feeds_runtime.errors import InvalidArgument
from timeline.domain import MAX_MUTES_PER_VIEWER

from .conftest import WINDOW, Timeline, follow, users


def read(timeline: Timeline, viewer, limit: int = 2) -> list[uuid.UUID]:
    return [uuid.UUID(item.post_id) for item in timeline.all_home(viewer, limit)]


def test_a_mute_hides_every_source_at_once_and_an_unmute_brings_them_back(small: Timeline):
    viewer, pushed, big, fan = users(4)
    follow(small, viewer, pushed)
    follow(small, viewer, big)
    follow(small, fan, big)  # two followers: `big` is pulled
    # Given more pushed posts than the window (history below the horizon) and pulled posts
    for i in range(WINDOW + 2):
        small.publish(pushed, f"pushed {i}")
        small.publish(big, f"big {i}")
    own = small.publish(viewer, "own")
    small.drain()
    everything = read(small, viewer)
    assert len(everything) == 2 * (WINDOW + 2) + 1
    jobs_before = len(small.pending_jobs())
    # When the viewer mutes both authors
    for author in (pushed, big):
        small.policy(lambda p, a=author: p.mute(small.tenant, viewer, a, None))
    # Then the next read shows only its own post, at every page size, and no job was queued
    for limit in (1, 2, 100):
        assert read(small, viewer, limit) == [own.id] == small.expected_home(viewer)
    assert len(small.pending_jobs()) == jobs_before
    # and nobody else's timeline changed
    assert len(read(small, fan)) == WINDOW + 2
    # When one is unmuted, its posts are back at once
    small.policy(lambda p: p.unmute(small.tenant, viewer, big))
    assert read(small, viewer) == small.expected_home(viewer)
    assert len(read(small, viewer)) == WINDOW + 3
    small.policy(lambda p: p.unmute(small.tenant, viewer, pushed))
    assert read(small, viewer) == everything
    assert len(small.pending_jobs()) == jobs_before


def test_a_mute_with_an_end_expires_by_itself(timeline: Timeline):
    viewer, author = users(2)
    follow(timeline, viewer, author)
    post = timeline.publish(author, "later")
    timeline.drain()
    until = datetime.now(UTC) + timedelta(seconds=2)
    mute = timeline.policy(lambda p: p.mute(timeline.tenant, viewer, author, until))
    assert (mute.author_id, mute.until) == (author, until)
    assert read(timeline, viewer) == []
    assert [m.author_id for m in timeline.policy(lambda p: p.mutes_of(timeline.tenant, viewer))] == [author]
    # The post comes back when the end passes, with nothing else happening
    wait_for(lambda: read(timeline, viewer) == [post.id], "the mute to expire", timeout=10)
    assert timeline.policy(lambda p: p.mutes_of(timeline.tenant, viewer)) == []


def test_muting_again_replaces_the_end(timeline: Timeline):
    viewer, author = users(2)
    timeline.policy(lambda p: p.mute(timeline.tenant, viewer, author, datetime.now(UTC) + timedelta(hours=1)))
    again = timeline.policy(lambda p: p.mute(timeline.tenant, viewer, author, None))
    assert again.until is None
    assert [m.until for m in timeline.policy(lambda p: p.mutes_of(timeline.tenant, viewer))] == [None]


def test_bad_mutes_are_refused_and_change_nothing(timeline: Timeline):
    viewer, author = users(2)
    for until, who in [(None, viewer), (datetime.now(UTC) - timedelta(seconds=1), author)]:
        with pytest.raises(InvalidArgument) as refused:
            timeline.policy(lambda p, u=until, w=who: p.mute(timeline.tenant, viewer, w, u))
        assert refused.value.reason == "invalid_request"
    assert timeline.policy(lambda p: p.mutes_of(timeline.tenant, viewer)) == []


def test_a_viewer_mutes_a_bounded_number_of_authors(timeline: Timeline):
    viewer = uuid.uuid4()
    with timeline.database.transaction() as session:
        session.execute(text("INSERT INTO timeline.mutes (tenant_id, viewer_id, author_id) "
                             "SELECT :t, :v, gen_random_uuid() FROM generate_series(1, :n)"),
                        {"t": timeline.tenant, "v": viewer, "n": MAX_MUTES_PER_VIEWER})
    with pytest.raises(InvalidArgument) as refused:
        timeline.policy(lambda p: p.mute(timeline.tenant, viewer, uuid.uuid4(), None))
    assert refused.value.reason == "limit_exceeded"
    # A mute already held can still be changed
    held = timeline.policy(lambda p: p.mutes_of(timeline.tenant, viewer))[0].author_id
    timeline.policy(lambda p: p.mute(timeline.tenant, viewer, held, datetime.now(UTC) + timedelta(hours=1)))
    assert len(timeline.policy(lambda p: p.mutes_of(timeline.tenant, viewer))) == MAX_MUTES_PER_VIEWER


def test_mutes_belong_to_their_tenant(timeline_db, timeline_settings):
    one, two = Timeline(timeline_db, timeline_settings), Timeline(timeline_db, timeline_settings)
    viewer, author = users(2)
    for timeline in (one, two):
        follow(timeline, viewer, author)
        timeline.publish(author, "hello")
        timeline.drain()
    one.policy(lambda p: p.mute(one.tenant, viewer, author, None))
    assert read(one, viewer) == [] and len(read(two, viewer)) == 1
    assert two.policy(lambda p: p.mutes_of(two.tenant, viewer)) == []
