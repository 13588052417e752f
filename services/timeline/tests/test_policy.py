"""A viewer's policy applied at read time: mutes hide an author's posts from the next read on, from
every source of a page (entries, pulled big accounts, history below the horizon), and bring them back
on unmute or expiry, without a job; word filters and labels (as the tenant and the viewer set them)
hide or mark the posts they match. Pages stay full
while the viewer has entries, reading ahead in bounded batches, and a page the bound cut short
continues after the last entry examined. Reads are checked against the plain recomputation
(Timeline.expected_home)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from devstack.processes import wait_for
from feeds_runtime.errors import InvalidArgument
from feeds_runtime.errors import NotFound
from timeline.domain import (
    MAX_FILTERS_PER_VIEWER,
    MAX_LABEL_RULES,
    MAX_MUTES_PER_VIEWER,
    FilterAction,
    FilterMatch,
    LabelPolicy,
    LabelPreference,
    Visibility,
)

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


def add_filter(timeline: Timeline, viewer, phrase: str, action=FilterAction.HIDE, expires_at=None):
    return timeline.policy(lambda p: p.add_filter(timeline.tenant, viewer, phrase, action, expires_at))


def test_hiding_filters_keep_pages_full_until_the_end(small: Timeline):
    viewer, author, big, fan = users(4)
    follow(small, viewer, author)
    follow(small, viewer, big)
    follow(small, fan, big)
    # Given posts of every source, most of them matching a filter
    for i in range(WINDOW + 4):
        small.publish(author, f"Spoiler {i}" if i % 3 else f"plain {i}")
        small.publish(big, f"the SPOILER of {i}" if i % 4 else f"big {i}")
    small.drain()
    add_filter(small, viewer, "spoiler")
    expected = small.expected_home(viewer)
    assert 0 < len(expected) < 2 * (WINDOW + 4)
    # Then every page size reads exactly the rest, pages full before the end
    for limit in (1, 2, 3, 100):
        assert read(small, viewer, limit) == expected, limit
    # and a word inside a longer one hides nothing
    add_filter(small, viewer, "spoil")
    assert read(small, viewer) == expected


def test_a_bound_on_examined_entries_cuts_a_page_short_and_the_cursor_goes_on_after_it(small: Timeline):
    bounded = Timeline(small.database, small.settings.model_copy(update={"home_examine_max": 4}))
    bounded.tenant = small.tenant
    viewer, author = users(2)
    follow(small, viewer, author)
    posts = [small.publish(author, "spoiler" if i < 9 else f"news {i}") for i in range(12)]
    small.drain()
    add_filter(small, viewer, "spoiler")
    # The first page examines the 3 newest (kept) and one hidden: full with a cursor
    first = bounded.home(viewer, 3)
    assert [i.post_id for i in first.items] == [str(p.id) for p in reversed(posts[9:])]
    # The next pages each examine at most the bound, find nothing, and say where to go on
    pages, cursor = [], first.next_cursor
    while cursor is not None:
        page = bounded.home(viewer, 3, cursor)
        assert page.examined <= 4 and page.items == []
        pages.append(page)
        cursor = page.next_cursor
    assert len(pages) == 3  # 9 hidden entries, 4 examined per page at most
    assert read(bounded, viewer, 1) == [p.id for p in reversed(posts[9:])]


def test_warn_filters_mark_the_entries_they_match(timeline: Timeline):
    viewer, author = users(2)
    follow(timeline, viewer, author)
    marked, plain = timeline.publish(author, "The ENDING was great"), timeline.publish(author, "hello")
    timeline.drain()
    warn = add_filter(timeline, viewer, "ending", FilterAction.WARN)
    page = timeline.home(viewer, 10)
    assert [i.post_id for i in page.items] == [str(plain.id), str(marked.id)]
    entry = page.items[1].entry_id
    assert page.filtered == {entry: [FilterMatch("word", str(warn.id), "ending")]}
    assert [f.id for f in timeline.policy(lambda p: p.filters_of(timeline.tenant, viewer))] == [warn.id]
    # Deleted, it marks nothing
    timeline.policy(lambda p: p.delete_filter(timeline.tenant, viewer, warn.id))
    assert timeline.home(viewer, 10).filtered == {}


def test_a_filter_with_an_end_expires_by_itself(timeline: Timeline):
    viewer, author = users(2)
    follow(timeline, viewer, author)
    post = timeline.publish(author, "a spoiler")
    timeline.drain()
    add_filter(timeline, viewer, "spoiler", expires_at=datetime.now(UTC) + timedelta(seconds=2))
    assert read(timeline, viewer) == []
    wait_for(lambda: read(timeline, viewer) == [post.id], "the filter to expire", timeout=10)
    assert timeline.policy(lambda p: p.filters_of(timeline.tenant, viewer)) == []


def test_bad_filters_are_refused_and_change_nothing(timeline: Timeline):
    viewer = uuid.uuid4()
    for phrase, expires_at in [("", None), (" \u200b ", None), ("x" * 101, None), ("a\x00b", None),
                               ("fine", datetime.now(UTC) - timedelta(seconds=1))]:
        with pytest.raises(InvalidArgument) as refused:
            add_filter(timeline, viewer, phrase, expires_at=expires_at)
        assert refused.value.reason == "invalid_request"
    with pytest.raises(NotFound):
        timeline.policy(lambda p: p.delete_filter(timeline.tenant, viewer, uuid.uuid4()))
    for n in range(MAX_FILTERS_PER_VIEWER):
        add_filter(timeline, viewer, f"word{n}")
    with pytest.raises(InvalidArgument) as refused:
        add_filter(timeline, viewer, "one more")
    assert refused.value.reason == "limit_exceeded"
    assert len(timeline.policy(lambda p: p.filters_of(timeline.tenant, viewer))) == MAX_FILTERS_PER_VIEWER


def test_filters_belong_to_their_viewer_and_tenant(timeline_db, timeline_settings):
    one, two = Timeline(timeline_db, timeline_settings), Timeline(timeline_db, timeline_settings)
    viewer, other, author = users(3)
    for timeline in (one, two):
        follow(timeline, viewer, author)
        follow(timeline, other, author)
        timeline.publish(author, "spoiler")
        timeline.drain()
    word = add_filter(one, viewer, "spoiler")
    assert read(one, viewer) == [] and len(read(one, other)) == 1 and len(read(two, viewer)) == 1
    with pytest.raises(NotFound):
        two.policy(lambda p: p.delete_filter(two.tenant, viewer, word.id))
    with pytest.raises(NotFound):
        one.policy(lambda p: p.delete_filter(one.tenant, other, word.id))


def label_policy(timeline: Timeline, label: str, action: FilterAction, viewer_may_change: bool = True):
    return timeline.policy(lambda p: p.set_label_policy(timeline.tenant, LabelPolicy(label, action, viewer_may_change)))


def label_preference(timeline: Timeline, viewer, label: str, action: FilterAction):
    return timeline.policy(lambda p: p.set_label_preference(timeline.tenant, viewer, LabelPreference(label, action)))


def test_labels_act_as_the_tenant_and_the_viewer_say(timeline: Timeline):
    viewer, other, author = users(3)
    for reader in (viewer, other):
        follow(timeline, reader, author)
    spoiler = timeline.publish(author, "the end")
    timeline.service(lambda s: s.set_labels(timeline.tenant, spoiler.id, ["spoiler"]))
    nsfw = timeline.service(lambda s: s.publish(timeline.tenant, author, "nsfw", Visibility.PUBLIC, None,
                                                ["nsfw", "nsfw", "art"]))[0]
    assert nsfw.labels == ["nsfw", "art"]
    plain = timeline.publish(author, "plain")
    timeline.drain()
    everything = [plain.id, nsfw.id, spoiler.id]
    assert read(timeline, viewer) == everything  # no policy: labels are shown
    # The tenant hides nsfw for everyone, and warns of spoilers where viewers do not choose otherwise
    label_policy(timeline, "nsfw", FilterAction.HIDE, viewer_may_change=False)
    label_policy(timeline, "spoiler", FilterAction.WARN)
    page = timeline.home(viewer, 10)
    assert [uuid.UUID(i.post_id) for i in page.items] == [plain.id, spoiler.id]
    assert page.items[1].labels == ["spoiler"]
    assert page.filtered == {page.items[1].entry_id: [FilterMatch("label", "", "spoiler")]}
    # A viewer's preference wins where the tenant allows it, and only there
    label_preference(timeline, viewer, "spoiler", FilterAction.SHOW)
    label_preference(timeline, viewer, "nsfw", FilterAction.SHOW)
    page = timeline.home(viewer, 10)
    assert [uuid.UUID(i.post_id) for i in page.items] == [plain.id, spoiler.id] and page.filtered == {}
    assert timeline.home(other, 10).filtered != {}
    label_preference(timeline, other, "art", FilterAction.HIDE)
    assert read(timeline, other) == [plain.id, spoiler.id]
    # The tenant lifts its policy: the viewer's choice applies
    timeline.policy(lambda p: p.delete_label_policy(timeline.tenant, "nsfw"))
    assert read(timeline, viewer) == everything
    assert [p.label for p in timeline.policy(lambda p: p.label_policies(timeline.tenant))] == ["spoiler"]
    assert [p.label for p in timeline.policy(lambda p: p.label_preferences(timeline.tenant, viewer))] == [
        "nsfw", "spoiler"]
    # Relabelled, a post follows its new labels at once
    timeline.service(lambda s: s.set_labels(timeline.tenant, plain.id, ["art"]))
    assert read(timeline, other) == [spoiler.id]


def test_bad_labels_are_refused_and_change_nothing(timeline: Timeline):
    author, viewer = users(2)
    post = timeline.publish(author, "hello")
    for labels in [["Spoiler"], ["-x"], ["a" * 33], [""], ["ok", "no space"], [f"l{n}" for n in range(11)]]:
        with pytest.raises(InvalidArgument):
            timeline.service(lambda s, ls=labels: s.set_labels(timeline.tenant, post.id, ls))
        with pytest.raises(InvalidArgument):
            timeline.service(lambda s, ls=labels: s.publish(timeline.tenant, author, "x", Visibility.PUBLIC, None, ls))
    assert timeline.service(lambda s: s.posts.get(timeline.tenant, post.id)).labels == []
    with pytest.raises(InvalidArgument):
        label_policy(timeline, "Bad Label", FilterAction.HIDE)
    with pytest.raises(NotFound):
        timeline.policy(lambda p: p.delete_label_policy(timeline.tenant, "never-set"))
    with pytest.raises(NotFound):
        timeline.policy(lambda p: p.delete_label_preference(timeline.tenant, viewer, "never-set"))
    with pytest.raises(NotFound):  # another tenant's post
        Timeline(timeline.database, timeline.settings).service(
            lambda s: s.set_labels(uuid.uuid4(), post.id, ["spoiler"]))
    for n in range(MAX_LABEL_RULES):
        label_preference(timeline, viewer, f"l{n}", FilterAction.WARN)
    with pytest.raises(InvalidArgument) as refused:
        label_preference(timeline, viewer, "one-more", FilterAction.WARN)
    assert refused.value.reason == "limit_exceeded"
    label_preference(timeline, viewer, "l0", FilterAction.HIDE)  # a held one can change
