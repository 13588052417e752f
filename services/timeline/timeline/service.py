"""The rules of the timeline context for one RPC. Takes the caller's session (or, for a read of one
statement, an autocommit connection); never commits."""

from __future__ import annotations

import functools
import uuid

from sqlalchemy.orm import Session

from feeds_runtime import events, outbox
from feeds_runtime.db import Executor
from feeds_runtime.folding import fold
from feeds_runtime.idempotency import KEY_RULE, request_fingerprint, valid_key
from feeds_runtime.text import is_blank
from timeline import codes, jobs, rebuilds
from timeline.cursor import HomeCursors, Position
from timeline.domain import (
    DEFAULT_PAGE_SIZE,
    MAX_BODY_CHARS,
    MAX_PAGE_SIZE,
    Delivery,
    FilterMatch,
    HomePage,
    Moderation,
    Post,
    Rebuild,
    TimelineItem,
    Visibility,
)
from timeline.models import events as events_table
from timeline.models import outbox as outbox_table
from timeline.repositories.entries import EntryRepository
from timeline.repositories.fanout import FanoutRunRepository
from timeline.repositories.graph import GraphRepository
from timeline.matching import ReadPolicy
from timeline.policy import PolicyService, check_labels
from timeline.read_ahead import ReadAhead
from timeline.repositories.home import ITEM_COLUMNS, HomeRepository
from timeline.repositories.posts import PostRepository, RowLock
from timeline.repositories.rebuilds import RebuildRepository
from timeline.settings import TimelineSettings


# What the recent viewers' filtered pages saw, shared by every read of the process.
_READ_AHEAD = ReadAhead(capacity=10_000)


@functools.lru_cache(maxsize=4)
def _home_cursors(secret: bytes) -> HomeCursors:
    """The codec of a secret, built once rather than on every page read."""
    return HomeCursors(secret)


