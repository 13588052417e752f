"""The repository cases and guarantee matrix of docs/timeline.md, against the real database: publish,
fan-out (duplicated, stale, concurrent), private exclusion, read-time visibility, equal-timestamp
paging, clean-up, merges, rebuild and audit."""

from __future__ import annotations

import threading
import uuid

import pytest
from sqlalchemy import text

from feeds_runtime.errors import Conflict, InvalidArgument, NotFound
from timeline import jobs
from timeline.domain import Moderation, Visibility

from .conftest import TEST_CHUNK_SIZE, blocked_or_done, users


def follow_all(timeline, followers, author):
    for follower in followers:
        timeline.service(lambda s, f=follower: s.follow(timeline.tenant, f, author))
    timeline.drain()


def post_ids(items) -> list[uuid.UUID]:
    return [uuid.UUID(item.post_id) for item in items]


def test_publish_commits_post_self_entry_stats_and_jobs(timeline):
    author, follower = users(2)
    follow_all(timeline, [follower], author)
    # When the author publishes
    post = timeline.publish(author, "first")
    # Then the post and the author's self entry are committed, with zeroed stats
    assert post.body == "first" and post.stats.like_count == 0
    with timeline.database.transaction() as session:
        assert session.execute(text("SELECT like_count, reply_count, share_count FROM timeline.post_stats "
                                    "WHERE tenant_id = :t AND post_id = :p"),
                               {"t": timeline.tenant, "p": post.id}).one() == (0, 0, 0)
    assert [(row.viewer_id, row.kind) for row in timeline.entries()] == [(author, "self")]
    assert post_ids(timeline.home(author).items) == [post.id]
    # and the published event is in the log, in the same transaction
    [(event_type, payload)] = timeline.events()
    assert event_type == jobs.POST_PUBLISHED and payload == {
        "tenant_id": str(timeline.tenant), "post_id": str(post.id), "author_id": str(author),
        "visibility": "public", "published_at": post.published_at.isoformat()}
    # but the follower may not see it yet: the fan-out job is still pending
    assert timeline.home(follower).items == []
    assert [job.actor_name for job in timeline.pending_jobs()] == [jobs.FANOUT_CHUNK]
    # After the fan-out the follower sees it, ranked at the post's published_at
    timeline.drain()
    [item] = timeline.home(follower).items
    assert (item.post_id, item.ranked_at, item.published_at) == (str(post.id), post.published_at, post.published_at)


def test_fanout_spans_chunks_and_skips_ended_follows_and_blocks(timeline):
    author = uuid.uuid4()
    followers = users(3 * TEST_CHUNK_SIZE + 1)
    follow_all(timeline, followers, author)
    gone, blocked, blocker = followers[:3]
    timeline.service(lambda s: s.unfollow(timeline.tenant, gone, author))
    timeline.service(lambda s: s.block(timeline.tenant, author, blocked))
    timeline.service(lambda s: s.block(timeline.tenant, blocker, author))
    timeline.drain()
    post = timeline.publish(author)
    timeline.drain()
    viewers = {row.viewer_id for row in timeline.entries() if row.kind == "following"}
    assert viewers == set(followers) - {gone, blocked, blocker}
    with timeline.database.transaction() as session:
        progress = session.execute(text("SELECT chunks_done, entries_written, completed_at, skipped_reason "
                                        "FROM timeline.fanout_progress WHERE post_id = :p"), {"p": post.id}).one()
    # 3 × chunk size effective follows (one ended): three keyset ranges
    assert progress.chunks_done == 3 and progress.entries_written == len(viewers)
    assert progress.completed_at is not None and progress.skipped_reason is None


