"""Fixtures of the timeline suite: a migrated schema in the session's database, the service's
settings and database objects, and helpers that run projection jobs the way the actors do (one
transaction each)."""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

import pytest
from sqlalchemy import event, text

from devstack.processes import wait_for
from feeds_runtime import folding, migrations
from feeds_runtime.db import Database, make_engine
from timeline import jobs, rebuilds
from timeline.app import SERVICE
from timeline.policy import PolicyService
from timeline.projection import Projection
from timeline.service import TimelineService
from timeline.settings import TimelineSettings

# Small chunks, so a handful of followers already spans several fan-out jobs.
TEST_CHUNK_SIZE = 3


@pytest.fixture(scope="session")
def timeline_settings(settings_env: dict[str, str]) -> TimelineSettings:
    return TimelineSettings(fanout_chunk_size=TEST_CHUNK_SIZE, cleanup_chunk_size=2)


@pytest.fixture(scope="session")
def timeline_db(timeline_settings: TimelineSettings) -> Iterator[Database]:
    database = Database(make_engine(timeline_settings.database_url, pool_size=4, application_name="timeline-tests",
                                    session_settings=SERVICE.session_settings))
    migrations.upgrade(database.engine, SERVICE.migrations_dir, SERVICE.schema)
    yield database
    database.engine.dispose()


@dataclass
class ReadRules:
    """A viewer's read-time policy as the specification states it (docs/timeline.md, "Viewer
    policy"): muted authors; word filters as (id, phrase, action); the tenant's label policies as
    label → (action, viewer_may_change); the viewer's label preferences as label → action."""

    muted: set[uuid.UUID] = field(default_factory=set)
    filters: list[tuple[str, str, str]] = field(default_factory=list)
    policies: dict[str, tuple[str, bool]] = field(default_factory=dict)
    preferences: dict[str, str] = field(default_factory=dict)

    def label_action(self, label: str) -> str:
        policy = self.policies.get(label)
        if policy is not None and not policy[1]:
            return policy[0]
        return self.preferences.get(label, policy[0] if policy else "show")

    def hides(self, author_id: uuid.UUID, body: str, labels: list[str]) -> bool:
        return (author_id in self.muted or any(self.label_action(label) == "hide" for label in labels)
                or any(action == "hide" and filter_matches(phrase, body) for _, phrase, action in self.filters))

    def marks(self, body: str, labels: list[str]) -> list[tuple[str, str, str]]:
        """(kind, filter id, value) of what warns of a post it does not hide: labels first, then filters."""
        return ([("label", "", label) for label in labels if self.label_action(label) == "warn"]
                + [("word", filter_id, phrase) for filter_id, phrase, action in self.filters
                   if action == "warn" and filter_matches(phrase, body)])