def parse_id(value: str, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except (ValueError, TypeError):
        raise codes.invalid_id(what) from None


class TimelineService:
    def __init__(self, session: Executor, settings: TimelineSettings) -> None:
        self.session = session
        self.settings = settings
        self.posts = PostRepository(session)
        self.graph = GraphRepository(session)
        self.entries = EntryRepository(session)
        self.runs = FanoutRunRepository(session)

    def _transaction(self) -> Session:
        """The caller's session: a change queues its jobs in the caller's transaction, which a read's
        autocommit connection is not."""
        if not isinstance(self.session, Session):
            raise TypeError("a change needs the caller's transaction, not a read connection")
        return self.session

    def _job(self, queue: str, actor: str, *args: object) -> None:
        outbox.add(self._transaction(), outbox_table, queue, actor, *(str(a) if a is not None else None for a in args))

    # Posts.

    def publish(self, tenant_id: uuid.UUID, author_id: uuid.UUID, body: str, visibility: Visibility,
                idempotency_key: str | None, labels: list[str] | None = None) -> tuple[Post, bool]:
        """Canonical post (with its labels), the author's self entry, initial stats, the fan-out job
        (unless private) and the published event, all in the caller's transaction. Returns the post
        and whether an earlier publish with the same key answered."""
        labels = check_labels(labels or [])
        if is_blank(body) or len(body) > MAX_BODY_CHARS:
            raise codes.invalid_request(f"body must be 1 to {MAX_BODY_CHARS} characters, not blank")
        if idempotency_key is not None and not valid_key(idempotency_key):
            raise codes.invalid_request(f"Idempotency-Key must be {KEY_RULE}")
        # Labels count in the fingerprint when there are some, so keys of posts without labels keep theirs.
        fingerprint = (request_fingerprint(body, visibility.value, *([labels] if labels else []))
                       if idempotency_key is not None else None)
        post_id = uuid.uuid4()
        # A big account's post reaches its followers by pull, decided once, when it is published.
        pulled = visibility is Visibility.PUBLIC and self.graph.has_followers(tenant_id, author_id,
                                                                              self.settings.pull_threshold)
        delivery = Delivery.PULL if pulled else Delivery.PUSH
        published_at = self.posts.insert(post_id, tenant_id, author_id, body, fold(body), labels, visibility, delivery,
                                         idempotency_key, fingerprint)
        if published_at is None:
            assert idempotency_key is not None, "only a publish with a key can conflict"
            existing, existing_fingerprint = self.posts.by_idempotency_key(tenant_id, author_id, idempotency_key)
            if existing_fingerprint != fingerprint:
                raise codes.idempotency_conflict()
            return existing, True
        self.posts.insert_stats(tenant_id, post_id)
        self.entries.insert_self(tenant_id, author_id, post_id, published_at)
        if delivery is Delivery.PULL:
            self.posts.mark_pulled_author(tenant_id, author_id)
        elif visibility is Visibility.PUBLIC:
            generation = self.runs.start(tenant_id, post_id, published_at)
            self._job(jobs.FANOUT_QUEUE, jobs.FANOUT_CHUNK, tenant_id, post_id, generation)
        events.append(self._transaction(), events_table, jobs.POST_PUBLISHED, {
            "tenant_id": str(tenant_id), "post_id": str(post_id), "author_id": str(author_id),
            "visibility": visibility.value, "published_at": published_at.isoformat()}, tenant_id=tenant_id)
        return self.posts.written(tenant_id, post_id), False

    def get_post(self, tenant_id: uuid.UUID, post_id: uuid.UUID, viewer_id: uuid.UUID | None) -> Post:
        """A host call without a viewer sees any live post of its tenant (moderation included); a viewer
        sees only what their timeline could show them."""
        found = self.posts.get_for_viewer(tenant_id, post_id, viewer_id)
        if found is None or found[0].deleted_at is not None:
            raise codes.post_not_found()
        post, blocked = found
        if viewer_id is not None and viewer_id != post.author_id and (
            post.visibility is not Visibility.PUBLIC or post.moderation_state is not Moderation.VISIBLE or blocked
        ):
            raise codes.post_not_found()
        return post

    def delete_post(self, tenant_id: uuid.UUID, actor_id: uuid.UUID, post_id: uuid.UUID) -> None:
        post = self.posts.get(tenant_id, post_id, lock=RowLock.UPDATE)
        # Only the author may delete; to anyone else the post is not there to act on, as GetPost
        # hides another author's private post.
        if post is None or post.author_id != actor_id:
            raise codes.post_not_found()
        if post.deleted_at is not None:
            return  # deleting twice is the same as once
        self.posts.soft_delete(tenant_id, post_id)
        if post.delivery is Delivery.PUSH:
            self._job(jobs.CLEANUP_QUEUE, jobs.CLEANUP_POST, tenant_id, post_id)

    def set_labels(self, tenant_id: uuid.UUID, post_id: uuid.UUID, labels: list[str]) -> Post:
        """Replace the post's labels; home reads apply them from the next read on."""
        labels = check_labels(labels)
        post = self.posts.get(tenant_id, post_id, lock=RowLock.UPDATE)
        if post is None or post.deleted_at is not None:
            raise codes.post_not_found()
        self.posts.set_labels(tenant_id, post_id, labels)
        return self.posts.written(tenant_id, post_id)

    def set_moderation(self, tenant_id: uuid.UUID, post_id: uuid.UUID, state: Moderation) -> Post:
        post = self.posts.get(tenant_id, post_id, lock=RowLock.UPDATE)
        if post is None or post.deleted_at is not None:
            raise codes.post_not_found()
        if state is post.moderation_state:
            return post
        self.posts.set_moderation(tenant_id, post_id, state)
        # A pulled post has no follower entries: reads apply the new state as they pull it.
        if post.delivery is Delivery.PUSH:
            if state is Moderation.VISIBLE:
                if post.visibility is Visibility.PUBLIC:
                    # Entries were cleaned up while the post was not visible: fan it out anew.
                    generation = self.runs.start(tenant_id, post_id, post.published_at)
                    self._job(jobs.FANOUT_QUEUE, jobs.FANOUT_CHUNK, tenant_id, post_id, generation)
            elif post.moderation_state is Moderation.VISIBLE:
                self._job(jobs.CLEANUP_QUEUE, jobs.CLEANUP_POST, tenant_id, post_id)
        return self.posts.written(tenant_id, post_id)

    # The graph. Each change queues a pair sync, which removes or merges the entries it affects.

    def follow(self, tenant_id: uuid.UUID, follower_id: uuid.UUID, followee_id: uuid.UUID) -> None:
        if follower_id == followee_id:
            raise codes.invalid_request("a user cannot follow themselves")
        self.graph.lock_graph(tenant_id, followee_id, shared=False)
        if self.graph.follow(tenant_id, follower_id, followee_id):
            self._job(jobs.CLEANUP_QUEUE, jobs.SYNC_PAIR, tenant_id, follower_id, followee_id)

    def unfollow(self, tenant_id: uuid.UUID, follower_id: uuid.UUID, followee_id: uuid.UUID) -> None:
        self.graph.lock_graph(tenant_id, followee_id, shared=False)
        if self.graph.unfollow(tenant_id, follower_id, followee_id):
            self._job(jobs.CLEANUP_QUEUE, jobs.SYNC_PAIR, tenant_id, follower_id, followee_id)

    def block(self, tenant_id: uuid.UUID, blocker_id: uuid.UUID, blocked_id: uuid.UUID) -> None:
        if blocker_id == blocked_id:
            raise codes.invalid_request("a user cannot block themselves")
        self.graph.lock_graph(tenant_id, blocker_id, blocked_id, shared=False)
        if self.graph.block(tenant_id, blocker_id, blocked_id):
            self._sync_both_ways(tenant_id, blocker_id, blocked_id)

    def unblock(self, tenant_id: uuid.UUID, blocker_id: uuid.UUID, blocked_id: uuid.UUID) -> None:
        self.graph.lock_graph(tenant_id, blocker_id, blocked_id, shared=False)
        if self.graph.unblock(tenant_id, blocker_id, blocked_id):
            self._sync_both_ways(tenant_id, blocker_id, blocked_id)

    def _sync_both_ways(self, tenant_id: uuid.UUID, a: uuid.UUID, b: uuid.UUID) -> None:
        outbox.add_many(self._transaction(), outbox_table, jobs.CLEANUP_QUEUE, jobs.SYNC_PAIR,
                        [[str(tenant_id), str(a), str(b)], [str(tenant_id), str(b), str(a)]])

    # Rebuilds a host requests.

    def request_rebuild(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> tuple[Rebuild, bool]:
        return rebuilds.request(self._transaction(), self.settings, tenant_id, viewer_id)

    def get_rebuild(self, tenant_id: uuid.UUID, rebuild_id: uuid.UUID) -> Rebuild:
        found = RebuildRepository(self.session).get(tenant_id, rebuild_id)
        if found is None:
            raise codes.rebuild_not_found()
        return found

    def latest_rebuild(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> Rebuild:
        found = RebuildRepository(self.session).latest_for(tenant_id, viewer_id)
        if found is None:
            raise codes.rebuild_not_found()
        return found

    # Reading.

    def home(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, limit: int | None, cursor_value: str) -> HomePage:
        limit = DEFAULT_PAGE_SIZE if limit is None else limit
        if not 1 <= limit <= MAX_PAGE_SIZE:
            raise codes.invalid_limit(f"limit must be between 1 and {MAX_PAGE_SIZE}")
        cursors = _home_cursors(self.settings.cursor_secret.get_secret_value().encode())
        after = cursors.decode(tenant_id, viewer_id, cursor_value) if cursor_value else None
        policy = PolicyService(self.session).read_policy(tenant_id, viewer_id)
        if not policy.empty:
            return self._judged_home(tenant_id, viewer_id, limit, after, policy, cursors)
        items = HomeRepository(self.session).page(tenant_id, viewer_id, after, limit + 1)
        if len(items) <= limit:
            return HomePage(items, None)
        last = items[limit - 1]
        next_cursor = cursors.encode(tenant_id, viewer_id, Position(last.ranked_at, uuid.UUID(last.entry_id)))
        return HomePage(items[:limit], next_cursor)

    def _judged_home(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, limit: int, after: Position | None,
                     policy: ReadPolicy, cursors: HomeCursors) -> HomePage:
        """A page for a viewer whose policy hides or marks some entries: read ahead in batches, judging each
        entry, until `limit` are kept and one more shows that the timeline goes on, the timeline ends,
        or `home_examine_max` entries (at least limit + 1) were examined. Then the cursor is the
        position of the last entry examined before the one that showed more, or the last examined at
        all when the bound stopped the read: the next page starts right after it, so nothing is
        skipped or repeated, and a page may be short, even empty, before the end. The first batch
        is sized by what the viewer's last page saw (timeline.read_ahead), each next one by the
        share of entries kept so far. Entries that mutes or marked lasting hiding filters hide
        (timeline.verdicts) never reach the judging: the statements leave them out."""
        bound = max(self.settings.home_examine_max, limit + 1)
        home = HomeRepository(self.session)
        judge, folded = policy.judge, policy.needs_bodies
        kept: list[TimelineItem] = []
        filtered: dict[str, list[FilterMatch]] = {}
        examined, position = 0, after
        batch = _READ_AHEAD.first_batch(tenant_id, viewer_id, limit + 1, bound)
        while True:
            asked = min(batch, bound - examined)
            rows = home.rows(tenant_id, viewer_id, position, asked, folded=folded, filters_version=policy.filters_version)
            for at, row in enumerate(rows):
                # Columns: entry_id, post_id, ranked_at, author_id, body, …, labels, then the folded body.
                hidden, matches = judge(row[4], row[ITEM_COLUMNS] if folded else None, row[ITEM_COLUMNS - 1])
                if hidden:
                    continue
                if len(kept) == limit:
                    # One more entry to show: the page is full and the timeline goes on after the
                    # entry examined before this one.
                    examined += at + 1
                    _READ_AHEAD.learn(tenant_id, viewer_id, examined, limit + 1)
                    before = Position(rows[at - 1][2], uuid.UUID(rows[at - 1][0])) if at else position
                    assert before is not None, "a full page has examined entries"
                    return HomePage(kept, cursors.encode(tenant_id, viewer_id, before), filtered, examined)
                kept.append(TimelineItem._make(row[:ITEM_COLUMNS]))
                if matches:
                    filtered[row[0]] = matches
            examined += len(rows)
            if rows:
                position = Position(rows[-1][2], uuid.UUID(rows[-1][0]))
            if len(rows) < asked:
                return HomePage(kept, None, filtered, examined)  # the end of the timeline
            if examined >= bound:
                assert position is not None, "a bound of at least one entry was reached"
                _READ_AHEAD.learn(tenant_id, viewer_id, examined, len(kept))
                return HomePage(kept, cursors.encode(tenant_id, viewer_id, position), filtered, examined)
            # The next batch: what is still missing at the share of entries kept so far, with room.
            kept_share = max(len(kept), 1) / examined
            batch = max(int((limit + 1 - len(kept)) / kept_share * 1.2) + 1, limit + 1)
