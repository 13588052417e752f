"""The rules of the viewer projections, run by the actors: fan-out chunks, trims, clean-up, pair
syncs, rebuild and audit. Each takes the caller's session; follow-up jobs are written to the outbox in
the same transaction as the job that queues them."""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from feeds_runtime import outbox
from timeline import jobs
from timeline.cursor import Position
from timeline.domain import Audit
from timeline.models import outbox as outbox_table
from timeline.repositories.entries import EntryRepository
from timeline.repositories.fanout import FanoutRunRepository
from timeline.repositories.graph import GraphRepository
from timeline.repositories.posts import PostRepository, RowLock
from timeline.repositories.windows import WindowRepository
from timeline.settings import TimelineSettings
from timeline.verdicts import FilterVerdicts


class Projection:
    def __init__(self, session: Session, settings: TimelineSettings) -> None:
        self.session = session
        self.settings = settings
        self.posts = PostRepository(session)
        self.graph = GraphRepository(session)
        self.entries = EntryRepository(session)
        self.runs = FanoutRunRepository(session)
        self.windows = WindowRepository(session)

    def fanout_chunk(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, chunk: int | None = None,
                     after: uuid.UUID | None = None, upto: uuid.UUID | None = None) -> float | None:
        """One chunk of the post's fan-out, reading the post as it is now. The first job (chunk None)
        plans the run: it cuts the followers into keyset ranges, queues a job for every range but the
        first, so several workers share one post, and writes the first range itself (no hop through
        the queue before the first rows). The ranges wait on a queue of their own, so the first job
        of a post published meanwhile passes them. A job that runs twice, late or concurrently writes the same
        rows; the plan is made once per generation and each chunk is counted once, so nothing forks
        and the progress stays exact. The viewers due for a trim get a trim job of their own. Returns
        the fan-out lag when this chunk completed a post's first run (`FanoutRunRepository.finish_chunk`)."""
        post = self.posts.get(tenant_id, post_id, lock=RowLock.SHARE)
        if post is None:
            return None
        reason = post.skip_reason()
        if reason is not None:
            self.runs.skip(tenant_id, post_id, generation, reason)
            return None
        self.graph.lock_graph(tenant_id, post.author_id, shared=True)
        if chunk is None:
            bounds = self.graph.chunk_bounds(tenant_id, post.author_id, self.settings.fanout_chunk_size)
            if not self.runs.plan(tenant_id, post_id, generation, len(bounds) + 1):
                return None
            ranges = list(zip([None, *bounds], [*bounds, None], strict=True))
            outbox.add_many(self.session, outbox_table, jobs.BULK_QUEUE, jobs.FANOUT_RANGE, [
                [str(tenant_id), str(post_id), generation, number, str(low) if low else None,
                 str(high) if high else None]
                for number, (low, high) in enumerate(ranges) if number > 0
            ])
            chunk, (after, upto) = 0, ranges[0]
        written, due, filtering = self.entries.fanout_range(tenant_id, post, after, upto, self.settings.trim_every)
        if filtering:
            FilterVerdicts(self.session).judge_post(tenant_id, post_id, filtering)
        if due:
            outbox.add(self.session, outbox_table, jobs.BULK_QUEUE, jobs.TRIM_VIEWERS, str(tenant_id),
                       [str(viewer) for viewer in due])
        return self.runs.finish_chunk(tenant_id, post_id, generation, chunk, written)

    def trim_viewers(self, tenant_id: uuid.UUID, viewer_ids: list[uuid.UUID]) -> int:
        """Cut each viewer's entries back to the window; the history below stays readable by pull."""
        self.windows.lock(tenant_id, *viewer_ids)
        return self.windows.trim(tenant_id, viewer_ids, self.settings.window_entries)

    def cleanup_post(self, tenant_id: uuid.UUID, post_id: uuid.UUID) -> None:
        """Remove followers' entries of a post that no longer fans out, a bounded batch per job."""
        post = self.posts.get(tenant_id, post_id, lock=RowLock.SHARE)
        if post is None or post.fans_out:
            return  # visible again: a new fan-out run owns its entries
        limit = self.settings.cleanup_chunk_size
        if self.entries.delete_post_following(tenant_id, post_id, limit) == limit:
            outbox.add(self.session, outbox_table, jobs.CLEANUP_QUEUE, jobs.CLEANUP_POST, str(tenant_id), str(post_id))

    def sync_pair(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID) -> None:
        """Align the viewer's entries of one author with the current follow and block state: all gone
        when the pair does not fan out, else the author's recent pushed posts merged. A merge takes at
        most a window of them; when the author has more, the horizon rises to the oldest one merged,
        so the older ones are read by pull rather than missing. Then the viewer is trimmed, and the
        author's entries it keeps are marked where its lasting hiding filters hide them
        (timeline.verdicts)."""
        if not self.graph.pair_fans_out(tenant_id, viewer_id, author_id):
            self.entries.delete_pair(tenant_id, viewer_id, author_id, only_ineligible=False)
            return
        self.entries.delete_pair(tenant_id, viewer_id, author_id, only_ineligible=True)
        window = self.settings.window_entries
        self.windows.lock(tenant_id, viewer_id)
        cut = self.entries.merge_recent(tenant_id, viewer_id, author_id, window)
        if cut is not None:
            self.windows.raise_horizon(tenant_id, viewer_id, cut)
        self.windows.trim(tenant_id, [viewer_id], window)
        FilterVerdicts(self.session).judge_entries(tenant_id, viewer_id, author_id)

    def rebuild(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> tuple[int, int]:
        """Rebuild the viewer: its following entries become the window's worth of the most recent
        posts it should see, and the horizon the last of them (none when they are fewer), so the
        rest of its history is read by pull. The graph locks of the viewer and of every followee are
        held shared, as a fan-out or pair sync holds them, so an unfollow or block waits for this
        rebuild and its pair sync sees what it wrote; a follow made meanwhile is left to its own pair
        sync. The entries kept are marked where the viewer's lasting hiding filters hide them."""
        followees = self.graph.followees(tenant_id, viewer_id)
        self.graph.lock_graph(tenant_id, viewer_id, *followees, shared=True)
        self.windows.lock(tenant_id, viewer_id)
        window = self.settings.window_entries
        rows = self.windows.wanted(tenant_id, viewer_id, followees, limit=window, lock=True)
        changed = self.entries.replace_following(tenant_id, viewer_id, rows)
        last = rows[-1] if len(rows) == window else None
        self.windows.set_horizon(tenant_id, viewer_id, last and Position(last.published_at, last.entry_id))
        FilterVerdicts(self.session).judge_entries(tenant_id, viewer_id)
        return changed

    def audit(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> Audit:
        """Compare the viewer's entries with what it should have, over the materialized part of its
        timeline (at and above the horizon); what lies below is read from the posts themselves."""
        horizon = self.windows.horizon(tenant_id, viewer_id)
        wanted = {row.post_id for row in self.windows.wanted(
            tenant_id, viewer_id, self.graph.followees(tenant_id, viewer_id), horizon=horizon)}
        materialized = self.entries.following_from(tenant_id, viewer_id, horizon)
        return Audit(sorted(wanted - materialized), sorted(materialized - wanted))
