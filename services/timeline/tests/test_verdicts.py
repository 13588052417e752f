"""The verdicts of lasting hiding word filters kept on entries (timeline.verdicts): a filter change
marks the window in its transaction, a fan-out, a pair sync and a rebuild mark what they write, a
read leaves out the marked entries in its statement without examining them, and a mark made under
filters changed since hides nothing. Reads are checked against the plain recomputation
(Timeline.expected_home)."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from timeline.domain import FilterAction
from timeline.repositories.sql import ENTRY_ID
from timeline.verdicts import FilterVerdicts

from .conftest import Timeline, follow, users


def read(timeline: Timeline, viewer, limit: int = 3) -> list[uuid.UUID]:
    return [uuid.UUID(item.post_id) for item in timeline.all_home(viewer, limit)]


def add_filter(timeline: Timeline, viewer, phrase: str, action=FilterAction.HIDE, expires_at=None):
    return timeline.policy(lambda p: p.add_filter(timeline.tenant, viewer, phrase, action, expires_at))


def marked(timeline: Timeline, viewer) -> set[uuid.UUID]:
    """Posts of the viewer's entries marked hidden under its current filters version."""
    with timeline.database.transaction() as session:
        return set(session.execute(text(
            "SELECT e.post_id FROM timeline.timeline_entries e JOIN timeline.word_filter_versions v "
            "ON v.tenant_id = e.tenant_id AND v.viewer_id = e.viewer_id AND v.version = e.hidden_by_filters "
            "WHERE e.tenant_id = :t AND e.viewer_id = :v"), {"t": timeline.tenant, "v": viewer}).scalars())


def test_a_lasting_filter_marks_the_window_and_reads_leave_the_marked_entries_unexamined(timeline: Timeline):
    viewer, author = users(2)
    follow(timeline, viewer, author)
    posts = [timeline.publish(author, f"a Spoiler {i}" if i % 4 else f"news {i}") for i in range(40)]
    timeline.drain()
    spoilers = {post.id for post in posts if post.body.startswith("a Spoiler")}
    # When the viewer adds a lasting hiding filter
    filter_ = add_filter(timeline, viewer, "spoiler")
    # Then its change marked every entry it hides, and a read neither returns nor examines them
    assert marked(timeline, viewer) == spoilers
    page = timeline.home(viewer, 5)
    assert len(page.items) == 5 and page.examined == 6
    assert read(timeline, viewer) == timeline.expected_home(viewer) == [p.id for p in reversed(posts) if p.id not in spoilers]
    # A filter with an end is judged at read time: nothing more is marked, and its hides are examined
    add_filter(timeline, viewer, "news 4", expires_at=datetime.now(UTC) + timedelta(hours=1))
    assert marked(timeline, viewer) == spoilers
    assert read(timeline, viewer) == timeline.expected_home(viewer)
    assert timeline.home(viewer, 40).examined == 10
    # and a warning marks nothing either
    add_filter(timeline, viewer, "news", FilterAction.WARN)
    assert marked(timeline, viewer) == spoilers
    # When the lasting filter is deleted, no entry is marked under the new version, and its posts are back
    timeline.policy(lambda p: p.delete_filter(timeline.tenant, viewer, filter_.id))
    assert marked(timeline, viewer) == set()
    assert read(timeline, viewer) == timeline.expected_home(viewer)
    assert len(read(timeline, viewer)) == 39


def test_fanout_pair_sync_and_rebuild_mark_what_they_write(timeline: Timeline):
    viewer, author, other, plain = users(4)
    add_filter(timeline, viewer, "spoiler")
    follow(timeline, viewer, author)
    follow(timeline, plain, author)  # a follower without filters: its entries are never marked
    # A fan-out marks the entries of the viewers whose lasting filters hide the post
    hidden, shown = timeline.publish(author, "the SPOILER"), timeline.publish(author, "hello")
    timeline.drain()
    assert marked(timeline, viewer) == {hidden.id} and marked(timeline, plain) == set()
    # A pair sync marks the posts it merges when the viewer follows an author
    merged = [timeline.publish(other, f"spoiler {i}") for i in range(3)] + [timeline.publish(other, "fine")]
    timeline.drain()
    follow(timeline, viewer, other)
    assert marked(timeline, viewer) == {hidden.id} | {p.id for p in merged[:3]}
    # A rebuild writes the entries anew and marks them
    with timeline.database.transaction() as session:
        session.execute(text("UPDATE timeline.timeline_entries SET hidden_by_filters = NULL "
                             "WHERE tenant_id = :t AND viewer_id = :v"), {"t": timeline.tenant, "v": viewer})
    timeline.projection(lambda p: p.rebuild(timeline.tenant, viewer))
    assert marked(timeline, viewer) == {hidden.id} | {p.id for p in merged[:3]}
    assert read(timeline, viewer) == timeline.expected_home(viewer) == [merged[3].id, shown.id]
    assert read(timeline, plain) == [shown.id, hidden.id]


def test_a_mark_made_under_filters_changed_since_hides_nothing(timeline: Timeline):
    viewer, author = users(2)
    follow(timeline, viewer, author)
    filter_ = add_filter(timeline, viewer, "spoiler")
    post = timeline.publish(author, "a spoiler")
    # Given a fan-out that has written the entry and read the viewer's filters, not committed yet
    with timeline.database.transaction() as session:
        session.execute(text(f"INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, "
                             f"kind, ranked_at) VALUES ({ENTRY_ID.format(tenant=':t', viewer=':v', post=':p')}, "
                             f":t, :v, :p, :a, 'following', :at)"),
                        {"t": timeline.tenant, "v": viewer, "p": post.id, "a": author, "at": post.published_at})
        verdicts = FilterVerdicts(session)
        hides = verdicts.verdicts.lasting_hides(timeline.tenant, [viewer])
        # When the filter is deleted meanwhile (its change cannot see the entry yet)
        deleting = threading.Thread(target=timeline.policy, args=(
            lambda p: p.delete_filter(timeline.tenant, viewer, filter_.id),))
        deleting.start()
        deleting.join(30)
        assert not deleting.is_alive()
        # and the fan-out marks the entry under the version it read, then commits
        verdicts.verdicts.mark_viewers(timeline.tenant, post.id, {viewer: hides[viewer][0]})
    # Then the stale mark hides nothing: the next read shows the post
    assert read(timeline, viewer) == timeline.expected_home(viewer) == [post.id]
    assert marked(timeline, viewer) == set()
