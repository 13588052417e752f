"""The rules of policy over home timelines, a viewer's own (mutes, word filters, label preferences)
and its tenant's (label policies). Applied at read time (mutes by the home read's statements, the
rest by `matching.ReadPolicy` over what they return); nothing here writes or removes an entry, and
the only entry columns a change writes are the marks of lasting hiding filters (timeline.verdicts),
which let reads skip what those filters hide. Takes the caller's session (or, for a list, an
autocommit connection); never commits."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime

from sqlalchemy import text

from feeds_runtime.db import Executor
from feeds_runtime.folding import fold
from feeds_runtime.text import is_blank
from timeline import codes
from timeline.domain import (
    LABEL_PATTERN,
    MAX_FILTERS_PER_VIEWER,
    MAX_LABEL_RULES,
    MAX_LABELS_PER_POST,
    MAX_MUTES_PER_VIEWER,
    MAX_PHRASE_CHARS,
    FilterAction,
    LabelPolicy,
    LabelPreference,
    Mute,
    WordFilter,
)
from timeline.matching import ReadPolicy
from timeline.repositories.filters import FilterRepository
from timeline.repositories.labels import LabelRepository
from timeline.repositories.read_rules import read_rules
from timeline.repositories.mutes import MuteRepository
from timeline.repositories.sql import advisory_locks
from timeline.verdicts import FilterVerdicts

_POLICY_LOCK = advisory_locks("pg_advisory_xact_lock", "timeline.policy")
_LABEL = re.compile(LABEL_PATTERN)


def check_label(label: str) -> str:
    if not _LABEL.fullmatch(label):
        raise codes.invalid_request("a label is 1 to 32 lower-case ASCII letters, digits, '-' or '_', starting with "
                                    "a letter or digit")
    return label


def check_labels(labels: list[str]) -> list[str]:
    """A post's labels, each valid, in the order given, once each."""
    unique = list(dict.fromkeys(check_label(label) for label in labels))
    if len(unique) > MAX_LABELS_PER_POST:
        raise codes.invalid_request(f"a post carries at most {MAX_LABELS_PER_POST} labels")
    return unique


def _future(at: datetime | None, field: str) -> None:
    if at is not None and at <= datetime.now(UTC):
        raise codes.invalid_request(f"{field} must be in the future")


class PolicyService:
    def __init__(self, session: Executor) -> None:
        self.session = session
        self.mutes = MuteRepository(session)
        self.filters = FilterRepository(session)
        self.labels = LabelRepository(session)

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
        added = self.filters.insert(tenant_id, viewer_id, phrase, folded, action, expires_at)
        if added.lasting_hide:
            FilterVerdicts(self.session).filters_changed(tenant_id, viewer_id)
        return added

    def delete_filter(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, filter_id: uuid.UUID) -> None:
        self._lock(tenant_id, viewer_id)
        deleted = self.filters.delete(tenant_id, viewer_id, filter_id)
        if deleted is None:
            raise codes.filter_not_found()
        if deleted.lasting_hide:
            FilterVerdicts(self.session).filters_changed(tenant_id, viewer_id)

    def filters_of(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[WordFilter]:
        return self.filters.active(tenant_id, viewer_id)

    def set_label_policy(self, tenant_id: uuid.UUID, policy: LabelPolicy) -> LabelPolicy:
        check_label(policy.label)
        self._lock(tenant_id, tenant_id)  # the tenant's own policy: keyed by the tenant's id
        held = {held.label for held in self.labels.policies(tenant_id)}
        if len(held) >= MAX_LABEL_RULES and policy.label not in held:
            raise codes.limit_exceeded(f"a tenant sets at most {MAX_LABEL_RULES} label policies")
        self.labels.put_policy(tenant_id, policy)
        return policy

    def delete_label_policy(self, tenant_id: uuid.UUID, label: str) -> None:
        if not self.labels.delete_policy(tenant_id, check_label(label)):
            raise codes.label_not_found()

    def label_policies(self, tenant_id: uuid.UUID) -> list[LabelPolicy]:
        return self.labels.policies(tenant_id)

    def set_label_preference(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID,
                             preference: LabelPreference) -> LabelPreference:
        """The viewer's choice for a label; where the tenant's policy does not let viewers change
        it, the choice is kept but the policy decides (docs/timeline.md, "Labels")."""
        check_label(preference.label)
        self._lock(tenant_id, viewer_id)
        held = {p.label for p in self.labels.preferences(tenant_id, viewer_id)}
        if len(held) >= MAX_LABEL_RULES and preference.label not in held:
            raise codes.limit_exceeded(f"a viewer sets at most {MAX_LABEL_RULES} label preferences")
        self.labels.put_preference(tenant_id, viewer_id, preference)
        return preference

    def delete_label_preference(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, label: str) -> None:
        if not self.labels.delete_preference(tenant_id, viewer_id, check_label(label)):
            raise codes.label_not_found()

    def label_preferences(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[LabelPreference]:
        return self.labels.preferences(tenant_id, viewer_id)

    def read_policy(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> ReadPolicy:
        """What the viewer's home reads apply to each entry, as it stands now (one statement)."""
        filters, label_actions, filters_version = read_rules(self.session, tenant_id, viewer_id)
        return ReadPolicy(filters, label_actions, filters_version)
