"""Rebuilds a host requests for one viewer (docs/timeline.md, "Rebuild"): accepted at once, run by a
job. The run is the internal rebuild (`Projection.rebuild`), one transaction, so readers see the old
entries until the new ones commit and never an empty timeline; it is bounded by a statement timeout,
and a run that fails is tried again up to REBUILD_ATTEMPTS times before the rebuild fails."""

from __future__ import annotations

import logging
import uuid

from sqlalchemy import text
from sqlalchemy.orm import Session

from feeds_runtime import outbox
from feeds_runtime.db import Database
from timeline import codes, jobs
from timeline.domain import Rebuild
from timeline.models import outbox as outbox_table
from timeline.projection import Projection
from timeline.repositories.rebuilds import RebuildRepository
from timeline.settings import TimelineSettings

log = logging.getLogger("timeline.rebuilds")

REBUILD_ATTEMPTS = 3


def request(session: Session, settings: TimelineSettings, tenant_id: uuid.UUID,
            viewer_id: uuid.UUID) -> tuple[Rebuild, bool]:
    """The viewer's live rebuild if it has one, else a new queued one and its job; and whether it is
    new. Past the tenant's limit of live rebuilds, a new one is refused."""
    rebuilds = RebuildRepository(session)
    rebuilds.lock_tenant(tenant_id)
    live = rebuilds.live_for(tenant_id, viewer_id)
    if live is not None:
        return live, False
    if rebuilds.live_count(tenant_id) >= settings.rebuilds_per_tenant:
        raise codes.too_many_rebuilds(settings.rebuilds_per_tenant)
    rebuild = rebuilds.insert(tenant_id, viewer_id)
    outbox.add(session, outbox_table, jobs.BULK_QUEUE, jobs.REBUILD_VIEWER, str(tenant_id), str(rebuild.id))
    return rebuild, True


def run(database: Database, settings: TimelineSettings, tenant_id: uuid.UUID, rebuild_id: uuid.UUID) -> None:
    """One run of the rebuild's job, each step its own transaction: start (visible as running), the
    rebuild with its counts, or on failure the next try (the error raised again, for the outbox to
    send the job after its backoff) or, at the last attempt, the failed status."""
    with database.transaction() as session:
        started = RebuildRepository(session).start(tenant_id, rebuild_id)
    if started is None:
        return  # over already: a job delivered again does nothing
    viewer_id, attempt = started
    try:
        with database.transaction() as session:
            session.execute(text("SELECT set_config('statement_timeout', :ms, true)"),
                            {"ms": str(settings.rebuild_statement_timeout_ms)})
            written, removed = Projection(session, settings).rebuild(tenant_id, viewer_id)
            RebuildRepository(session).succeed(tenant_id, rebuild_id, written, removed)
    except Exception as error:
        cause = type(getattr(error, "orig", None) or error).__name__
        log.warning("rebuild run failed", extra={"rebuild_id": str(rebuild_id), "attempt": attempt, "error": cause})
        if attempt < REBUILD_ATTEMPTS:
            raise
        with database.transaction() as session:
            RebuildRepository(session).fail(tenant_id, rebuild_id, cause)
