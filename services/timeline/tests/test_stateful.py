"""Hypothesis state machine over two tenants: publishes (with labels), deletes, moderation, labels,
follows, unfollows, blocks, mutes and unmutes, word filters, label policies and preferences,
duplicated and reordered job runs, trims and rebuilds (internal and requested), interleaved. The
settings are small so that every path is taken: a window of two entries, every fan-out trimming the
viewers it reaches, authors pulled from two followers on, so authors cross the threshold both ways
as the graph changes, and filtered reads examining at most three entries a page. The machine keeps
its own model of every viewer's read rules (conftest.ReadRules), the oracle of what policy hides and
marks. After every step: tenant safety, projection uniqueness and visibility safety of reads (policy
included); duplicated job runs have the effect of one. After the queues drain: every viewer reads,
page by page, exactly what a plain recomputation from the canonical tables and the model gives
(written in the test, not the service's query), marked as the model says, and its materialized
entries are what the audit expects."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import text

from timeline.domain import FilterAction, LabelPolicy, LabelPreference, Moderation, Visibility

from .conftest import ReadRules, Timeline, filter_matches

USERS_PER_TENANT = 4

user_index = st.integers(0, USERS_PER_TENANT - 1)
tenant_index = st.integers(0, 1)
# Bodies and phrases that match across case, width, accents and scripts, and some that must not.
BODIES = ["post", "a Spoiler!", "臺灣 trip", "concat", "the CAT", "Café time"]
phrases = st.sampled_from(["spoiler", "台湾", "cat", "cafe"])
labels = st.lists(st.sampled_from(["spoiler", "nsfw"]), max_size=2, unique=True)
label = st.sampled_from(["spoiler", "nsfw"])
label_action = st.sampled_from(["hide", "warn", "show"])


def make_machine(database, timeline_settings):
    small = timeline_settings.model_copy(update={"window_entries": 2, "trim_every": 1, "pull_threshold": 2,
                                                 "home_examine_max": 3})

    class TimelineMachine(RuleBasedStateMachine):
        @initialize()
        def setup(self):
            self.tenants = [Timeline(database, small) for _ in range(2)]
            self.users = [[uuid.uuid4() for _ in range(USERS_PER_TENANT)] for _ in self.tenants]
            self.posts: list[list[tuple[uuid.UUID, uuid.UUID]]] = [[], []]  # (post, author)
            # The model: each tenant's label policies, shared by its viewers' read rules.
            self.label_policies: list[dict] = [{}, {}]
            self.rules = [[ReadRules(policies=self.label_policies[t]) for _ in range(USERS_PER_TENANT)]
                          for t in range(2)]

        @rule(t=tenant_index, author=user_index, private=st.booleans(), body=st.sampled_from(BODIES),
              post_labels=labels)
        def publish(self, t, author, private, body="post", post_labels=()):
            visibility = Visibility.PRIVATE if private else Visibility.PUBLIC
            timeline = self.tenants[t]
            post = timeline.service(lambda s: s.publish(timeline.tenant, self.users[t][author], body, visibility,
                                                        None, list(post_labels)))[0]
            self.posts[t].append((post.id, post.author_id))

        @rule(t=tenant_index, author=user_index)
        def publish_burst(self, t, author):
            """More posts at once than a window holds."""
            for _ in range(3):
                self.publish(t, author, False)

        @precondition(lambda self: any(self.posts))
        @rule(t=tenant_index, pick=st.integers(0, 1000))
        def delete(self, t, pick):
            if self.posts[t]:
                post_id, author = self.posts[t][pick % len(self.posts[t])]
                self.tenants[t].service(lambda s: s.delete_post(self.tenants[t].tenant, author, post_id))

        @precondition(lambda self: any(self.posts))
        @rule(t=tenant_index, pick=st.integers(0, 1000), state=st.sampled_from(list(Moderation)))
        def moderate(self, t, pick, state):
            if self.posts[t]:
                post_id, _ = self.posts[t][pick % len(self.posts[t])]
                timeline = self.tenants[t]
                post = timeline.service(lambda s: s.posts.get(timeline.tenant, post_id))
                if post.deleted_at is None:
                    timeline.service(lambda s: s.set_moderation(timeline.tenant, post_id, state))

        @precondition(lambda self: any(self.posts))
        @rule(t=tenant_index, pick=st.integers(0, 1000), post_labels=labels)
        def label_post(self, t, pick, post_labels):
            if self.posts[t]:
                post_id, _ = self.posts[t][pick % len(self.posts[t])]
                timeline = self.tenants[t]
                if timeline.service(lambda s: s.posts.get(timeline.tenant, post_id)).deleted_at is None:
                    timeline.service(lambda s: s.set_labels(timeline.tenant, post_id, list(post_labels)))

        @rule(t=tenant_index, viewer=user_index, author=user_index, on=st.booleans())
        def mute(self, t, viewer, author, on):
            if viewer == author:
                return
            timeline, users, muted = self.tenants[t], self.users[t], self.rules[t][viewer].muted
            if on:
                timeline.policy(lambda p: p.mute(timeline.tenant, users[viewer], users[author], None))
                muted.add(users[author])
            else:
                timeline.policy(lambda p: p.unmute(timeline.tenant, users[viewer], users[author]))
                muted.discard(users[author])

        @rule(t=tenant_index, viewer=user_index, pick=st.integers(0, 1000))
        def mute_a_followed_author(self, t, viewer, pick):
            """A mute that matters: of an author the viewer follows (pushed, pulled or past its horizon)."""
            timeline, users = self.tenants[t], self.users[t]
            with timeline.database.transaction() as session:
                followed = sorted(session.execute(text(
                    "SELECT followee_id FROM timeline.follows WHERE tenant_id = :t AND follower_id = :v "
                    "AND ended_at IS NULL"), {"t": timeline.tenant, "v": users[viewer]}).scalars())
            if followed:
                self.mute(t, viewer, users.index(followed[pick % len(followed)]), True)

        @rule(t=tenant_index, viewer=user_index, phrase=phrases, warn=st.booleans())
        def add_filter(self, t, viewer, phrase, warn):
            timeline, action = self.tenants[t], FilterAction.WARN if warn else FilterAction.HIDE
            added = timeline.policy(lambda p: p.add_filter(timeline.tenant, self.users[t][viewer], phrase, action, None))
            self.rules[t][viewer].filters.append((str(added.id), phrase, action.value))

        @precondition(lambda self: any(rules.filters for tenant in self.rules for rules in tenant))
        @rule(t=tenant_index, viewer=user_index, pick=st.integers(0, 1000))
        def delete_filter(self, t, viewer, pick):
            filters = self.rules[t][viewer].filters
            if filters:
                filter_id, _, _ = filters.pop(pick % len(filters))
                timeline = self.tenants[t]
                timeline.policy(lambda p: p.delete_filter(timeline.tenant, self.users[t][viewer], uuid.UUID(filter_id)))

        @rule(t=tenant_index, name=label, action=st.none() | label_action, may_change=st.booleans())
        def label_policy(self, t, name, action, may_change):
            timeline, policies = self.tenants[t], self.label_policies[t]
            if action is None:
                if name in policies:
                    timeline.policy(lambda p: p.delete_label_policy(timeline.tenant, name))
                    del policies[name]
                return
            timeline.policy(lambda p: p.set_label_policy(timeline.tenant,
                                                         LabelPolicy(name, FilterAction(action), may_change)))
            policies[name] = (action, may_change)

        @rule(t=tenant_index, viewer=user_index, name=label, action=st.none() | label_action)
        def label_preference(self, t, viewer, name, action):
            timeline, preferences = self.tenants[t], self.rules[t][viewer].preferences
            if action is None:
                if name in preferences:
                    timeline.policy(lambda p: p.delete_label_preference(timeline.tenant, self.users[t][viewer], name))
                    del preferences[name]
                return
            timeline.policy(lambda p: p.set_label_preference(timeline.tenant, self.users[t][viewer],
                                                             LabelPreference(name, FilterAction(action))))
            preferences[name] = action

        @rule(t=tenant_index, viewer=user_index)
        def request_rebuild(self, t, viewer):
            """A host's rebuild: queued here, run by `run_one_job` or the drain like any job."""
            timeline = self.tenants[t]
            timeline.service(lambda s: s.request_rebuild(timeline.tenant, self.users[t][viewer]))

        @rule(t=tenant_index, a=user_index, b=user_index, action=st.sampled_from(["follow", "unfollow", "block", "unblock"]))
        def graph(self, t, a, b, action):
            if a == b:
                return
            timeline, users = self.tenants[t], self.users[t]
            timeline.service(lambda s: getattr(s, action)(timeline.tenant, users[a], users[b]))

        @rule(t=tenant_index, author=user_index)
        def big_author_publishes(self, t, author):
            """Everyone follows the author, which makes its posts pulled (until unfollows take it back
            under the threshold), and it publishes."""
            timeline, users = self.tenants[t], self.users[t]
            for follower in users:
                if follower != users[author]:
                    timeline.service(lambda s, f=follower: s.follow(timeline.tenant, f, users[author]))
            self.publish(t, author, False)

        @rule(t=tenant_index, pick=st.integers(0, 1000), twice=st.booleans())
        def run_one_job(self, t, pick, twice):
            """Run any pending job, not necessarily the oldest (reordering); optionally run it a second
            time and check the second run changed nothing (idempotent effect)."""
            timeline = self.tenants[t]
            pending = timeline.pending_jobs()
            if not pending:
                return
            job = pending[pick % len(pending)]
            timeline.run_job(job.actor_name, job.args)
            if twice:
                after_first = sorted(timeline.entries())
                timeline.run_job(job.actor_name, job.args)
                assert sorted(timeline.entries()) == after_first
            timeline.ack(job.id)

        @rule(t=tenant_index, pick=st.integers(0, 1000))
        def replay_acknowledged_job(self, t, pick):
            """A job delivered again after it succeeded (at-least-once delivery) must not change the
            projection, except to reflect the present state (which a rebuild would do too)."""
            timeline = self.tenants[t]
            with timeline.database.transaction() as session:
                done = session.execute(text("SELECT actor_name, args FROM timeline.outbox WHERE acked_at IS NOT NULL "
                                            "AND args->>0 = :t ORDER BY id"), {"t": str(timeline.tenant)}).all()
            if done:
                job = done[pick % len(done)]
                timeline.run_job(job.actor_name, job.args)

        @rule(t=tenant_index, viewer=user_index)
        def rebuild(self, t, viewer):
            timeline = self.tenants[t]
            timeline.projection(lambda p: p.rebuild(timeline.tenant, self.users[t][viewer]))

        @rule(t=tenant_index, viewer=user_index)
        def trim(self, t, viewer):
            timeline = self.tenants[t]
            timeline.projection(lambda p: p.trim_viewers(timeline.tenant, [self.users[t][viewer]]))

        @rule(page=st.integers(1, 3))
        def drain_and_converge(self, page=2):
            for t, timeline in enumerate(self.tenants):
                timeline.drain()
                for v, viewer in enumerate(self.users[t]):
                    rules = self.rules[t][v]
                    assert timeline.read_rules(viewer) == rules  # what the service stored is what was set
                    items, filtered = timeline.all_home_marked(viewer, limit=page)
                    assert [uuid.UUID(item.post_id) for item in items] == timeline.expected_home(viewer, rules)
                    for item in items:
                        marks = [tuple(match) for match in filtered.get(item.entry_id, [])]
                        assert marks == rules.marks(item.body, item.labels)
                    audit = timeline.projection(lambda p, v=viewer, tl=timeline: p.audit(tl.tenant, v))
                    assert audit.in_sync, (audit.missing_post_ids, audit.extra_post_ids)
                    # and every following entry its lasting hiding filters hide (the machine's filters
                    # have no end) is marked, so reads skip it
                    for entry in self.marked_entries(timeline, viewer):
                        hidden = any(action == "hide" and filter_matches(phrase, entry.body)
                                     for _, phrase, action in rules.filters)
                        assert entry.marked == hidden or entry.kind == "self" and not entry.marked, entry

        def marked_entries(self, timeline, viewer):
            """The viewer's entries at or above its horizon: kind, body, and whether marked hidden
            under its current filters version."""
            with timeline.database.transaction() as session:
                return session.execute(text(
                    """
                    SELECT e.kind, p.body, coalesce(e.hidden_by_filters = v.version, false) AS marked
                    FROM timeline.timeline_entries e
                    JOIN timeline.posts p ON p.tenant_id = e.tenant_id AND p.id = e.post_id
                    LEFT JOIN timeline.word_filter_versions v ON v.tenant_id = e.tenant_id AND v.viewer_id = e.viewer_id
                    LEFT JOIN timeline.viewer_horizons h ON h.tenant_id = e.tenant_id AND h.viewer_id = e.viewer_id
                    WHERE e.tenant_id = :t AND e.viewer_id = :v
                      AND (h.viewer_id IS NULL OR (e.ranked_at, e.id) >= (h.ranked_at, h.entry_id))
                    """), {"t": timeline.tenant, "v": viewer}).all()

        @invariant()
        def tenant_safety_and_uniqueness(self):
            for timeline in getattr(self, "tenants", []):
                with timeline.database.transaction() as session:
                    row = session.execute(text(
                        """
                        SELECT count(*) AS entries,
                               count(DISTINCT (e.viewer_id, e.post_id)) AS pairs,
                               count(*) FILTER (WHERE p.tenant_id IS DISTINCT FROM e.tenant_id
                                                 OR p.author_id IS DISTINCT FROM e.author_id) AS foreign
                        FROM timeline.timeline_entries e
                        LEFT JOIN timeline.posts p ON p.id = e.post_id
                        WHERE e.tenant_id = :t
                        """), {"t": timeline.tenant}).one()
                assert row.entries == row.pairs and row.foreign == 0

        @invariant()
        def reads_are_visibility_and_policy_safe(self):
            for t, timeline in enumerate(getattr(self, "tenants", [])):
                with timeline.database.transaction() as session:
                    posts = {r.id: r for r in session.execute(
                        text("SELECT id, author_id, body, labels, visibility, moderation_state, deleted_at "
                             "FROM timeline.posts WHERE tenant_id = :t"), {"t": timeline.tenant})}
                    blocks = {(r.blocker_id, r.blocked_id) for r in session.execute(
                        text("SELECT blocker_id, blocked_id FROM timeline.blocks WHERE tenant_id = :t"),
                        {"t": timeline.tenant})}
                for v, viewer in enumerate(self.users[t]):
                    rules = self.rules[t][v]
                    # An entry marked hidden under the viewer's filters version is one they hide
                    for entry in self.marked_entries(timeline, viewer):
                        assert not entry.marked or any(action == "hide" and filter_matches(phrase, entry.body)
                                                       for _, phrase, action in rules.filters), entry
                    items, filtered = timeline.all_home_marked(viewer, limit=3)
                    assert len({item.entry_id for item in items}) == len(items)
                    for item in items:
                        post = posts[uuid.UUID(item.post_id)]  # a post of this very tenant
                        assert not rules.hides(post.author_id, post.body, post.labels)
                        marks = [tuple(match) for match in filtered.get(item.entry_id, [])]
                        assert marks == rules.marks(post.body, post.labels)
                        assert post.deleted_at is None and post.moderation_state == "visible"
                        assert post.visibility == "public" or post.author_id == viewer
                        assert (viewer, post.author_id) not in blocks and (post.author_id, viewer) not in blocks

        def teardown(self):
            if hasattr(self, "tenants"):
                self.drain_and_converge()

    return TimelineMachine


def test_timeline_state_machine(timeline_db, timeline_settings):
    machine = make_machine(timeline_db, timeline_settings)
    machine.TestCase.settings = settings(max_examples=25, stateful_step_count=25, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    machine.TestCase().runTest()
