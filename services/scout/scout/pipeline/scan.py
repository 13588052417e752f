"""The staged candidate search of one Scout Run (docs/scout.md flow B), free of any database access.

Stage 1 asks the primary source once per approved term; stage 2 asks it for the next page of
each term; when the brief is in activity mode with a single approved term (flow B.3), up to four
short queries taken from the intent follow on the same source; stage 3 asks the secondary source with the same terms. Every page
is deduplicated (within the run and against the owner's history) and judged as soon as it
arrives; a stage is one fan-out, so the run stops at the end of the stage that met the target,
keeping the best-scored posts (a post that only writes an approved term whole, short of the
signature, makes up a shortfall after them and counts toward no target), and no run looks at more than
MAX_RAW_PER_RUN raw candidates. Failing sources, and sources whose shared query budget is spent,
are dropped for the rest of the run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol

from scout import metrics
from scout.clock import known_posted_at
from scout.pipeline.gate import OFF_TOPIC, Gate, recency_factor, score
from scout.pipeline.identity import post_identity
from scout.pipeline.rank import RULES, Ranker
from scout.pipeline.signature import TopicSignature, build_signature
from scout.pipeline.sources.base import PAGE_LIMIT, BudgetReached, SearchSource, SearchWindow, SourceUnavailable

log = logging.getLogger(__name__)

MAX_RAW_PER_RUN = 320
# A post that only writes an approved term whole scores at most this share of the lowest score of
# the posts that meet the signature, so it always comes after them.
WEAK_SHARE = 0.5
MAX_INTENT_QUERIES = 4
# Flow B.3: the intent queries are the recall aid of an activity search resting on one approved term.
ACTIVITY_MODE = "activity"

SOURCE_EXHAUSTED = "source_exhausted"
DUPLICATE_EXHAUSTED = "duplicate_exhausted"
RELEVANCE_EXHAUSTED = "relevance_exhausted"
SOURCE_UNAVAILABLE = "source_unavailable"
LIMIT_REACHED = "limit_reached"
# Duplicates or rejections making up at least this share of what was looked at explain a shortfall.
EXHAUSTION_SHARE = 0.25

NOT_A_POST = "not_a_threads_post"
# The diagnostic kind of a source that stopped on its shared query budget (beside FailureKind's).
BUDGET = "budget"

# The steps a scan reports (5.3), as data for whoever shows them: preparing the sources, searching
# stage N, filtering and deduplicating after stage N, publishing the results.
PREPARING = "preparing"
SEARCHING = "searching"
FILTERING = "filtering"
PUBLISHING = "publishing"


class BriefLike(Protocol):
    """What a scan reads of a brief (read-only, as a frozen Brief is)."""

    @property
    def intent(self) -> str: ...
    @property
    def terms(self) -> Sequence[str]: ...
    @property
    def mode(self) -> str: ...


class ScanCancelled(Exception):
    """The job was cancelled; raised between requests, before anything is published."""


class AllSourcesUnavailable(Exception):
    """No configured source answered a single request: the run cannot complete."""

    def __init__(self, message: str, source_errors: dict[str, dict[str, str]] | None = None) -> None:
        super().__init__(message)
        # As ScanOutcome.source_errors: why each source failed, for the failed run's diagnostics.
        self.source_errors = source_errors or {}


@dataclass(frozen=True)
class AcceptedPost:
    canonical_id: str
    url: str
    author: str
    text: str
    posted_at: datetime | None
    score: float
    match_reason: str


@dataclass(frozen=True)
class ScanProgress:
    stage: str  # PREPARING, SEARCHING, FILTERING or PUBLISHING
    stage_number: int  # the search stage (1..3) while searching or filtering, else 0
    summary: str  # the same step in English words, for logs and operators


@dataclass
class ScanCounts:
    raw: int = 0
    duplicates: int = 0
    rejected: int = 0
    # Equals the number of published posts.
    eligible: int = 0


@dataclass
class ScanOutcome:
    posts: list[AcceptedPost]
    counts: ScanCounts
    target: int
    shortfall_reasons: list[str]
    # Stage name → milliseconds spent in it.
    stage_ms: dict[str, float]
    # Source name → {"kind", "detail"}: why it failed (a FailureKind) or stopped ("budget"); safe to show.
    source_errors: dict[str, dict[str, str]]
    # Rejection code → how many (noise kinds, off_topic, not_a_threads_post); the job logs them.
    rejections: dict[str, int] = field(default_factory=dict)

    @property
    def shortfall_count(self) -> int:
        return max(self.target - len(self.posts), 0)


def result_order_key(score_value: float, posted_at: datetime | None, *ties: object) -> tuple:
    """Results order: score DESC, known posted_at before unknown, posted_at DESC, then the
    caller's tie-breakers (created_at DESC, id DESC for stored posts) — pass them negated or
    reversed as needed; here candidates of one run break ties on canonical id."""
    stamp = posted_at.timestamp() if posted_at is not None else 0.0
    return (-score_value, posted_at is None, -stamp, *ties)


def intent_queries(intent: str, signature: TopicSignature, terms: Sequence[str]) -> list[str]:
    """Up to four short queries drawn from the intent, never a word outside the signature."""
    queries: list[str] = []
    required = [signature.label(g.expression) for g in signature.required]
    candidates = [" ".join(required)] if len(required) > 1 else []
    candidates += [signature.label(p) for p in signature.phrases]
    candidates += [signature.label(alias) for g in signature.required for alias in g.aliases]
    approved = {t.strip().lower() for t in terms}
    for query in candidates:
        query = query.strip()
        if query and query.lower() not in approved and query not in queries:
            queries.append(query)
    return queries[:MAX_INTENT_QUERIES]


@dataclass
class _Stage:
    name: str
    number: int  # the stage the person sees: the intent queries belong to stage 2
    requests: list[tuple[SearchSource, str, bool]]  # source, query, continue after stage-1 cursor


class _Run:
    def __init__(self, brief: BriefLike, sources: Sequence[SearchSource], history: set[str], target: int,
                 on_progress: Callable[[ScanProgress, ScanCounts], None], should_cancel: Callable[[], bool],
                 now: datetime, ranking: str) -> None:
        self.brief = brief
        self.sources = list(sources)
        self.history = history
        self.target = target
        self.on_progress = on_progress
        self.should_cancel = should_cancel
        self.now = now
        recent_days = getattr(brief, "recent_days", None)
        self.window = SearchWindow(since=now - timedelta(days=recent_days) if recent_days else None, now=now)
        self.signature = build_signature(brief.intent, list(brief.terms))
        self.gate = Gate(self.signature)
        self.ranker = Ranker(self.gate, ranking)
        self.counts = ScanCounts()
        self.seen: set[str] = set()
        # Eligible posts with their rule relevance and BM25 document, scored once the search ends.
        self.accepted: list[tuple[AcceptedPost, float, int]] = []
        # Posts only writing an approved term whole: they make up a shortfall, after all the others.
        self.weak: list[AcceptedPost] = []
        self.rejections: dict[str, int] = {}
        self.cursors: dict[tuple[str, str], str | None] = {}
        self.failed: dict[str, SourceUnavailable] = {}
        self.budget_spent: dict[str, BudgetReached] = {}
        self.answered: set[str] = set()
        self.limit_hit = False

    def report(self, stage: str, number: int, step: str, *, with_eligible: bool = True) -> None:
        """A progress step with the counts so far; eligible never above the target it is shown against."""
        eligible = min(len(self.accepted), self.target)
        summary = f"{step}: {eligible}/{self.target} eligible" if with_eligible else step
        self.on_progress(ScanProgress(stage, number, summary), replace(self.counts, eligible=eligible))

    def done(self) -> bool:
        return len(self.accepted) >= self.target or self.limit_hit

    def _reject(self, reason: str) -> None:
        self.counts.rejected += 1
        self.rejections[reason] = self.rejections.get(reason, 0) + 1

    def _fetch(self, source: SearchSource, query: str, follow: bool) -> None:
        if source.name in self.failed or source.name in self.budget_spent:
            return
        key = (source.name, query)
        cursor = self.cursors.get(key) if follow else None
        if follow and cursor is None:
            return  # the first page already said there is nothing more
        if self.counts.raw >= MAX_RAW_PER_RUN:
            self.limit_hit = True  # the cap is reached: no request beyond it
            return
        try:
            page = source.search(query, limit=PAGE_LIMIT, cursor=cursor, window=self.window)
        except SourceUnavailable as error:
            metrics.source_request(source.name, ok=False)
            log.warning("scout source unavailable: %s", error, extra={"source": source.name, "kind": str(error.kind)})
            self.failed[source.name] = error
            return
        except BudgetReached as stop:
            log.warning("scout source budget reached: %s", stop, extra={"source": source.name})
            self.budget_spent[source.name] = stop
            return
        metrics.source_request(source.name, ok=True)
        self.answered.add(source.name)
        self.cursors[key] = page.next_cursor
        for candidate in page.candidates[:PAGE_LIMIT]:
            if self.counts.raw >= MAX_RAW_PER_RUN:
                break
            self.counts.raw += 1
            self._consider(candidate)
        if self.counts.raw >= MAX_RAW_PER_RUN:
            self.limit_hit = True

    def _consider(self, candidate) -> None:
        identity = post_identity(candidate.url)
        if identity is None:
            self._reject(NOT_A_POST)
            return
        if identity.canonical_id in self.seen or identity.canonical_id in self.history:
            self.counts.duplicates += 1
            return
        self.seen.add(identity.canonical_id)
        verdict = self.gate.judge(candidate.text)
        document = self.ranker.add(verdict)
        if not verdict.accepted:
            self._reject(verdict.reason)
            return
        posted_at = known_posted_at(candidate.posted_at, self.now)
        author = candidate.author or identity.username or ""
        if identity.username is None and author:
            identity = type(identity)(identity.shortcode, author)
        post = AcceptedPost(canonical_id=identity.canonical_id, url=identity.url, author=author, text=candidate.text,
                            posted_at=posted_at, score=0.0, match_reason=verdict.reason)
        if verdict.weak:
            self.weak.append(post)
            return
        self.accepted.append((post, verdict.relevance, document))
        self.counts.eligible += 1

    def scored(self) -> list[AcceptedPost]:
        """The eligible posts with their final score: ranked relevance, softened by age."""
        relevance = self.ranker.relevance({document: rules for _, rules, document in self.accepted})
        return [replace(post, score=score(relevance[document], post.posted_at, self.now))
                for post, _, document in self.accepted]

    def made_up(self, posts: list[AcceptedPost]) -> list[AcceptedPost]:
        """The weakly eligible posts that make up a shortfall, scored below every post in `posts`;
        the rest count as off topic."""
        used = self.weak[: max(self.target - len(posts), 0)]
        for _ in self.weak[len(used):]:
            self._reject(OFF_TOPIC)
        below = min((post.score for post in posts), default=1.0) * WEAK_SHARE
        made_up = [replace(post, score=round(below * recency_factor(post.posted_at, self.now), 4)) for post in used]
        return sorted(made_up, key=lambda p: result_order_key(p.score, p.posted_at, p.canonical_id))

    def stages(self) -> list[_Stage]:
        terms = list(self.brief.terms)
        primary = self.sources[0]
        stages = [
            _Stage("stage 1", 1, [(primary, t, False) for t in terms]),
            _Stage("stage 2", 2, [(primary, t, True) for t in terms]),
        ]
        if self.brief.mode == ACTIVITY_MODE and len(terms) == 1:
            extra = intent_queries(self.brief.intent, self.signature, terms)
            if extra:
                stages.append(_Stage("stage 2 intent queries", 2, [(primary, q, False) for q in extra]))
        if len(self.sources) > 1:
            stages.append(_Stage("stage 3", 3, [(self.sources[1], t, False) for t in terms]))
        return stages

    def run(self) -> ScanOutcome:
        stage_ms: dict[str, float] = {}
        for stage in self.stages():
            if self.done():
                break
            started = time.perf_counter()
            self.report(SEARCHING, stage.number, f"{stage.name} search")
            # A stage is one fan-out: every one of its requests is asked and judged, and the run
            # stops at the end of the stage that met the target, keeping the best-scored posts.
            for source, query, follow in stage.requests:
                if self.should_cancel():
                    raise ScanCancelled()
                self._fetch(source, query, follow)
            stage_ms[stage.name] = round((time.perf_counter() - started) * 1000, 3)
            self.report(FILTERING, stage.number, f"filter and dedup after {stage.name}")
        if self.should_cancel():
            raise ScanCancelled()
        if not self.answered and not self.budget_spent:
            raise AllSourcesUnavailable("; ".join(str(error) for error in self.failed.values())
                                        or "no source answered", self.source_errors())
        posts = sorted(self.scored(), key=lambda p: result_order_key(p.score, p.posted_at, p.canonical_id))
        posts = posts[: self.target]
        posts += self.made_up(posts)
        self.counts.eligible = len(posts)
        return ScanOutcome(
            posts=posts,
            counts=self.counts,
            target=self.target,
            shortfall_reasons=self.shortfall_reasons(len(posts)),
            stage_ms=stage_ms,
            source_errors=self.source_errors(),
            rejections=dict(self.rejections),
        )

    def source_errors(self) -> dict[str, dict[str, str]]:
        errors = {name: {"kind": str(error.kind), "detail": error.detail} for name, error in self.failed.items()}
        errors.update({name: {"kind": BUDGET, "detail": stop.detail} for name, stop in self.budget_spent.items()})
        return errors

    def shortfall_reasons(self, eligible: int) -> list[str]:
        reasons: list[str] = []
        if self.failed:
            reasons.append(SOURCE_UNAVAILABLE)
        if eligible >= self.target:
            return reasons
        raw = max(self.counts.raw, 1)
        if self.limit_hit or self.budget_spent:
            reasons.append(LIMIT_REACHED)
        else:
            reasons.append(SOURCE_EXHAUSTED)
        if self.counts.duplicates and self.counts.duplicates / raw >= EXHAUSTION_SHARE:
            reasons.append(DUPLICATE_EXHAUSTED)
        if self.counts.rejected and self.counts.rejected / raw >= EXHAUSTION_SHARE:
            reasons.append(RELEVANCE_EXHAUSTED)
        return reasons


def run_scan(
    brief: BriefLike,
    sources: Sequence[SearchSource],
    *,
    history: set[str],
    target: int,
    on_progress: Callable[[ScanProgress, ScanCounts], None],
    should_cancel: Callable[[], bool],
    now: datetime | None = None,
    ranking: str = RULES,
) -> ScanOutcome:
    """Search, deduplicate and judge until `target` eligible posts or the stages run out.

    `sources` are ordered: the first is primary, the second (if any) the stage-3 source.
    `history` holds the canonical ids the owner has already been shown in retained runs.
    `on_progress(progress, counts)` is called at each step with the counts so far.
    `ranking` orders the eligible posts: rule evidence alone, or with BM25 (see `rank`).
    Raises ScanCancelled, AllSourcesUnavailable, or NoTopicEvidence for a brief with no topic.
    """
    if not sources:
        raise AllSourcesUnavailable("no search source is configured")
    run = _Run(brief, sources, history, target, on_progress, should_cancel, now or datetime.now(UTC), ranking)
    run.report(PREPARING, 0, "preparing sources", with_eligible=False)
    return run.run()