class Timeline:
    """Drives the service and the projection jobs against the real database, one transaction per call."""

    def __init__(self, database: Database, settings: TimelineSettings) -> None:
        self.database = database
        self.settings = settings
        self.tenant = uuid.uuid4()

    def service(self, fn):
        with self.database.transaction() as session:
            return fn(TimelineService(session, self.settings))

    def policy(self, fn):
        with self.database.transaction() as session:
            return fn(PolicyService(session))

    def projection(self, fn):
        with self.database.transaction() as session:
            return fn(Projection(session, self.settings))

    def publish(self, author: uuid.UUID, body: str = "hello", visibility=None, key: str | None = None):
        from timeline.domain import Visibility

        return self.service(lambda s: s.publish(self.tenant, author, body, visibility or Visibility.PUBLIC, key))[0]

    def home(self, viewer: uuid.UUID, limit: int | None = None, cursor: str = ""):
        return self.service(lambda s: s.home(self.tenant, viewer, limit, cursor))

    def all_home(self, viewer: uuid.UUID, limit: int = 100) -> list:
        """Every page in turn; each but the last must be full, unless the read examined as many entries
        as it may for one page."""
        return self.all_home_marked(viewer, limit)[0]

    def all_home_marked(self, viewer: uuid.UUID, limit: int = 100) -> tuple[list, dict]:
        """`all_home`, and the warnings of its pages by entry id."""
        items, filtered, cursor = [], {}, ""
        bound = max(self.settings.home_examine_max, limit + 1)
        while True:
            page = self.home(viewer, limit, cursor)
            items.extend(page.items)
            filtered |= page.filtered
            assert page.examined <= bound
            if page.next_cursor is None:
                return items, filtered
            assert len(page.items) == limit or page.examined == bound, "a page before the end was not full"
            cursor = page.next_cursor

    def expected_home(self, viewer: uuid.UUID, rules: ReadRules | None = None) -> list[uuid.UUID]:
        """The viewer's home timeline recomputed from the canonical tables, by the rules of the
        specification rather than by the service's queries: the viewer's own live visible posts and
        the live, visible, public posts of the authors it follows, minus blocked pairs and what its
        read rules hide (`rules`, else as the policy tables hold them now), newest first, ties broken
        by the entry id derived from (tenant, viewer, post)."""
        rules = rules or self.read_rules(viewer)
        with self.database.transaction() as session:
            posts = session.execute(text("SELECT id, author_id, body, labels, visibility, moderation_state, "
                                         "deleted_at, published_at FROM timeline.posts WHERE tenant_id = :t"),
                                    {"t": self.tenant}).all()
            followed = set(session.execute(text("SELECT followee_id FROM timeline.follows WHERE tenant_id = :t "
                                                "AND follower_id = :v AND ended_at IS NULL"),
                                           {"t": self.tenant, "v": viewer}).scalars())
            blocks = {tuple(row) for row in session.execute(
                text("SELECT blocker_id, blocked_id FROM timeline.blocks WHERE tenant_id = :t"), {"t": self.tenant})}
        seen = [
            post for post in posts
            if post.deleted_at is None and post.moderation_state == "visible"
            and (viewer, post.author_id) not in blocks and (post.author_id, viewer) not in blocks
            and not rules.hides(post.author_id, post.body, post.labels)
            and (post.author_id == viewer or (post.author_id in followed and post.visibility == "public"))
        ]
        seen.sort(key=lambda post: (post.published_at, entry_id(self.tenant, viewer, post.id)), reverse=True)
        return [post.id for post in seen]

    def read_rules(self, viewer: uuid.UUID) -> ReadRules:
        """The viewer's read rules as the policy tables hold them, those in force now."""
        with self.database.transaction() as session:
            now = session.execute(text("SELECT now()")).scalar_one()
            muted = {row.author_id for row in session.execute(
                text("SELECT author_id, until FROM timeline.mutes WHERE tenant_id = :t AND viewer_id = :v"),
                {"t": self.tenant, "v": viewer}) if row.until is None or row.until > now}
            filters = [(str(row.id), row.phrase, row.action) for row in session.execute(
                text("SELECT id, phrase, action, expires_at FROM timeline.word_filters WHERE tenant_id = :t "
                     "AND viewer_id = :v ORDER BY created_at, id"), {"t": self.tenant, "v": viewer})
                if row.expires_at is None or row.expires_at > now]
            policies = {row.label: (row.action, row.viewer_may_change) for row in session.execute(
                text("SELECT label, action, viewer_may_change FROM timeline.label_policies WHERE tenant_id = :t"),
                {"t": self.tenant})}
            preferences = dict(session.execute(
                text("SELECT label, action FROM timeline.label_preferences WHERE tenant_id = :t AND viewer_id = :v"),
                {"t": self.tenant, "v": viewer}).all())
        return ReadRules(muted, filters, policies, preferences)

    def pending_jobs(self) -> list:
        """This tenant's outbox rows not yet acknowledged, oldest first: (id, queue_name, actor_name, args)."""
        with self.database.transaction() as session:
            return session.execute(
                text("SELECT id, queue_name, actor_name, args FROM timeline.outbox WHERE acked_at IS NULL "
                     "AND args->>0 = :t ORDER BY id"), {"t": str(self.tenant)}).all()

    def events(self) -> list:
        """This tenant's integration events in the log, in insert order: (type, payload)."""
        with self.database.transaction() as session:
            return session.execute(text("SELECT type, payload FROM timeline.events WHERE tenant_id = :t ORDER BY id"),
                                   {"t": self.tenant}).all()

    def run_job(self, actor_name: str, args: list) -> None:
        """The body of the actor of that name, in its own transaction (as timeline.tasks runs it)."""
        ids = [uuid.UUID(a) if isinstance(a, str) and len(a) == 36 else a for a in args]
        if actor_name in (jobs.FANOUT_CHUNK, jobs.FANOUT_RANGE):
            self.projection(lambda p: p.fanout_chunk(*ids))
        elif actor_name == jobs.CLEANUP_POST:
            self.projection(lambda p: p.cleanup_post(*ids))
        elif actor_name == jobs.SYNC_PAIR:
            self.projection(lambda p: p.sync_pair(*ids))
        elif actor_name == jobs.TRIM_VIEWERS:
            self.projection(lambda p: p.trim_viewers(ids[0], [uuid.UUID(v) for v in ids[1]]))
        elif actor_name == jobs.REBUILD_VIEWER:
            rebuilds.run(self.database, self.settings, *ids)
        else:
            raise AssertionError(f"no test runner for {actor_name}")

    def ack(self, outbox_id: int) -> None:
        with self.database.transaction() as session:
            session.execute(text("UPDATE timeline.outbox SET acked_at = now() WHERE id = :id"), {"id": outbox_id})

    def drain(self) -> int:
        """Run pending jobs (and the follow-ups they write) until none is left; returns how many ran."""
        ran = 0
        while jobs_left := self.pending_jobs():
            for outbox_id, _, actor_name, args in jobs_left:
                self.run_job(actor_name, args)
                self.ack(outbox_id)
                ran += 1
        return ran

    def entries(self, viewer: uuid.UUID | None = None) -> list:
        """Materialized rows of this tenant (optionally one viewer): (viewer, post, kind, id, ranked_at)."""
        with self.database.transaction() as session:
            return session.execute(
                text("SELECT viewer_id, post_id, kind, id, ranked_at FROM timeline.timeline_entries "
                     "WHERE tenant_id = :t AND (CAST(:v AS uuid) IS NULL OR viewer_id = :v)"),
                {"t": self.tenant, "v": viewer}).all()


