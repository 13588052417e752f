"""Timeline protobuf messages → the host API's JSON (snake_case, RFC 3339 UTC timestamps)."""

from __future__ import annotations

from typing import Literal

from pydantic import with_config
from typing_extensions import TypedDict

from feeds.timeline.v1 import timeline_pb2 as pb
from gateway.contract.fields import CLOSED, DateTime, Uuid
from gateway.rendering import rfc3339

Visibility = Literal["public", "private"]
Moderation = Literal["visible", "hidden", "removed"]
VISIBILITY: dict[pb.Visibility, Visibility] = {pb.VISIBILITY_PUBLIC: "public", pb.VISIBILITY_PRIVATE: "private"}
MODERATION: dict[pb.ModerationState, Moderation] = {pb.MODERATION_STATE_VISIBLE: "visible", pb.MODERATION_STATE_HIDDEN: "hidden",
                                     pb.MODERATION_STATE_REMOVED: "removed"}
RebuildStatus = Literal["queued", "running", "succeeded", "failed"]
REBUILD_STATUS: dict[pb.RebuildStatus, RebuildStatus] = {
    pb.REBUILD_STATUS_QUEUED: "queued", pb.REBUILD_STATUS_RUNNING: "running", pb.REBUILD_STATUS_SUCCEEDED: "succeeded",
    pb.REBUILD_STATUS_FAILED: "failed"}
FilterAction = Literal["hide", "warn"]
FILTER_ACTION: dict[pb.FilterAction, FilterAction] = {pb.FILTER_ACTION_HIDE: "hide", pb.FILTER_ACTION_WARN: "warn"}
FILTER_ACTION_PB = {name: value for value, name in FILTER_ACTION.items()}
LabelAction = Literal["hide", "warn", "show"]
LABEL_ACTION: dict[pb.FilterAction, LabelAction] = {**FILTER_ACTION, pb.FILTER_ACTION_SHOW: "show"}
LABEL_ACTION_PB = {name: value for value, name in LABEL_ACTION.items()}
VISIBILITY_PB = {name: value for value, name in VISIBILITY.items()}
MODERATION_PB = {name: value for value, name in MODERATION.items()}


@with_config(CLOSED)
class TimelineStats(TypedDict):
    like_count: int
    reply_count: int
    share_count: int


@with_config(CLOSED)
class TimelinePost(TypedDict):
    id: Uuid
    author_id: Uuid
    body: str
    visibility: Visibility
    moderation_state: Moderation
    published_at: DateTime
    stats: TimelineStats
    labels: list[str]


@with_config(CLOSED)
class TimelineFilterMatch(TypedDict):
    """A viewer's word filter with the warn action that matched the entry's post (`word`), or a label
    of the post whose action is warn for the viewer (`label`, no filter id)."""

    kind: Literal["word", "label"]
    filter_id: Uuid | None
    # The filter's phrase as the viewer wrote it, or the label.
    value: str


@with_config(CLOSED)
class TimelineItem(TypedDict):
    entry_id: Uuid
    post_id: Uuid
    author_id: Uuid
    body: str
    published_at: DateTime
    ranked_at: DateTime
    stats: TimelineStats
    labels: list[str]
    # Empty unless a filter or label with the warn action matched: the host may fold the entry.
    filtered: list[TimelineFilterMatch]


@with_config(CLOSED)
class TimelineDeleted(TypedDict):
    post_id: Uuid
    deleted: bool


@with_config(CLOSED)
class TimelineFollow(TypedDict):
    follower_id: Uuid
    followee_id: Uuid
    following: bool


@with_config(CLOSED)
class TimelineBlock(TypedDict):
    blocker_id: Uuid
    blocked_id: Uuid
    blocked: bool


@with_config(CLOSED)
class TimelineMute(TypedDict):
    author_id: Uuid
    # null: until unmuted.
    until: DateTime | None
    created_at: DateTime


@with_config(CLOSED)
class TimelineUnmuted(TypedDict):
    author_id: Uuid
    muted: bool


