"""Queue and actor names shared by the services that write outbox rows and the actors that run them."""

from __future__ import annotations

FANOUT_QUEUE = "timeline.fanout"
# Long jobs a fan-out causes (a big post's later follower ranges, trims of the viewers it filled),
# apart from every post's first job and held to part of a worker's threads (`SERVICE.bulk_queues`),
# so a small post published meanwhile is not queued behind them (head-of-line blocking).
BULK_QUEUE = "timeline.bulk"
CLEANUP_QUEUE = "timeline.cleanup"
QUEUES = [FANOUT_QUEUE, BULK_QUEUE, CLEANUP_QUEUE]

# (tenant_id, post_id, generation): the first job of a post's fan-out, which plans the chunks and
# writes chunk 0.
FANOUT_CHUNK = "timeline.fanout_chunk"
# (…, chunk number, after_follower_id | None, upto_follower_id | None): one later keyset range of
# followers. (FANOUT_CHUNK takes these arguments too: jobs queued before the ranges had a queue.)
FANOUT_RANGE = "timeline.fanout_range"
# (tenant_id, [viewer_id, …]): cut each viewer's entries back to its window.
TRIM_VIEWERS = "timeline.trim_viewers"
# (tenant_id, post_id): drop following entries of a post that is no longer eligible.
CLEANUP_POST = "timeline.cleanup_post"
# (tenant_id, viewer_id, author_id): align a viewer's entries of one author with follow and block state.
SYNC_PAIR = "timeline.sync_pair"

# (tenant_id, rebuild_id): run a rebuild a host requested (timeline.rebuilds).
REBUILD_VIEWER = "timeline.rebuild_viewer"

# Integration event types of the timeline event log (`timeline.models.events`).
# {tenant_id, post_id, author_id, visibility, published_at}: a post was published.
POST_PUBLISHED = "timeline.post_published"
