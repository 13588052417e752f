"""Rebuilds a host requests: queued, run by the job, one live per viewer, a limit per tenant, the old
entries readable until the new ones commit, self entries kept, a run that fails tried again and then
failed, and each rebuild its tenant's alone."""

from __future__ import annotations

import threading
import uuid

import pytest
from sqlalchemy import text

from feeds_runtime.errors import FailedPrecondition, NotFound
from timeline import jobs
from timeline.domain import RebuildStatus
from timeline.rebuilds import REBUILD_ATTEMPTS
from timeline.repositories.graph import GraphRepository

from .conftest import WINDOW, Timeline, blocked_or_done, follow, users


def request(timeline: Timeline, viewer):
    return timeline.service(lambda s: s.request_rebuild(timeline.tenant, viewer))


def get(timeline: Timeline, rebuild_id):
    return timeline.service(lambda s: s.get_rebuild(timeline.tenant, rebuild_id))


def rebuild_jobs(timeline: Timeline) -> list:
    return [job for job in timeline.pending_jobs() if job.actor_name == jobs.REBUILD_VIEWER]


def test_a_rebuild_is_queued_once_per_viewer_and_repairs_its_timeline(timeline: Timeline):
    viewer, author = users(2)
    follow(timeline, viewer, author)
    posts = [timeline.publish(author, f"p{i}") for i in range(3)]
    own = timeline.publish(viewer, "own")
    timeline.drain()
    # Given drift: a lost entry
    with timeline.database.transaction() as session:
        session.execute(text("DELETE FROM timeline.timeline_entries WHERE tenant_id = :t AND viewer_id = :v "
                             "AND post_id = :p"), {"t": timeline.tenant, "v": viewer, "p": posts[0].id})
    rebuild, created = request(timeline, viewer)
    assert created and rebuild.status is RebuildStatus.QUEUED and rebuild.started_at is None
    # A second request answers the live one and queues nothing more
    again, created_again = request(timeline, viewer)
    assert (again.id, created_again) == (rebuild.id, False)
    [job] = rebuild_jobs(timeline)
    assert job.queue_name == jobs.BULK_QUEUE
    timeline.drain()
    done = get(timeline, rebuild.id)
    assert done.status is RebuildStatus.SUCCEEDED and done.started_at and done.finished_at
    assert (done.entries_written, done.entries_removed) == (1, 0)  # the lost entry written again
    assert [uuid.UUID(i.post_id) for i in timeline.all_home(viewer)] == [own.id, *[p.id for p in reversed(posts)]]
    assert timeline.service(lambda s: s.latest_rebuild(timeline.tenant, viewer)).id == rebuild.id
    # Over, a new request makes a new rebuild; running its job twice changes nothing more
    later, created = request(timeline, viewer)
    assert created and later.id != rebuild.id
    [job] = rebuild_jobs(timeline)
    timeline.run_job(job.actor_name, job.args)
    timeline.run_job(job.actor_name, job.args)
    assert get(timeline, later.id).status is RebuildStatus.SUCCEEDED


def test_a_tenant_has_a_bounded_number_of_live_rebuilds(timeline_db, timeline_settings):
    timeline = Timeline(timeline_db, timeline_settings.model_copy(update={"rebuilds_per_tenant": 2}))
    first, second, third = users(3)
    request(timeline, first)
    request(timeline, second)
    with pytest.raises(FailedPrecondition) as refused:
        request(timeline, third)
    assert refused.value.reason == "too_many_rebuilds"
    assert request(timeline, first)[1] is False  # a live one is still answered
    # Another tenant has its own limit
    assert request(Timeline(timeline_db, timeline.settings), third)[1]
    timeline.drain()
    assert request(timeline, third)[1]


def test_reads_keep_the_old_entries_until_the_rebuild_commits(small: Timeline):
    viewer, author = users(2)
    follow(small, viewer, author)
    for i in range(WINDOW + 2):
        small.publish(author, f"p{i}")
    small.publish(viewer, "own")
    small.drain()
    before = [item.post_id for item in small.all_home(viewer, 2)]
    rebuild, _ = request(small, viewer)
    # When the rebuild is held after it rewrote the entries, at the viewer's horizon
    with small.database.transaction() as holder:
        assert holder.execute(text("SELECT 1 FROM timeline.viewer_horizons WHERE tenant_id = :t AND viewer_id = :v "
                                   "FOR UPDATE"), {"t": small.tenant, "v": viewer}).first()
        [job] = rebuild_jobs(small)
        worker = threading.Thread(target=small.run_job, args=(job.actor_name, job.args))
        worker.start()
        blocked_or_done(small, worker)
        # Then a read meanwhile still sees the whole timeline, and the rebuild shows as running
        assert [item.post_id for item in small.all_home(viewer, 2)] == before
        assert get(small, rebuild.id).status is RebuildStatus.RUNNING
    worker.join()
    assert get(small, rebuild.id).status is RebuildStatus.SUCCEEDED
    assert [item.post_id for item in small.all_home(viewer, 2)] == before


def test_a_run_that_keeps_failing_fails_the_rebuild(timeline_db, timeline_settings):
    timeline = Timeline(timeline_db, timeline_settings.model_copy(update={"rebuild_statement_timeout_ms": 50}))
    viewer, author = users(2)
    follow(timeline, viewer, author)
    timeline.publish(author, "post")
    timeline.drain()
    rebuild, _ = request(timeline, viewer)
    [job] = rebuild_jobs(timeline)
    # While a follow of the viewer's holds its graph lock, every run waits past its statement timeout
    with timeline.database.transaction() as holder:
        GraphRepository(holder).lock_graph(timeline.tenant, viewer, shared=False)
        for attempt in range(1, REBUILD_ATTEMPTS):
            with pytest.raises(Exception):
                timeline.run_job(job.actor_name, job.args)
            assert get(timeline, rebuild.id).status is RebuildStatus.RUNNING, attempt
        timeline.run_job(job.actor_name, job.args)
    failed = get(timeline, rebuild.id)
    assert failed.status is RebuildStatus.FAILED and failed.error == "QueryCanceled" and failed.finished_at
    # Over, the viewer may be rebuilt again
    assert request(timeline, viewer)[1]


def test_a_rebuild_is_its_tenants_alone(timeline_db, timeline_settings):
    one, two = Timeline(timeline_db, timeline_settings), Timeline(timeline_db, timeline_settings)
    viewer = uuid.uuid4()
    rebuild, _ = request(one, viewer)
    with pytest.raises(NotFound):
        get(two, rebuild.id)
    with pytest.raises(NotFound):
        two.service(lambda s: s.latest_rebuild(two.tenant, viewer))
    with pytest.raises(NotFound):
        get(one, uuid.uuid4())
