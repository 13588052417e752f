"""The rules of a viewer's own policy over its home timeline: mutes. Applied at read time by the
home read (`repositories.home`); nothing here writes or removes an entry. Takes the caller's session
(or, for a list, an autocommit connection); never commits."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import text

from feeds_runtime.db import Executor
from timeline import codes
from timeline.domain import MAX_MUTES_PER_VIEWER, Mute
from timeline.repositories.mutes import MuteRepository
from timeline.repositories.sql import advisory_locks

_POLICY_LOCK = advisory_locks("pg_advisory_xact_lock", "timeline.policy")


class PolicyService:
    def __init__(self, session: Executor) -> None:
        self.session = session
        self.mutes = MuteRepository(session)

    def _lock(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> None:
        """One change of a viewer's policy at a time, so its limits hold under concurrent writes."""
        self.session.execute(text(_POLICY_LOCK), {"tenant": tenant_id, "ids": [viewer_id]})

    def mute(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID, until: datetime | None) -> Mute:
        """Mute the author, until unmuted or until `until`; muting again replaces the end."""
        if viewer_id == author_id:
            raise codes.invalid_request("a user cannot mute themselves")
        if until is not None and until <= datetime.now(UTC):
            raise codes.invalid_request("until must be in the future")
        self._lock(tenant_id, viewer_id)
        self.mutes.drop_expired(tenant_id, viewer_id)
        if self.mutes.count_others(tenant_id, viewer_id, author_id) >= MAX_MUTES_PER_VIEWER:
            raise codes.limit_exceeded(f"a viewer mutes at most {MAX_MUTES_PER_VIEWER} authors at once")
        return self.mutes.put(tenant_id, viewer_id, author_id, until)

    def unmute(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID) -> None:
        self.mutes.delete(tenant_id, viewer_id, author_id)

    def mutes_of(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[Mute]:
        return self.mutes.active(tenant_id, viewer_id)
