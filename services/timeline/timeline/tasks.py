"""Dramatiq actors of the timeline service. Idempotent; arguments are ids and plain JSON; each runs
one transaction (the actor is the boundary that owns it)."""

from __future__ import annotations

import uuid
from typing import Any

import dramatiq
from sqlalchemy.orm import Session

from timeline import jobs, metrics, rebuilds
from timeline.app import SERVICE
from timeline.projection import Projection

# A failed job is sent again by the outbox after a backoff that starts short: a job fails mostly on a
# lost connection.
RETRY: dict[str, Any] = {"min_backoff": 200, "max_backoff": 10_000, "time_limit": 120_000}


def _uuid(value: str | None) -> uuid.UUID | None:
    return uuid.UUID(value) if value else None


def _projection(session: Session) -> Projection:
    return Projection(session, SERVICE.settings)


# A worker thread that frees up takes a post's first job before a waiting bulk job.
BULK_PRIORITY = 10


@dramatiq.actor(queue_name=jobs.FANOUT_QUEUE, actor_name=jobs.FANOUT_CHUNK, **RETRY)
def fanout_chunk(tenant_id: str, post_id: str, generation: int, chunk: int | None = None,
                 after_follower_id: str | None = None, upto_follower_id: str | None = None) -> None:
    with SERVICE.database.transaction() as session:
        lag = _projection(session).fanout_chunk(uuid.UUID(tenant_id), uuid.UUID(post_id), int(generation),
                                                None if chunk is None else int(chunk), _uuid(after_follower_id),
                                                _uuid(upto_follower_id))
    metrics.fanout_chunk_written(lag)


@dramatiq.actor(queue_name=jobs.BULK_QUEUE, actor_name=jobs.FANOUT_RANGE, priority=BULK_PRIORITY, **RETRY)
def fanout_range(tenant_id: str, post_id: str, generation: int, chunk: int, after_follower_id: str | None,
                 upto_follower_id: str | None) -> None:
    fanout_chunk.fn(tenant_id, post_id, generation, chunk, after_follower_id, upto_follower_id)


@dramatiq.actor(queue_name=jobs.BULK_QUEUE, actor_name=jobs.TRIM_VIEWERS, priority=BULK_PRIORITY, **RETRY)
def trim_viewers(tenant_id: str, viewer_ids: list[str]) -> None:
    with SERVICE.database.transaction() as session:
        _projection(session).trim_viewers(uuid.UUID(tenant_id), [uuid.UUID(viewer) for viewer in viewer_ids])


@dramatiq.actor(queue_name=jobs.CLEANUP_QUEUE, actor_name=jobs.CLEANUP_POST, **RETRY)
def cleanup_post(tenant_id: str, post_id: str) -> None:
    with SERVICE.database.transaction() as session:
        _projection(session).cleanup_post(uuid.UUID(tenant_id), uuid.UUID(post_id))


@dramatiq.actor(queue_name=jobs.CLEANUP_QUEUE, actor_name=jobs.SYNC_PAIR, **RETRY)
def sync_pair(tenant_id: str, viewer_id: str, author_id: str) -> None:
    with SERVICE.database.transaction() as session:
        _projection(session).sync_pair(uuid.UUID(tenant_id), uuid.UUID(viewer_id), uuid.UUID(author_id))



@dramatiq.actor(queue_name=jobs.BULK_QUEUE, actor_name=jobs.REBUILD_VIEWER, priority=BULK_PRIORITY, **RETRY)
def rebuild_viewer(tenant_id: str, rebuild_id: str) -> None:
    rebuilds.run(SERVICE.database, SERVICE.settings, uuid.UUID(tenant_id), uuid.UUID(rebuild_id))