@pytest.fixture
def timeline(timeline_db: Database, timeline_settings: TimelineSettings) -> Timeline:
    return Timeline(timeline_db, timeline_settings)


WINDOW = 3


@pytest.fixture
def small(timeline_db: Database, timeline_settings: TimelineSettings) -> Timeline:
    """A window of three entries, every fan-out trimming every viewer it reaches, and authors with
    two followers or more pulled."""
    return Timeline(timeline_db, timeline_settings.model_copy(
        update={"window_entries": WINDOW, "trim_every": 1, "pull_threshold": 2}))


def follow(timeline: Timeline, viewer: uuid.UUID, author: uuid.UUID) -> None:
    timeline.service(lambda s: s.follow(timeline.tenant, viewer, author))
    timeline.drain()


def _in_word(ch: str) -> bool:
    """A letter or digit of a script that separates words with spaces (not Han, kana, Hangul, Thai)."""
    if not ch.isalnum():
        return False
    name = unicodedata.name(ch, "")
    return not any(script in name for script in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI", "IDEOGRAPH"))


def filter_matches(phrase: str, body: str) -> bool:
    """The specification of a word filter, written apart from the service's automaton: the folded
    phrase occurs in the folded body, each edge of it that is a spaced-script letter or digit not
    touching another one."""
    needle, text_ = folding.fold(phrase), folding.fold(body)
    at = text_.find(needle)
    while at >= 0:
        end = at + len(needle)
        starts = not (_in_word(needle[0]) and at > 0 and _in_word(text_[at - 1]))
        ends = not (_in_word(needle[-1]) and end < len(text_) and _in_word(text_[end]))
        if starts and ends:
            return True
        at = text_.find(needle, at + 1)
    return False


def entry_id(tenant: uuid.UUID, viewer: uuid.UUID, post: uuid.UUID) -> uuid.UUID:
    """The documented entry identity: the MD5 of "tenant/viewer/post" read as a UUID."""
    return uuid.UUID(hashlib.md5(f"{tenant}/{viewer}/{post}".encode()).hexdigest())


def users(n: int) -> list[uuid.UUID]:
    return [uuid.uuid4() for _ in range(n)]


def blocked_or_done(timeline: Timeline, worker: threading.Thread) -> None:
    """Wait until the worker thread has finished or waits on a lock in this database."""
    def finished_or_waiting() -> bool:
        if not worker.is_alive():
            return True
        with timeline.database.transaction() as session:
            return bool(session.execute(text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                             "AND wait_event_type = 'Lock'")).scalar_one())
    wait_for(finished_or_waiting, "the concurrent change to finish or wait on a lock")


def _literal(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return _literal("{" + ",".join(str(v) for v in value) + "}")
    text_value = value.isoformat() if isinstance(value, datetime) else str(value)
    return "'" + text_value.replace("'", "''") + "'"


def generic_plan(timeline: Timeline, statement: str, params) -> dict:
    """The statement's plan (psycopg placeholders) as the service runs it, prepared with one generic
    plan for any value: the root node of `EXPLAIN ANALYZE`, run and rolled back."""
    names_in_order = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", statement)))
    numbered = re.sub(r"%\((\w+)\)s", lambda m: f"${names_in_order.index(m.group(1)) + 1}", statement)
    connection = timeline.database.engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute("SET plan_cache_mode = force_generic_plan")
        cursor.execute(f"PREPARE probe AS {numbered.replace('%%', '%')}")
        arguments = ", ".join(_literal(params[name]) for name in names_in_order)
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE probe({arguments})")
        plan = cursor.fetchone()[0][0]["Plan"]
        cursor.execute("DEALLOCATE probe")
    finally:
        connection.rollback()
        connection.close()
    return plan


def plan_nodes(plan: dict) -> list[dict]:
    nodes, found = [plan], []
    while nodes:
        node = nodes.pop()
        found.append(node)
        nodes.extend(node.get("Plans", []))
    return found


@contextmanager
def recorded(timeline: Timeline, naming: str) -> Iterator[list]:
    """The statements (as sent to the driver, with their parameters) run meanwhile that name the table."""
    statements: list = []

    def record(conn, cursor, statement, parameters, context, executemany):
        if naming in statement:
            statements.append((statement, parameters))

    event.listen(timeline.database.engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(timeline.database.engine, "before_cursor_execute", record)