def test_planned_chunks_run_in_any_order_and_each_counts_once(timeline):
    author = uuid.uuid4()
    followers = users(3 * TEST_CHUNK_SIZE + 2)
    follow_all(timeline, followers, author)
    post = timeline.publish(author)
    [first] = [job for job in timeline.pending_jobs() if job.actor_name == jobs.FANOUT_CHUNK]
    # When the first job plans the run
    timeline.run_job(first.actor_name, first.args)
    chunks = [job for job in timeline.pending_jobs() if job.actor_name == jobs.FANOUT_RANGE]
    # Then it writes the first range itself and queues one job per other range at once, on the
    # bulk queue, so several workers can share the post and a later post's first job passes them
    assert {job.queue_name for job in chunks} == {jobs.BULK_QUEUE}
    assert sorted(job.args[3] for job in chunks) == [1, 2, 3]
    assert sorted(row.kind for row in timeline.entries()) == ["following"] * TEST_CHUNK_SIZE + ["self"]
    assert progress_of(timeline, post.id).chunks_done == 1
    # and the first job run again plans and writes nothing more
    timeline.run_job(first.actor_name, first.args)
    assert len([job for job in timeline.pending_jobs() if job.actor_name in (jobs.FANOUT_CHUNK, jobs.FANOUT_RANGE)]) \
        == len(chunks) + 1
    assert progress_of(timeline, post.id).chunks_done == 1
    # and the other ranges, run last first, one of them twice and concurrently, cover every follower once
    threads = [threading.Thread(target=timeline.run_job, args=(chunks[0].actor_name, chunks[0].args))
               for _ in range(2)]
    for job in reversed(chunks[1:]):
        timeline.run_job(job.actor_name, job.args)
    assert progress_of(timeline, post.id).completed_at is None
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = [row for row in timeline.entries() if row.kind == "following"]
    assert sorted(row.viewer_id for row in rows) == sorted(followers)
    progress = progress_of(timeline, post.id)
    assert progress.chunks_done == 4 and progress.entries_written == len(followers)
    assert progress.completed_at is not None
    # A chunk run again after the end changes nothing
    timeline.run_job(chunks[1].actor_name, chunks[1].args)
    assert progress_of(timeline, post.id) == progress


def progress_of(timeline, post_id):
    with timeline.database.transaction() as session:
        return session.execute(text("SELECT chunks_done, entries_written, completed_at FROM timeline.fanout_progress "
                                    "WHERE post_id = :p"), {"p": post_id}).one()


