"""Domain values of the timeline context, independent of protobuf and SQL."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple


class Visibility(enum.StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"


class FilterAction(enum.StrEnum):
    """What a matching word filter or a label does to an entry of the home timeline: `hide` leaves it
    out; `warn` returns it with the match named in its `filtered` field, for the host to fold it;
    `show` (labels only) returns it as it is."""

    HIDE = "hide"
    WARN = "warn"
    SHOW = "show"


class RebuildStatus(enum.StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class Delivery(enum.StrEnum):
    """How followers receive a post, fixed when it is published: `push` writes an entry per follower
    (fan-out on write); `pull` (an author with at least TIMELINE_PULL_THRESHOLD followers) writes
    none, and home reads merge the post in from the posts table."""

    PUSH = "push"
    PULL = "pull"


class Moderation(enum.StrEnum):
    VISIBLE = "visible"
    HIDDEN = "hidden"
    REMOVED = "removed"


DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 100
MAX_BODY_CHARS = 10_000
# Active mutes a viewer may hold at once.
MAX_MUTES_PER_VIEWER = 1000
# Active word filters a viewer may hold at once, and the length of a phrase.
MAX_FILTERS_PER_VIEWER = 100
MAX_PHRASE_CHARS = 100
# A label: lower-case ASCII letters, digits, `-` and `_`, starting with a letter or digit, 1 to 32
# characters; a post carries at most MAX_LABELS_PER_POST.
LABEL_PATTERN = "^[a-z0-9][a-z0-9_-]{0,31}$"
MAX_LABELS_PER_POST = 10
# Label rules a tenant, and a viewer, may hold.
MAX_LABEL_RULES = 100


@dataclass(frozen=True)
class Stats:
    like_count: int = 0
    reply_count: int = 0
    share_count: int = 0


@dataclass(frozen=True)
class Post:
    id: uuid.UUID
    tenant_id: uuid.UUID
    author_id: uuid.UUID
    body: str
    visibility: Visibility
    moderation_state: Moderation
    delivery: Delivery
    published_at: datetime
    deleted_at: datetime | None
    stats: Stats
    labels: list[str]

    @property
    def fans_out(self) -> bool:
        """Whether followers may see it: not deleted, visible, public."""
        return self.deleted_at is None and self.moderation_state is Moderation.VISIBLE and self.visibility is Visibility.PUBLIC

    def skip_reason(self) -> str | None:
        """Why a fan-out run writes nothing for this post, if it does not."""
        if self.delivery is Delivery.PULL:
            return "pulled"
        if self.deleted_at is not None:
            return "deleted"
        if self.moderation_state is not Moderation.VISIBLE:
            return "not_visible"
        if self.visibility is not Visibility.PUBLIC:
            return "private"
        return None


class TimelineItem(NamedTuple):
    """One item of a home page: ids in their text form and stats flat, as a page carries them. A
    page builds fifty of these, so each is a plain tuple rather than a frozen dataclass (which sets
    every field through `object.__setattr__`), and no UUID is built only to become text again."""

    entry_id: str
    post_id: str
    ranked_at: datetime
    author_id: str
    body: str
    published_at: datetime
    like_count: int
    reply_count: int
    share_count: int
    labels: list[str]


class FilterMatch(NamedTuple):
    """Why an entry a `warn` applies to is marked: a word filter (`kind` "word", its id and phrase)
    or a label of its post (`kind` "label", no id, the label)."""

    kind: str
    filter_id: str
    value: str


@dataclass(frozen=True)
class HomePage:
    items: list[TimelineItem]
    next_cursor: str | None
    # The matches of the items marked by a `warn`, by entry id.
    filtered: dict[str, list[FilterMatch]] = field(default_factory=dict)
    # Entries read and judged by the viewer's policy to fill the page (0 without a policy).
    examined: int = 0


@dataclass(frozen=True)
class Mute:
    author_id: uuid.UUID
    # None: until unmuted.
    until: datetime | None
    created_at: datetime


@dataclass(frozen=True)
class WordFilter:
    id: uuid.UUID
    # As the viewer wrote it, and folded (what is matched).
    phrase: str
    folded_phrase: str
    action: FilterAction
    created_at: datetime
    # None: until deleted.
    expires_at: datetime | None

    @property
    def lasting_hide(self) -> bool:
        """Whether entries may keep its verdict (timeline.verdicts): it hides, and has no end."""
        return self.action is FilterAction.HIDE and self.expires_at is None


@dataclass(frozen=True)
class LabelPolicy:
    """What a label does in a tenant's home timelines, and whether a viewer's preference may change it."""

    label: str
    action: FilterAction
    viewer_may_change: bool


@dataclass(frozen=True)
class LabelPreference:
    label: str
    action: FilterAction


@dataclass(frozen=True)
class Rebuild:
    id: uuid.UUID
    viewer_id: uuid.UUID
    status: RebuildStatus
    requested_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    entries_written: int
    entries_removed: int
    error: str | None


@dataclass(frozen=True)
class Audit:
    missing_post_ids: list[uuid.UUID]
    extra_post_ids: list[uuid.UUID]

    @property
    def in_sync(self) -> bool:
        return not self.missing_post_ids and not self.extra_post_ids
