"""Timeline protobuf messages → the host API's JSON (snake_case, RFC 3339 UTC timestamps)."""

from __future__ import annotations

from typing import Any

from feeds.timeline.v1 import timeline_pb2 as pb
from gateway.rendering import rfc3339

VISIBILITY = {pb.VISIBILITY_PUBLIC: "public", pb.VISIBILITY_PRIVATE: "private"}
MODERATION = {pb.MODERATION_STATE_VISIBLE: "visible", pb.MODERATION_STATE_HIDDEN: "hidden",
              pb.MODERATION_STATE_REMOVED: "removed"}
VISIBILITY_PB = {name: value for value, name in VISIBILITY.items()}
MODERATION_PB = {name: value for value, name in MODERATION.items()}


def stats(message: pb.PostStats) -> dict[str, int]:
    return {"like_count": message.like_count, "reply_count": message.reply_count, "share_count": message.share_count}


def post(message: pb.Post) -> dict[str, Any]:
    return {
        "id": message.id,
        "author_id": message.author_id,
        "body": message.body,
        "visibility": VISIBILITY[message.visibility],
        "moderation_state": MODERATION[message.moderation_state],
        "published_at": rfc3339(message.published_at),
        "stats": stats(message.stats),
    }


def items(messages) -> list[dict[str, Any]]:
    """A page of timeline items."""
    return [item(message) for message in messages]


def item(message: pb.TimelineItem) -> dict[str, Any]:
    return {
        "entry_id": message.entry_id,
        "post_id": message.post_id,
        "author_id": message.author_id,
        "body": message.body,
        "published_at": rfc3339(message.published_at),
        "ranked_at": rfc3339(message.ranked_at),
        "stats": stats(message.stats),
    }