def test_duplicate_and_concurrent_fanout_runs_keep_one_entry_per_viewer_and_post(timeline):
    author = uuid.uuid4()
    followers = users(2 * TEST_CHUNK_SIZE)
    follow_all(timeline, followers, author)
    post = timeline.publish(author)
    [first] = [job for job in timeline.pending_jobs() if job.actor_name == jobs.FANOUT_CHUNK]
    # When the first chunk job runs twice in a row and then three times at once
    timeline.run_job(first.actor_name, first.args)
    timeline.run_job(first.actor_name, first.args)
    threads = [threading.Thread(target=timeline.run_job, args=(first.actor_name, first.args)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then the run was planned once: one job for the second range (nothing forked), the first written once
    follow_ups = [job for job in timeline.pending_jobs() if job.actor_name == jobs.FANOUT_RANGE]
    assert [job.args[3] for job in follow_ups] == [1]
    assert len([row for row in timeline.entries() if row.kind == "following"]) == TEST_CHUNK_SIZE
    timeline.drain()
    # and each follower holds exactly one entry for the post
    rows = [row for row in timeline.entries() if row.kind == "following"]
    assert sorted(row.viewer_id for row in rows) == sorted(followers)
    assert {row.post_id for row in rows} == {post.id}
    # Running the first chunk again afterwards changes nothing and queues nothing
    before = sorted(timeline.entries())
    timeline.run_job(first.actor_name, first.args)
    assert sorted(timeline.entries()) == before
    assert timeline.pending_jobs() == []


@pytest.mark.parametrize("change", ["delete", "hide", "remove"])
def test_post_deleted_or_moderated_before_fanout_is_not_materialized(timeline, change):
    author, follower = users(2)
    follow_all(timeline, [follower], author)
    post = timeline.publish(author)
    if change == "delete":
        timeline.service(lambda s: s.delete_post(timeline.tenant, author, post.id))
    else:
        state = Moderation.HIDDEN if change == "hide" else Moderation.REMOVED
        timeline.service(lambda s: s.set_moderation(timeline.tenant, post.id, state))
    timeline.drain()
    assert [row.kind for row in timeline.entries()] == ["self"]
    with timeline.database.transaction() as session:
        reason = session.execute(text("SELECT skipped_reason FROM timeline.fanout_progress WHERE post_id = :p"),
                                 {"p": post.id}).scalar_one()
    assert reason == ("deleted" if change == "delete" else "not_visible")
    assert timeline.home(follower).items == [] and timeline.home(author).items == []


def test_private_post_has_no_fanout_job_but_keeps_the_self_entry(timeline):
    author, follower = users(2)
    follow_all(timeline, [follower], author)
    post = timeline.publish(author, "note to self", Visibility.PRIVATE)
    assert timeline.pending_jobs() == [] and [event_type for event_type, _ in timeline.events()] == [jobs.POST_PUBLISHED]
    timeline.drain()
    assert post_ids(timeline.home(author).items) == [post.id]
    assert timeline.home(follower).items == []
    with pytest.raises(NotFound):
        timeline.service(lambda s: s.get_post(timeline.tenant, post.id, follower))
    # The rebuild excludes it too
    timeline.projection(lambda p: p.rebuild(timeline.tenant, follower))
    assert timeline.home(follower).items == []


def test_reads_hide_deleted_moderated_and_blocked_posts_before_cleanup_runs(timeline):
    author, other, viewer = users(3)
    follow_all(timeline, [viewer], author)
    follow_all(timeline, [viewer], other)
    deleted, hidden, kept = (timeline.publish(author, body) for body in ("deleted", "hidden", "kept"))
    from_other = timeline.publish(other, "blocked")
    timeline.drain()
    assert len(timeline.home(viewer).items) == 4
    # When posts change and a block is made, before any clean-up job runs
    timeline.service(lambda s: s.delete_post(timeline.tenant, author, deleted.id))
    timeline.service(lambda s: s.set_moderation(timeline.tenant, hidden.id, Moderation.HIDDEN))
    timeline.service(lambda s: s.block(timeline.tenant, other, viewer))
    # Then the home timeline already shows only the kept post
    assert post_ids(timeline.home(viewer).items) == [kept.id]
    assert len([row for row in timeline.entries(viewer)]) == 4  # clean-up still pending
    # and after the clean-up the stale entries are gone
    timeline.drain()
    assert {row.post_id for row in timeline.entries(viewer)} == {kept.id}
    assert from_other.id not in post_ids(timeline.home(viewer).items)


def test_moderation_back_to_visible_fans_out_again(timeline):
    author, follower = users(2)
    follow_all(timeline, [follower], author)
    post = timeline.publish(author)
    timeline.drain()
    timeline.service(lambda s: s.set_moderation(timeline.tenant, post.id, Moderation.HIDDEN))
    timeline.drain()
    assert timeline.entries(follower) == []
    timeline.service(lambda s: s.set_moderation(timeline.tenant, post.id, Moderation.VISIBLE))
    timeline.drain()
    assert post_ids(timeline.home(follower).items) == [post.id]


def test_equal_timestamps_page_without_duplicates_or_gaps(timeline):
    viewer = uuid.uuid4()
    authors = users(7)
    for author in authors:
        follow_all(timeline, [viewer], author)
        timeline.publish(author)
    timeline.drain()
    with timeline.database.transaction() as session:
        session.execute(text("UPDATE timeline.posts SET published_at = '2026-07-14T04:10:00Z' WHERE tenant_id = :t"),
                        {"t": timeline.tenant})
    timeline.projection(lambda p: p.rebuild(timeline.tenant, viewer))
    expected = sorted((row.id for row in timeline.entries(viewer)), reverse=True)
    seen, cursor = [], ""
    while True:
        page = timeline.home(viewer, 2, cursor)
        seen.extend(uuid.UUID(item.entry_id) for item in page.items)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert seen == expected and len(seen) == 7


def test_limit_and_cursor_contract(timeline):
    author = uuid.uuid4()
    posts = [timeline.publish(author, f"p{i}") for i in range(3)]
    first = timeline.home(author, 2)
    assert post_ids(first.items) == [posts[2].id, posts[1].id] and first.next_cursor
    assert "=" not in first.next_cursor and "+" not in first.next_cursor and "/" not in first.next_cursor
    last = timeline.home(author, 2, first.next_cursor)
    assert post_ids(last.items) == [posts[0].id] and last.next_cursor is None
    assert len(timeline.home(author).items) == 3  # default limit 50
    for limit in (0, -1, 101):
        with pytest.raises(InvalidArgument) as error:
            timeline.home(author, limit)
        assert error.value.reason == "invalid_limit"
    other_viewer = uuid.uuid4()
    tampered = first.next_cursor[:-2] + ("AA" if not first.next_cursor.endswith("AA") else "BA")
    for bad in ["garbage", first.next_cursor + "=", tampered, first.next_cursor[1:], "é" * 54]:
        with pytest.raises(InvalidArgument) as error:
            timeline.home(author, 2, bad)
        assert error.value.reason == "invalid_cursor"
    # A cursor issued to one viewer is refused for another viewer and another tenant
    with pytest.raises(InvalidArgument):
        timeline.home(other_viewer, 2, first.next_cursor)
    with pytest.raises(InvalidArgument):
        timeline.service(lambda s: s.home(uuid.uuid4(), author, 2, first.next_cursor))


def test_publish_idempotency_key(timeline):
    author = uuid.uuid4()
    first = timeline.service(lambda s: s.publish(timeline.tenant, author, "once", Visibility.PUBLIC, "key-1"))
    again = timeline.service(lambda s: s.publish(timeline.tenant, author, "once", Visibility.PUBLIC, "key-1"))
    assert first[0].id == again[0].id and (first[1], again[1]) == (False, True)
    with pytest.raises(Conflict) as error:
        timeline.service(lambda s: s.publish(timeline.tenant, author, "other", Visibility.PUBLIC, "key-1"))
    assert error.value.reason == "idempotency_conflict"
    assert [row.post_id for row in timeline.entries(author)] == [first[0].id]
    # Another author may use the same key
    other = timeline.service(lambda s: s.publish(timeline.tenant, uuid.uuid4(), "once", Visibility.PUBLIC, "key-1"))
    assert other[0].id != first[0].id


def test_ownership_and_tenancy(timeline):
    author, stranger = users(2)
    post = timeline.publish(author)
    # Someone else's post is not there to delete: not_found, and it stays
    with pytest.raises(NotFound) as error:
        timeline.service(lambda s: s.delete_post(timeline.tenant, stranger, post.id))
    assert error.value.reason == "not_found"
    assert timeline.service(lambda s: s.get_post(timeline.tenant, post.id, None)).deleted_at is None
    foreign_tenant = uuid.uuid4()
    with pytest.raises(NotFound):
        timeline.service(lambda s: s.get_post(foreign_tenant, post.id, None))
    with pytest.raises(NotFound):
        timeline.service(lambda s: s.delete_post(foreign_tenant, author, post.id))
    with pytest.raises(NotFound):
        timeline.service(lambda s: s.set_moderation(foreign_tenant, post.id, Moderation.HIDDEN))
    assert timeline.service(lambda s: s.get_post(timeline.tenant, post.id, None)).moderation_state is Moderation.VISIBLE
    with pytest.raises(InvalidArgument):
        timeline.service(lambda s: s.follow(timeline.tenant, author, author))
    with pytest.raises(InvalidArgument):
        timeline.service(lambda s: s.publish(timeline.tenant, author, "   ", Visibility.PUBLIC, None))


def test_follow_merges_recent_posts_unfollow_and_unblock_reconcile(timeline):
    author, viewer = users(2)
    older = [timeline.publish(author, f"p{i}") for i in range(3)]
    follow_all(timeline, [viewer], author)
    assert set(post_ids(timeline.home(viewer).items)) == {p.id for p in older}
    timeline.service(lambda s: s.unfollow(timeline.tenant, viewer, author))
    timeline.drain()
    assert timeline.entries(viewer) == []
    follow_all(timeline, [viewer], author)
    timeline.service(lambda s: s.block(timeline.tenant, viewer, author))
    timeline.drain()
    assert timeline.entries(viewer) == []
    timeline.service(lambda s: s.unblock(timeline.tenant, viewer, author))
    timeline.drain()
    assert set(post_ids(timeline.home(viewer).items)) == {p.id for p in older}


def test_rebuild_restores_drift_keeps_self_entries_and_ids(timeline):
    viewer, author, stranger = users(3)
    follow_all(timeline, [viewer], author)
    own = timeline.publish(viewer, "mine")
    posts = [timeline.publish(author, f"p{i}") for i in range(4)]
    stray = timeline.publish(stranger, "never followed")
    timeline.drain()
    before = {row.post_id: (row.id, row.ranked_at) for row in timeline.entries(viewer)}
    # Given drift: a lost entry, a stale entry of a post the viewer does not follow
    with timeline.database.transaction() as session:
        session.execute(text("DELETE FROM timeline.timeline_entries WHERE tenant_id = :t AND viewer_id = :v "
                             "AND post_id = :p"), {"t": timeline.tenant, "v": viewer, "p": posts[0].id})
        session.execute(text("INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, "
                             "kind, ranked_at) VALUES (gen_random_uuid(), :t, :v, :p, :a, 'following', now())"),
                        {"t": timeline.tenant, "v": viewer, "p": stray.id, "a": stranger})
    audit = timeline.projection(lambda p: p.audit(timeline.tenant, viewer))
    assert (audit.missing_post_ids, audit.extra_post_ids) == ([posts[0].id], [stray.id])
    assert timeline.projection(lambda p: p.audit(timeline.tenant, viewer)) == audit  # audit changes nothing
    # When the viewer is rebuilt
    timeline.projection(lambda p: p.rebuild(timeline.tenant, viewer))
    # Then the following entries are exactly the followed posts, with the same ids and ranked_at
    after = {row.post_id: (row.id, row.ranked_at) for row in timeline.entries(viewer)}
    assert after == before
    assert own.id in after  # the self entry was kept
    assert timeline.projection(lambda p: p.audit(timeline.tenant, viewer)).in_sync


def test_open_cursor_session_survives_a_rebuild(timeline):
    viewer, author = users(2)
    follow_all(timeline, [viewer], author)
    posts = [timeline.publish(author, f"p{i}") for i in range(6)]
    timeline.drain()
    first = timeline.home(viewer, 3)
    timeline.projection(lambda p: p.rebuild(timeline.tenant, viewer))
    second = timeline.home(viewer, 3, first.next_cursor)
    assert post_ids(first.items) + post_ids(second.items) == [p.id for p in reversed(posts)]


def _interleave(timeline, projection_step, change) -> None:
    """Run a projection step in an open transaction, then a change and its clean-up jobs in another
    thread, and only then commit the step: the change's clean-up must still see what the step wrote."""
    from timeline.projection import Projection

    with timeline.database.transaction() as session:
        projection_step(Projection(session, timeline.settings))
        worker = threading.Thread(target=lambda: (change(), timeline.drain()))
        worker.start()
        blocked_or_done(timeline, worker)
    worker.join(10)
    assert not worker.is_alive()
    timeline.drain()


def _ack_all(timeline) -> None:
    for outbox_id, *_ in timeline.pending_jobs():
        timeline.ack(outbox_id)


def test_merge_racing_a_delete_leaves_no_stale_entry(timeline):
    author, viewer = users(2)
    post = timeline.publish(author, "soon deleted")
    timeline.drain()
    timeline.service(lambda s: s.follow(timeline.tenant, viewer, author))
    _ack_all(timeline)  # the merge runs below, interleaved by hand
    _interleave(timeline, lambda p: p.sync_pair(timeline.tenant, viewer, author),
                lambda: timeline.service(lambda s: s.delete_post(timeline.tenant, author, post.id)))
    assert [row.post_id for row in timeline.entries(viewer)] == []


def test_rebuild_racing_an_unfollow_leaves_no_stale_entry(timeline):
    author, viewer = users(2)
    follow_all(timeline, [viewer], author)
    post = timeline.publish(author, "lost, then rebuilt")
    _ack_all(timeline)  # never fanned out: the rebuild writes the entry
    _interleave(timeline, lambda p: p.rebuild(timeline.tenant, viewer),
                lambda: timeline.service(lambda s: s.unfollow(timeline.tenant, viewer, author)))
    assert [row.post_id for row in timeline.entries(viewer)] == []
    assert post.id not in post_ids(timeline.home(viewer).items)
