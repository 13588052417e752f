"""Bounded storage with history kept, and hybrid fan-out: trims cut each viewer back to its window,
pages past the window are pulled from the posts of the viewer's follows, and big accounts' posts are
merged in at read time. Every read is checked against a plain recomputation from the canonical
tables (Timeline.expected_home)."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from timeline import jobs
from timeline.domain import Delivery, Moderation

from .conftest import WINDOW, Timeline, follow, users


def following_rows(timeline: Timeline, viewer) -> list:
    return [row for row in timeline.entries(viewer) if row.kind == "following"]


def assert_reads_everything(timeline: Timeline, viewer) -> None:
    expected = timeline.expected_home(viewer)
    for limit in (1, 2, 3, 5, 100):
        assert [uuid.UUID(item.post_id) for item in timeline.all_home(viewer, limit)] == expected, f"limit {limit}"


def test_trim_keeps_the_window_and_pages_past_it_pull_the_history(small):
    viewer, a, b = users(3)
    follow(small, viewer, a)
    follow(small, viewer, b)
    # Given far more followed posts than the window, published in turns
    for i in range(6):
        small.publish(a, f"a{i}")
        small.publish(b, f"b{i}")
    small.publish(viewer, "own")
    small.drain()
    # Then the viewer keeps only its window of following entries
    assert len(following_rows(small, viewer)) <= WINDOW
    # and every page size reads the whole history, in order, full pages until the end
    assert_reads_everything(small, viewer)
    assert len(small.expected_home(viewer)) == 13
    assert small.projection(lambda p: p.audit(small.tenant, viewer)).in_sync


def test_a_fan_out_queues_its_trims_as_bulk_jobs(small):
    viewer, author = users(2)
    follow(small, viewer, author)
    small.publish(author, "post")
    # When the post's first job runs
    [first] = [job for job in small.pending_jobs() if job.actor_name == jobs.FANOUT_CHUNK]
    small.run_job(first.actor_name, first.args)
    # Then the trim of the viewer it reached waits with the bulk jobs, never ahead of a first job
    trims = [job for job in small.pending_jobs() if job.actor_name == jobs.TRIM_VIEWERS]
    assert trims and {job.queue_name for job in trims} == {jobs.BULK_QUEUE}


def test_a_cursor_session_crossing_a_trim_neither_skips_nor_repeats(small):
    viewer, author = users(2)
    follow(small, viewer, author)
    for i in range(WINDOW):
        small.publish(author, f"p{i}")
    small.drain()
    first = small.home(viewer, 2)
    # When more posts arrive and the viewer is trimmed while it pages
    later = [small.publish(author, f"later{i}") for i in range(WINDOW + 2)]
    small.drain()
    assert len(following_rows(small, viewer)) <= WINDOW
    rest = small.home(viewer, 100, first.next_cursor)
    # Then the session goes on from where it was, down to the oldest post
    older = small.expected_home(viewer)[len(later):]
    assert [uuid.UUID(i.post_id) for i in [*first.items, *rest.items]] == older
    assert rest.next_cursor is None


def test_follow_of_an_author_with_a_long_history_reads_all_of_it(small):
    viewer, author = users(2)
    posts = [small.publish(author, f"p{i}") for i in range(WINDOW + 4)]
    small.drain()
    follow(small, viewer, author)
    # The merge took a window's worth; the rest is below the horizon and pulled
    assert len(following_rows(small, viewer)) <= WINDOW
    assert_reads_everything(small, viewer)
    assert len(small.expected_home(viewer)) == len(posts)


def test_rebuild_and_audit_cover_the_window_and_the_history_stays_readable(small):
    viewer, author = users(2)
    follow(small, viewer, author)
    posts = [small.publish(author, f"p{i}") for i in range(WINDOW + 3)]
    small.drain()
    newest = small.expected_home(viewer)[0]
    # Given drift inside the window (a lost entry)
    with small.database.transaction() as session:
        session.execute(text("DELETE FROM timeline.timeline_entries WHERE tenant_id = :t AND viewer_id = :v "
                             "AND post_id = :p"), {"t": small.tenant, "v": viewer, "p": newest})
    assert small.projection(lambda p: p.audit(small.tenant, viewer)).missing_post_ids == [newest]
    # When the viewer is rebuilt
    small.projection(lambda p: p.rebuild(small.tenant, viewer))
    # Then it holds exactly the window, is in sync, and still reads its whole history
    assert {row.post_id for row in following_rows(small, viewer)} == set(small.expected_home(viewer)[:WINDOW])
    assert small.projection(lambda p: p.audit(small.tenant, viewer)).in_sync
    assert_reads_everything(small, viewer)
    assert len(small.expected_home(viewer)) == len(posts)


def test_big_author_posts_are_pulled_and_merged_under_the_same_rules(small):
    viewer, other, big, small_author = users(4)
    follow(small, viewer, big)
    follow(small, other, big)  # two followers: at the threshold
    follow(small, viewer, small_author)
    pulled = [small.publish(big, f"big{i}") for i in range(4)]
    pushed = [small.publish(small_author, f"small{i}") for i in range(2)]
    small.drain()
    assert {post.delivery for post in pulled} == {Delivery.PULL}
    assert {post.delivery for post in pushed} == {Delivery.PUSH}
    # No entry is written for the followers of the big author
    assert not [row for row in small.entries() if row.kind == "following" and row.post_id in {p.id for p in pulled}]
    assert_reads_everything(small, viewer)
    assert {p.id for p in pulled} <= set(small.expected_home(other))
    assert_reads_everything(small, other)
    # Deletes, moderation and blocks apply at once, with no clean-up job to wait for
    small.service(lambda s: s.delete_post(small.tenant, big, pulled[0].id))
    small.service(lambda s: s.set_moderation(small.tenant, pulled[1].id, Moderation.HIDDEN))
    small.service(lambda s: s.block(small.tenant, other, big))
    assert all(job.actor_name != jobs.CLEANUP_POST for job in small.pending_jobs())
    assert_reads_everything(small, viewer)
    assert_reads_everything(small, other)
    assert not {str(p.id) for p in pulled} & {i.post_id for i in small.all_home(other)}
    # and an unfollow removes the author's pulled posts from the next read
    small.service(lambda s: s.unfollow(small.tenant, viewer, big))
    assert not {str(p.id) for p in pulled} & {i.post_id for i in small.all_home(viewer)}


def test_pulled_posts_at_the_instant_of_a_full_page_of_entries_keep_their_place(small):
    """Pulled posts no older than the last entry of a page the entries fill are the only ones a page
    reads: those of that very instant are still ordered in by their ids, on every page."""
    wide = Timeline(small.database, small.settings.model_copy(update={"window_entries": 100}))
    viewer, other, big, author = users(4)
    follow(wide, viewer, big)
    follow(wide, other, big)
    follow(wide, viewer, author)
    for i in range(6):
        wide.publish(big, f"big{i}")
        wide.publish(author, f"small{i}")
    wide.drain()
    with wide.database.transaction() as session:
        session.execute(text("UPDATE timeline.posts SET published_at = '2026-07-14T04:10:00Z' WHERE tenant_id = :t"),
                        {"t": wide.tenant})
    wide.projection(lambda p: p.rebuild(wide.tenant, viewer))
    assert len(following_rows(wide, viewer)) == 6
    assert_reads_everything(wide, viewer)
    assert len(wide.expected_home(viewer)) == 12


def test_author_crossing_the_threshold_both_ways_loses_and_duplicates_nothing(small):
    author, first, second = users(3)
    follow(small, first, author)
    below = small.publish(author, "one follower: pushed")
    follow(small, second, author)
    above = small.publish(author, "two followers: pulled")
    small.service(lambda s: s.unfollow(small.tenant, second, author))
    small.drain()
    again_below = small.publish(author, "one follower again: pushed")
    assert (below.delivery, above.delivery, again_below.delivery) == (Delivery.PUSH, Delivery.PULL, Delivery.PUSH)
    # Reads during the switch (the last fan-out still queued) and after it agree with the oracle
    assert [uuid.UUID(i.post_id) for i in small.all_home(first, 1)] == [above.id, below.id]
    small.drain()
    assert [uuid.UUID(i.post_id) for i in small.all_home(first, 1)] == [again_below.id, above.id, below.id]
    assert_reads_everything(small, first)
    # A follower gained now sees the whole history, pulled and pushed, once each
    follow(small, second, author)
    assert_reads_everything(small, second)
    assert len(small.expected_home(second)) == 3


def test_follower_counts_follow_every_change_of_the_follows(small):
    """The pull decision reads the counts the triggers on follows keep: every way a follow starts,
    ends or comes back, through the service or in bulk, leaves them equal to the follows."""
    author, other, first, second = users(4)

    def counts() -> dict:
        with small.database.transaction() as session:
            kept = dict(session.execute(text(
                "SELECT author_id, followers FROM timeline.follower_counts WHERE tenant_id = :t AND followers <> 0"),
                {"t": small.tenant}).all())
            effective = dict(session.execute(text(
                "SELECT followee_id, count(*) FROM timeline.follows WHERE tenant_id = :t AND ended_at IS NULL "
                "GROUP BY followee_id"), {"t": small.tenant}).all())
        assert kept == effective
        return kept

    follow(small, first, author)
    follow(small, second, author)
    follow(small, first, author)  # already following: no change
    assert counts() == {author: 2}
    small.service(lambda s: s.unfollow(small.tenant, second, author))
    small.service(lambda s: s.unfollow(small.tenant, second, author))
    assert counts() == {author: 1}
    follow(small, second, author)  # revived by the upsert
    with small.database.transaction() as session:  # in bulk, for two authors in one statement each
        session.execute(text("INSERT INTO timeline.follows (tenant_id, follower_id, followee_id) "
                             "SELECT :t, gen_random_uuid(), a FROM unnest(CAST(:a AS uuid[])) a, generate_series(1, 3)"),
                        {"t": small.tenant, "a": [author, other]})
        session.execute(text("UPDATE timeline.follows SET ended_at = now() WHERE tenant_id = :t AND followee_id = :o"),
                        {"t": small.tenant, "o": other})
        session.execute(text("DELETE FROM timeline.follows WHERE tenant_id = :t AND follower_id = :f"),
                        {"t": small.tenant, "f": first})
    assert counts() == {author: 4}
    assert small.publish(author, "four followers: pulled").delivery is Delivery.PULL