@with_config(CLOSED)
class TimelineWordFilter(TypedDict):
    id: Uuid
    phrase: str
    action: FilterAction
    created_at: DateTime
    # null: until deleted.
    expires_at: DateTime | None


@with_config(CLOSED)
class TimelineFilterDeleted(TypedDict):
    id: Uuid
    deleted: bool


@with_config(CLOSED)
class TimelineLabelPolicy(TypedDict):
    label: str
    action: LabelAction
    viewer_may_change: bool


@with_config(CLOSED)
class TimelineLabelPreference(TypedDict):
    label: str
    action: LabelAction


@with_config(CLOSED)
class TimelineLabelRuleDeleted(TypedDict):
    label: str
    deleted: bool


@with_config(CLOSED)
class TimelineRebuild(TypedDict):
    id: Uuid
    viewer_id: Uuid
    status: RebuildStatus
    requested_at: DateTime
    # null until it starts, and until it is over.
    started_at: DateTime | None
    finished_at: DateTime | None
    # Following entries it wrote (missing, or out of place) and stale ones it removed, once it succeeded.
    entries_written: int
    entries_removed: int
    # Why it failed (the kind of error), else null.
    error: str | None


@with_config(CLOSED)
class TimelinePong(TypedDict):
    ok: bool


def stats(message: pb.PostStats) -> TimelineStats:
    return {"like_count": message.like_count, "reply_count": message.reply_count, "share_count": message.share_count}


def post(message: pb.Post) -> TimelinePost:
    return {
        "id": message.id,
        "author_id": message.author_id,
        "body": message.body,
        "visibility": VISIBILITY[message.visibility],
        "moderation_state": MODERATION[message.moderation_state],
        "published_at": rfc3339(message.published_at),
        "stats": stats(message.stats),
        "labels": list(message.labels),
    }


def label_policy(message: pb.LabelPolicy) -> TimelineLabelPolicy:
    return {"label": message.label, "action": LABEL_ACTION[message.action], "viewer_may_change": message.viewer_may_change}


def label_preference(message: pb.LabelPreference) -> TimelineLabelPreference:
    return {"label": message.label, "action": LABEL_ACTION[message.action]}


def rebuild(message: pb.Rebuild) -> TimelineRebuild:
    return {"id": message.id, "viewer_id": message.viewer_id, "status": REBUILD_STATUS[message.status],
            "requested_at": rfc3339(message.requested_at),
            "started_at": rfc3339(message.started_at) if message.HasField("started_at") else None,
            "finished_at": rfc3339(message.finished_at) if message.HasField("finished_at") else None,
            "entries_written": message.entries_written, "entries_removed": message.entries_removed,
            "error": message.error or None}


def mute(message: pb.Mute) -> TimelineMute:
    return {"author_id": message.author_id,
            "until": rfc3339(message.until) if message.HasField("until") else None,
            "created_at": rfc3339(message.created_at)}


def word_filter(message: pb.WordFilter) -> TimelineWordFilter:
    return {"id": message.id, "phrase": message.phrase, "action": FILTER_ACTION[message.action],
            "created_at": rfc3339(message.created_at),
            "expires_at": rfc3339(message.expires_at) if message.HasField("expires_at") else None}


def items(messages) -> list[TimelineItem]:
    """A page of timeline items."""
    return [item(message) for message in messages]


def item(message: pb.TimelineItem) -> TimelineItem:
    return {
        "entry_id": message.entry_id,
        "post_id": message.post_id,
        "author_id": message.author_id,
        "body": message.body,
        "published_at": rfc3339(message.published_at),
        "ranked_at": rfc3339(message.ranked_at),
        "stats": stats(message.stats),
        "labels": list(message.labels),
        "filtered": [_match(match) for match in message.filtered],
    }


def _match(message: pb.FilterMatch) -> TimelineFilterMatch:
    if message.kind == "label":
        return {"kind": "label", "filter_id": None, "value": message.value}
    return {"kind": "word", "filter_id": message.filter_id, "value": message.value}
