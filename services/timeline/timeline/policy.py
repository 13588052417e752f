"""The rules of a viewer's own policy over its home timeline: mutes and word filters. Applied at
read time (mutes by the home read's statements, filters by `matching.ReadPolicy` over what they
return); nothing here writes or removes an entry. Takes the caller's session
(or, for a list, an autocommit connection); never commits."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import text

from feeds_runtime.db import Executor
from feeds_runtime.folding import fold
from feeds_runtime.text import is_blank
from timeline import codes
from timeline.domain import (
    MAX_FILTERS_PER_VIEWER,
    MAX_MUTES_PER_VIEWER,
    MAX_PHRASE_CHARS,
    FilterAction,
    Mute,
    WordFilter,
)
from timeline.matching import ReadPolicy
from timeline.repositories.filters import FilterRepository
from timeline.repositories.mutes import MuteRepository
from timeline.repositories.sql import advisory_locks

_POLICY_LOCK = advisory_locks("pg_advisory_xact_lock", "timeline.policy")


def _future(at: datetime | None, field: str) -> None:
    if at is not None and at <= datetime.now(UTC):
        raise codes.invalid_request(f"{field} must be in the future")


class PolicyService:
    def __init__(self, session: Executor) -> None:
        self.session = session
        self.mutes = MuteRepository(session)
        self.filters = FilterRepository(session)

    def _lock(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> None:
        """One change of a viewer's policy at a time, so its limits hold under concurrent writes."""
        self.session.execute(text(_POLICY_LOCK), {"tenant": tenant_id, "ids": [viewer_id]})

    def mute(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID, until: datetime | None) -> Mute:
        """Mute the author, until unmuted or until `until`; muting again replaces the end."""
        if viewer_id == author_id:
            raise codes.invalid_request("a user cannot mute themselves")
        _future(until, "until")
        self._lock(tenant_id, viewer_id)
        self.mutes.drop_expired(tenant_id, viewer_id)
        if self.mutes.count_others(tenant_id, viewer_id, author_id) >= MAX_MUTES_PER_VIEWER:
            raise codes.limit_exceeded(f"a viewer mutes at most {MAX_MUTES_PER_VIEWER} authors at once")
        return self.mutes.put(tenant_id, viewer_id, author_id, until)

    def unmute(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID) -> None:
        self.mutes.delete(tenant_id, viewer_id, author_id)

    def mutes_of(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[Mute]:
        return self.mutes.active(tenant_id, viewer_id)

    def add_filter(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, phrase: str, action: FilterAction,
                   expires_at: datetime | None) -> WordFilter:
        """A word filter, matched in the folded form of post bodies (timeline.matching)."""
        folded = fold(phrase)
        if is_blank(phrase) or len(phrase) > MAX_PHRASE_CHARS or not folded or "\x00" in phrase:
            raise codes.invalid_request(f"phrase must be 1 to {MAX_PHRASE_CHARS} characters, not blank, without NUL")
        _future(expires_at, "expires_at")
        self._lock(tenant_id, viewer_id)
        self.filters.drop_expired(tenant_id, viewer_id)
        if len(self.filters.active(tenant_id, viewer_id)) >= MAX_FILTERS_PER_VIEWER:
            raise codes.limit_exceeded(f"a viewer holds at most {MAX_FILTERS_PER_VIEWER} word filters at once")
        return self.filters.insert(tenant_id, viewer_id, phrase, folded, action, expires_at)

    def delete_filter(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, filter_id: uuid.UUID) -> None:
        if not self.filters.delete(tenant_id, viewer_id, filter_id):
            raise codes.filter_not_found()

    def filters_of(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[WordFilter]:
        return self.filters.active(tenant_id, viewer_id)

    def read_policy(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> ReadPolicy:
        """What the viewer's home reads apply to each entry, as it stands now."""
        return ReadPolicy(self.filters.active(tenant_id, viewer_id))
