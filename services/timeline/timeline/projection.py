"""The rules of the viewer projections, run by the actors: fan-out chunks, clean-up, pair syncs,
rebuild and audit. Each takes the caller's session; a follow-up job is written to the outbox in the
same transaction as the chunk it continues."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from feeds_runtime import outbox
from timeline import jobs
from timeline.domain import Audit
from timeline.models import outbox as outbox_table
from timeline.repository import EntryRepository, GraphRepository, PostRepository
from timeline.settings import TimelineSettings


class Projection:
    def __init__(self, session: Session, settings: TimelineSettings) -> None:
        self.session = session
        self.settings = settings
        self.posts = PostRepository(session)
        self.graph = GraphRepository(session)
        self.entries = EntryRepository(session)

    def fanout_chunk(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, after: uuid.UUID | None) -> None:
        """Materialize the post for the next chunk of followers, reading the post as it is now. A
        chunk that runs twice, late or concurrently writes the same rows and queues no second
        follow-up, because only the run that moves the progress row on continues the chain."""
        post = self.posts.get(tenant_id, post_id, lock="FOR SHARE")
        if post is None:
            return
        reason = post.skip_reason()
        if reason is not None:
            self.entries.advance_fanout(tenant_id, post_id, generation, after, after, 0, done=True,
                                        skipped_reason=reason)
            return
        self.graph.lock_graph(tenant_id, post.author_id, shared=True)
        size = self.settings.fanout_chunk_size
        chunk = self.entries.fanout_chunk(tenant_id, post, after, size)
        done = chunk.scanned < size
        moved = self.entries.advance_fanout(tenant_id, post_id, generation, after, chunk.last_follower_id or after,
                                            chunk.written, done=done)
        if moved and not done:
            outbox.add(self.session, outbox_table, jobs.FANOUT_QUEUE, jobs.FANOUT_CHUNK,
                       str(tenant_id), str(post_id), generation, str(chunk.last_follower_id))

    def cleanup_post(self, tenant_id: uuid.UUID, post_id: uuid.UUID) -> None:
        """Remove followers' entries of a post that no longer fans out, a bounded batch per job."""
        post = self.posts.get(tenant_id, post_id, lock="FOR SHARE")
        if post is None or post.fans_out:
            return  # visible again: a new fan-out run owns its entries
        limit = self.settings.cleanup_chunk_size
        if self.entries.delete_post_following(tenant_id, post_id, limit) == limit:
            outbox.add(self.session, outbox_table, jobs.CLEANUP_QUEUE, jobs.CLEANUP_POST, str(tenant_id), str(post_id))

    def sync_pair(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID) -> None:
        """Align the viewer's entries of one author with the current follow and block state: all gone
        when the pair does not fan out, else the author's recent posts merged (bounded)."""
        if not self.graph.pair_fans_out(tenant_id, viewer_id, author_id):
            self.entries.delete_pair(tenant_id, viewer_id, author_id, only_ineligible=False)
            return
        self.entries.delete_pair(tenant_id, viewer_id, author_id, only_ineligible=True)
        self.entries.merge_recent(tenant_id, viewer_id, author_id, self.settings.follow_merge_posts)

    def rebuild(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> tuple[int, int]:
        return self.entries.rebuild(tenant_id, viewer_id, self.settings.rebuild_max_entries)

    def audit(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> Audit:
        missing, extra = self.entries.audit(tenant_id, viewer_id, self.settings.rebuild_max_entries)
        return Audit(missing, extra)
