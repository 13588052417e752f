"""Quality evaluation of scout scans on labeled sets (make eval-scout [DATASET=…]).

Each group runs through the real scan job: the scout server, worker and outbox relay run as in
production (PostgreSQL and Redis from DATABASE_URL / REDIS_URL, embedded when unset; a fresh
database and Redis namespace for each set and component, dropped after it), with the `threads`
source as primary and `serp` as secondary, both pointing at a local server that answers with the
group's candidates — they stand for what the search engines answered. Each request gets the next
≤ 20 candidates for its query, ordered by lexical overlap with it, those with no overlap last but
still returned, so every candidate can be reached. Every group is scanned over gRPC by an owner
of its own; its results are read with ListRunPosts, in the order members see them. With
--in-process the same stages run in this process instead (`run_scan` against sources answering as
that server does, the brief checked and the terms proposed as the service does): the same figures
in seconds a set, for studying a change; the stack stays the measure of record.

Every set is evaluated once per ranking component (SCOUT_RANKING: the gate's rules alone, then
with BM25, then with the eligible posts' common words, the service's default), so each
component's figures stand on their own; then once more with the default component and, for each
group, the terms SuggestTerms proposes for its intent instead of the labeled ones (what a member
gets who approves them as they are; --no-suggested skips it). The default component is judged
against precision@10 ≥ 0.9 and attainment ≥ 0.95, the suggested terms against 0.85 and 0.9, and
both against no group returning fewer than half its target although its candidates held it.

A candidate's `names_topic` (docs/scout.md 4.1) says whether a relevant post writes the topic by a
name; a group counts towards attainment when its candidates hold at least `target` unique relevant
posts that do (spec 004 §9: groups whose source has enough qualifying candidates). A set without
the field counts every relevant post.

Prints one JSON object:

    {"bars": {component: {"precision_at_10", "target_attainment", "min_share_of_target"}},
     "judged": [component, ...], "passed": bool,
     "components": {component: {set: {
         "groups", "precision_at_10", "target_attainment", "attainment_groups", "under_half_target": [id],
         "passed",
         "group_reports": [{"id", "category", "target", "results", "unique_relevant", "unique_naming",
                            "precision_at_10", "reached_target", "status", "counts", "shortfall_count",
                            "shortfall_reasons", "result_urls" (in the order members see them),
                            "false_positives" (texts among the first ten), "error"?}]}}}}

precision@10 is relevant among the first min(10, results) results, 0 for a group without results.
Exits 1 when a judged component misses its bar on any set.

The sets (docs/scout.md 4.1): dataset.jsonl and holdout.jsonl, written from topics.py;
natural_dev.jsonl and natural_dev2–8.jsonl, written blind and open for tuning;
natural_blind.jsonl and natural_blind2–85.jsonl, written blind and each run unseen before it was opened.

    python services/scout/eval/evaluate.py [DATASET ...] [--groups g01,g02] [--rankings rules,rules+pool]
        [--no-suggested] [--in-process]
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import grpc
from devstack import infra
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, python_module, wait_for
from devstack.search_api import SearchApi
from devstack.tls import DEV_CA
from feeds.scout.v1 import scout_pb2, scout_pb2_grpc
from feeds_runtime.errors import InvalidArgument
from scout.brief import normalize_brief
from scout.pipeline.identity import post_identity
from scout.pipeline.scan import run_scan
from scout.pipeline.sources import PAGE_LIMIT
from scout.pipeline.sources.base import ANY_AGE, RawCandidate, SearchPage, SearchWindow
from scout.pipeline.signature.segment import is_personal
from scout.pipeline.sources.lexical import overlap, query_grams
from scout.service import require_topic, suggested_terms

REPO_ROOT = Path(__file__).resolve().parents[3]
EVAL_DIR = Path(__file__).parent
DEFAULT_DATASETS = [EVAL_DIR / "dataset.jsonl", EVAL_DIR / "holdout.jsonl",
                    *sorted(EVAL_DIR.glob("natural_dev*.jsonl")), *sorted(EVAL_DIR.glob("natural_blind*.jsonl"))]
DATA_DIR = REPO_ROOT / ".data" / "eval"
PRECISION_BAR, ATTAINMENT_BAR = 0.9, 0.95
# The bar of a scan with the terms SuggestTerms proposes, approved as they are.
SUGGESTED_PRECISION_BAR, SUGGESTED_ATTAINMENT_BAR = 0.85, 0.9
# A group that had its target among its candidates returns at least this share of it.
HALF_TARGET = 0.5
# The component the service runs by default (SCOUT_RANKING), the one judged against the bar.
DEFAULT_RANKING = "rules+pool"
RANKINGS = ("rules", "rules+bm25", DEFAULT_RANKING)
# The component that scans with the proposed terms.
SUGGESTED = "suggested terms"
DEFAULT_TARGET = 20  # a brief without target_count
SERP_PAGE_SIZE = 10  # Google's results a page (devstack.search_api)
# The labeled set is dated; the scan job judges it at this fixed moment (SCOUT_SCAN_NOW), so the
# figures do not drift with the calendar.
NOW = datetime(2026, 8, 10, tzinfo=UTC)
TERMINAL = ("succeeded", "failed", "cancelled")
RUN_TIMEOUT_SECONDS = 120.0
PAGE_SIZE = 50  # ListRunPosts' largest page


def _threads_time(value: str | None) -> str | None:
    """A labeled posted_at (ISO 8601) as the Threads API writes it: 2026-07-14T04:10:00+0000."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+0000")


def threads_item(candidate: dict) -> dict:
    """A labeled candidate in the Threads API's shape (which the SerpApi answer is made from)."""
    url = candidate["url"]
    identity = post_identity(url)
    item = {"id": identity.shortcode if identity else url, "text": candidate.get("text", ""),
            "username": candidate.get("author", ""), "permalink": url}
    if identity is not None:
        item["shortcode"] = identity.shortcode
    if timestamp := _threads_time(candidate.get("posted_at")):
        item["timestamp"] = timestamp
    return item


class GroupSearch(SearchApi):
    """Both search providers, knowing exactly the current group's candidates."""

    def __init__(self) -> None:
        super().__init__(max_page=PAGE_LIMIT)
        self.items: list[dict] = []

    def show(self, candidates: list[dict]) -> None:
        self.items = [threads_item(c) for c in candidates]

    def found(self, query: str) -> list[dict]:
        grams = query_grams(query)
        # sorted() is stable: equal overlap keeps the labeled order, no overlap comes last.
        return sorted(self.items, key=lambda item: -overlap(grams, item["text"]))


@contextmanager
def scout_stack(resolved: infra.Infra, search: GroupSearch, ranking: str) -> Iterator[str]:
    """Migrated scout schema in a fresh database; server, worker and relay running. Yields the gRPC address."""
    database_url = resolved.server_url(f"feeds_eval_scout_{uuid.uuid4().hex[:8]}")
    infra.ensure_database(database_url)
    env = {"DATABASE_URL": database_url, "REDIS_URL": resolved.redis_url,
           "REDIS_NAMESPACE": f"eval-scout-{uuid.uuid4().hex[:8]}", "PYTHONUNBUFFERED": "1"}
    scout_env = {
        "SCOUT_LOG_LEVEL": "WARNING",
        "SCOUT_SOURCES": "threads,serp",
        "SCOUT_THREADS_BASE_URL": f"{search.url}/v1.0",
        "SCOUT_THREADS_ACCESS_TOKEN": "eval-threads-token",
        "SCOUT_SERP_BASE_URL": search.url,
        "SCOUT_SERP_API_KEY": "eval-serp-key",
        # Every group's scans share one account budget: the evaluation measures relevance, not quotas.
        "SCOUT_SERP_HOURLY_SEARCHES": "100000",
        "SCOUT_SCAN_NOW": NOW.isoformat(),
        "SCOUT_RANKING": ranking,
    }
    group = ProcessGroup(log_dir=DATA_DIR / "logs", env=env)
    platform = Platform(group, ports=Ports(scout=infra.free_port(), health={"scout": infra.free_port()}),
                        extra_env={"scout": scout_env})
    try:
        group.run("scout-migrate", python_module("scout", "migrate"), platform.service_env("scout"))
        platform.start_service("scout")
        wait_for(lambda: grpc_serving(platform.grpc_address("scout")), "scout SERVING", group)
        yield platform.grpc_address("scout")
    finally:
        group.stop()
        infra.drop_database(database_url)


@dataclass
class Scanned:
    """One group's scan as its owner sees it: the run's figures and its results in ListRunPosts order."""

    target: int
    status: str
    counts: dict[str, int]
    shortfall_reasons: list[str]
    posts: list[tuple[str, str, str]]  # (canonical id, url, text)
    error: str = ""


def refused(target: int, error: str) -> Scanned:
    """A brief the service refuses scores like a group without results."""
    return Scanned(target=target, status="refused", counts={}, shortfall_reasons=[], posts=[], error=error)


def scan(stub: scout_pb2_grpc.ScoutServiceStub, brief: dict, group_id: str, suggested: bool = False) -> Scanned:
    """One scan through the stack by a new owner, waited for.
    `suggested`: with the terms the service proposes for the intent instead of the labeled ones."""
    metadata = [("x-actor-id", str(uuid.uuid4()))]
    mode = brief.get("mode", "topic")
    target = int(brief.get("target_count") or DEFAULT_TARGET)
    try:
        terms = stub.SuggestTerms(scout_pb2.SuggestTermsRequest(intent=brief["intent"]), metadata=metadata,
                                  timeout=30).terms if suggested else brief["terms"]
        request = scout_pb2.ScanRequest(brief=scout_pb2.Brief(
            intent=brief["intent"], terms=terms, mode=mode, target_count=brief.get("target_count"),
            # A brand-mode brief needs a brand; the group stands for one when the set names none.
            brand_id=brief.get("brand_id") or (group_id if mode == "brand" else ""),
        ))
        run = stub.Scan(request, metadata=metadata, timeout=30).run
    except grpc.RpcError as error:
        return refused(target, f"{error.code().name}: {error.details()}")
    deadline = time.monotonic() + RUN_TIMEOUT_SECONDS
    while run.status not in TERMINAL:
        if time.monotonic() > deadline:
            raise TimeoutError(f"group {group_id}: run still {run.status} after {RUN_TIMEOUT_SECONDS:.0f}s")
        time.sleep(0.05)
        run = stub.GetRun(scout_pb2.GetRunRequest(run_id=run.id), metadata=metadata, timeout=30).run
    posts: list[tuple[str, str, str]] = []
    page = 1
    while True:
        listing = stub.ListRunPosts(scout_pb2.ListRunPostsRequest(
            run_id=run.id, page=scout_pb2.PageRequest(page=page, page_size=PAGE_SIZE)), metadata=metadata, timeout=30)
        posts.extend((p.canonical_id, p.url, p.text) for p in listing.posts)
        if page >= listing.pagination.total_pages:
            break
        page += 1
    return Scanned(target=run.target_count, status=run.status, posts=posts,
                   counts={"raw": run.searched_count, "duplicates": run.duplicate_count,
                           "rejected": run.irrelevant_count, "eligible": run.eligible_count},
                   shortfall_reasons=list(run.shortfall_reasons), error=run.error_summary)


class CandidateSource:
    """A search source answering from the group's candidates as the local search server does
    (GroupSearch): ordered by overlap with the query, `page_size` a page."""

    def __init__(self, name: str, candidates: list[RawCandidate], page_size: int) -> None:
        self.name, self.candidates, self.page_size = name, candidates, page_size

    def search(self, query: str, *, limit: int, cursor: str | None = None,
               window: SearchWindow = ANY_AGE) -> SearchPage:
        grams = query_grams(query)
        found = sorted(self.candidates, key=lambda c: -overlap(grams, c.text))
        start = int(cursor) if cursor and cursor.isdigit() else 0
        size = min(limit, self.page_size)
        more = start + size < len(found)
        return SearchPage(candidates=found[start:start + size], next_cursor=str(start + size) if more else None)


def candidate_sources(candidates: list[dict]) -> list[CandidateSource]:
    """The primary and secondary source over a group's candidates, as each provider reads them
    from the search server: Threads with the author and time, SerpApi by link and day only."""
    threads = [RawCandidate(url=c["url"], text=c.get("text", ""), author=c.get("author", ""),
                            posted_at=_posted_at(c.get("posted_at"))) for c in candidates]
    serp = [replace(c, author="", posted_at=c.posted_at.replace(hour=0, minute=0, second=0) if c.posted_at else None)
            for c in threads]
    return [CandidateSource("threads", threads, PAGE_LIMIT), CandidateSource("serp", serp, SERP_PAGE_SIZE)]


def scan_in_process(brief: dict, candidates: list[dict], group_id: str, ranking: str,
                    suggested: bool = False) -> Scanned:
    """The same scan as `scan`, through the pipeline in this process: the brief checked and the
    terms proposed as the service does, the stages run by `run_scan` against sources answering
    as the local search server does; no database, so a set runs in seconds."""
    mode = brief.get("mode", "topic")
    target = int(brief.get("target_count") or DEFAULT_TARGET)
    try:
        terms = suggested_terms(brief["intent"]) if suggested else list(brief["terms"])
        normalized = normalize_brief(theme_key="", theme_label="", intent=brief["intent"], mode=mode,
                                     brand_id=brief.get("brand_id") or (group_id if mode == "brand" else ""),
                                     terms=terms, target_count=brief.get("target_count"))
        require_topic(normalized)
    except InvalidArgument as error:
        return refused(target, f"INVALID_ARGUMENT: {error}")
    outcome = run_scan(normalized, candidate_sources(candidates), history=set(), target=normalized.target_count,
                       on_progress=lambda *_: None, should_cancel=lambda: False, now=NOW, ranking=ranking)
    counts = outcome.counts
    return Scanned(target=outcome.target, status="succeeded", shortfall_reasons=outcome.shortfall_reasons,
                   counts={"raw": counts.raw, "duplicates": counts.duplicates, "rejected": counts.rejected,
                           "eligible": counts.eligible},
                   posts=[(p.canonical_id, p.url, p.text) for p in outcome.posts])


def _posted_at(value: str | None) -> datetime | None:
    stamp = _threads_time(value)
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S%z") if stamp else None


def report_group(group: dict, scanned: Scanned) -> dict:
    """A group's figures: precision@10 over the results in the order members see them, and whether
    the target was reached (it counts where the candidates hold `target` relevant posts naming the topic)."""
    relevant: set[str] = set()
    naming: set[str] = set()
    for candidate in group["candidates"]:
        identity = post_identity(candidate["url"])
        if identity is not None and candidate.get("relevant"):
            relevant.add(identity.canonical_id)
            # A set without the field counts every relevant post as naming its topic.
            if candidate.get("names_topic", True):
                naming.add(identity.canonical_id)
    top = scanned.posts[:10]
    hits = sum(1 for canonical_id, _, _ in top if canonical_id in relevant)
    report = {
        "id": group["id"],
        "category": group.get("category", ""),
        "target": scanned.target,
        "results": len(scanned.posts),
        "unique_relevant": len(relevant),
        "unique_naming": len(naming),
        "precision_at_10": round(hits / len(top), 4) if top else 0.0,
        "reached_target": len(scanned.posts) >= scanned.target,
        "status": scanned.status,
        "counts": scanned.counts,
        "shortfall_count": max(scanned.target - len(scanned.posts), 0),
        "shortfall_reasons": scanned.shortfall_reasons,
        "result_urls": [url for _, url, _ in scanned.posts],
        "false_positives": [text for canonical_id, _, text in top if canonical_id not in relevant],
    }
    if scanned.error:
        report["error"] = scanned.error
    return report


def load(path: Path, only: set[str] | None) -> list[dict]:
    groups = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [g for g in groups if not only or g["id"] in only]


def overall(reports: list[dict]) -> dict:
    precision = sum(r["precision_at_10"] for r in reports) / len(reports) if reports else 0.0
    attainable = [r for r in reports if r["unique_naming"] >= r["target"]]
    attainment = sum(1 for r in attainable if r["reached_target"]) / len(attainable) if attainable else 1.0
    under_half = [r["id"] for r in attainable if r["results"] < r["target"] * HALF_TARGET]
    return {
        "groups": len(reports),
        "precision_at_10": round(precision, 4),
        "target_attainment": round(attainment, 4),
        "attainment_groups": len(attainable),
        "under_half_target": under_half,
        "passed": precision >= PRECISION_BAR and attainment >= ATTAINMENT_BAR and not under_half,
    }


def components_of(rankings: list[str], suggested: bool) -> list[tuple[str, str, bool]]:
    """(component, ranking, suggested) for each pass: every ranking with the labeled terms, then the
    default with the terms the service proposes for each intent (建議搜尋詞): what a member gets
    who approves them as they are."""
    judged = DEFAULT_RANKING if DEFAULT_RANKING in rankings else rankings[-1]
    return [(ranking, ranking, False) for ranking in rankings] + (
        [(f"{judged}, {SUGGESTED}", judged, True)] if suggested else [])


def run_component(sets: dict[str, list[dict]], ranking: str, suggested: bool, in_process: bool,
                  resolved: infra.Infra | None = None, search: GroupSearch | None = None) -> dict[str, list[dict]]:
    """Every group of every set scanned with one component; set name → group reports."""
    reports: dict[str, list[dict]] = {}
    for name, groups in sets.items():
        if in_process:
            reports[name] = [report_group(g, scan_in_process(g["brief"], g["candidates"], g["id"], ranking, suggested))
                             for g in groups]
            continue
        assert resolved is not None and search is not None
        # A stack per set: each set's scans share one Threads account budget (Meta's 2,200 queries a
        # day), which a set stays well inside and every set together would not.
        with scout_stack(resolved, search, ranking) as address, DEV_CA.channel(address) as channel:
            stub = scout_pb2_grpc.ScoutServiceStub(channel)
            reports[name] = []
            for group in groups:
                search.show(group["candidates"])
                reports[name].append(report_group(group, scan(stub, group["brief"], group["id"], suggested)))
    return reports


def evaluate(paths: list[Path], rankings: list[str], only: set[str] | None = None, suggested: bool = True,
             in_process: bool = False) -> dict:
    sets = {path.name: load(path, only) for path in paths}
    passes = components_of(rankings, suggested)
    components: dict[str, dict] = {}
    search = None if in_process else GroupSearch()
    # One resolution for every stack: an embedded Redis lives as long as the object that started it.
    resolved = None if in_process else infra.resolve(DATA_DIR)
    try:
        for component, ranking, with_suggested in passes:
            reports = run_component(sets, ranking, with_suggested, in_process, resolved, search)
            components[component] = {name: {**overall(groups), "group_reports": groups}
                                     for name, groups in reports.items()}
    finally:
        if search is not None:
            search.close()
    judged = DEFAULT_RANKING if DEFAULT_RANKING in rankings else rankings[-1]
    bars = {component: {"precision_at_10": PRECISION_BAR if not s else SUGGESTED_PRECISION_BAR,
                        "target_attainment": ATTAINMENT_BAR if not s else SUGGESTED_ATTAINMENT_BAR,
                        "min_share_of_target": HALF_TARGET} for component, _, s in passes}
    for component, figures in components.items():
        bar = bars[component]
        for set_figures in figures.values():
            set_figures["passed"] = (set_figures["precision_at_10"] >= bar["precision_at_10"]
                                     and set_figures["target_attainment"] >= bar["target_attainment"]
                                     and not set_figures["under_half_target"])
    judged_components = [judged] + [c for c, _, s in passes if s]
    return {
        "bars": bars,
        "judged": judged_components,
        "passed": all(f["passed"] for c in judged_components for f in components[c].values()),
        "components": components,
    }


# Each rule or lexicon the ablation switches off alone: name → (module, attribute, what stands in
# for it). Lexicon files are replaced by an empty one before anything reads them.
_EMPTY = str(Path(__file__).with_name("empty.txt"))
ABLATIONS: dict[str, tuple[str, str, object]] = {
    "aliases.txt": ("scout.pipeline.aliases", "LEXICON", Path(_EMPTY)),
    "synonyms.txt": ("scout.pipeline.aliases", "SYNONYMS", Path(_EMPTY)),
    "places.txt": ("scout.pipeline.aliases", "PLACES", Path(_EMPTY)),
    "parts.txt": ("scout.pipeline.aliases", "PARTS", Path(_EMPTY)),
    "framing.txt": ("scout.pipeline.signature.segment", "_LEXICON_FILE", Path(_EMPTY)),
    "titles.txt": ("scout.pipeline.signature.segment", "_TITLES_FILE", Path(_EMPTY)),
    "CC-CEDICT senses": ("scout.pipeline.glosses", "english", lambda *_: ()),
    "CC-CEDICT Japanese forms of characters": ("scout.pipeline.text", "_japanese_forms", dict),
    "romanized spellings": ("scout.pipeline.romanize", "spellings", lambda *_, **__: ()),
    "gate: advertisements": ("scout.pipeline.gate", "_is_ad", lambda *_, **__: False),
    "gate: a text of a title's parts only": ("scout.pipeline.gate", "_TITLE_PARTS", re.compile("(?!)")),
    "gate: another bearer of the name": ("scout.pipeline.gate", "_named_otherwise", lambda *_, **__: False),
    "gate: the name after another place": ("scout.pipeline.gate.Gate", "_placed_elsewhere", lambda *_, **__: False),
    "gate: a measure or a figure of speech": ("scout.pipeline.gate", "_figurative", lambda *_, **__: False),
    "gate: a name before the post turns to its subject": ("scout.pipeline.gate", "_TURN", re.compile("(?!)")),
    "gate: one item of a list": ("scout.pipeline.gate", "_listed", lambda *_, **__: False),
    "gate: another city": ("scout.pipeline.gate.Gate", "_elsewhere", lambda *_, **__: False),
    "gate: lower-case name ranks lower": ("scout.pipeline.gate", "_only_lowercase", lambda *_, **__: False),
    "gate: a name as often something else ranks lower": ("scout.pipeline.gate", "_ambiguous", lambda *_: False),
    "gate: selling words rank lower": ("scout.pipeline.gate", "_selling", lambda *_, **__: (0, 0)),
    "gate: what the member does not want ranks lower": ("scout.pipeline.signature", "_unwanted", lambda *_: ()),
    "signature: alternatives one of which is a very common word qualify": (
        "scout.pipeline.signature.concepts", "_qualifying", lambda group, _: [group.expression]),
    "gate: a short word inside a word the member searched": ("scout.pipeline.gate.Gate", "_in_term_word",
                                                             lambda *_, **__: False),
    "gate: a broader word searched on its own, weakly": ("scout.pipeline.gate", "_broader_search", lambda *_: False),
    "gate: a name written with spaces between its characters": ("scout.pipeline.gate", "SPACED_MIN_CHARS", 10 ** 6),
    "gate: a term of its own": ("scout.pipeline.gate", "_own_searches", lambda *_: frozenset()),
    "ranking: how a post is written": ("scout.pipeline.rank", "_shape", lambda *_: 0.0),
    "cut: a character cut off the next noun": ("scout.pipeline.signature.segment", "_cut_late", lambda *_: False),
    "signature: a title's number in either kind of numeral": ("scout.pipeline.signature.concepts", "_CHINESE_NUMBERED",
                                                              re.compile("(?!)")),
    "signature: an abbreviation searched alone is the concept its place was searched with": (
        "scout.pipeline.signature.concepts", "_searched_with", lambda concept, reading, place: reading.names(concept)),
    "signature: a name with a dot after each letter is the name without them": ("scout.pipeline.signature.concepts",
                                                                                "_undotted", lambda _: None),
    "signature: a name's beginning before its head is its short name": ("scout.pipeline.signature.concepts",
                                                                         "_before_head", lambda *_: None),
    "signature: a name alone in the other script is the brief's only name in that script": (
        "scout.pipeline.signature.concepts", "_only_name_in_script", lambda *_: []),
    "signature: a term's stretch meeting a concept by its head is another kind of it": (
        "scout.pipeline.signature.concepts", "_runs_of_a_kind", lambda *_: iter(())),
    "signature: a Latin name without its article": ("scout.pipeline.signature.concepts", "_without_article",
                                                    lambda _: None),
    "signature: a name without the place it begins with": ("scout.pipeline.signature.concepts", "unplaced",
                                                           lambda _: None),
    "cut: a surname begins the given name cut off it": ("scout.pipeline.signature.segment", "_given_names", lambda tokens: tokens),
    "names: the other name the member gives in brackets": ("scout.pipeline.signature.segment", "bracketed",
                                                           lambda *_: []),
    "proposals: the name alone": ("scout.pipeline.suggest", "_anchor", lambda *_, **__: None),
    "proposals: keywords led by a name search it alone too": ("scout.pipeline.suggest", "_led_by_name",
                                                              lambda *_: False),
    "proposals: a place beside a name says where it is": ("scout.pipeline.suggest", "_unmistakable", lambda *_: False),
    "proposals: a foreign name in characters is a person's": ("scout.pipeline.suggest", "_may_be_person",
                                                              lambda concept, _: is_personal(concept.folded)),
    "proposals: a name that is also a common word yields to one that is none": ("scout.pipeline.suggest", "_common_name",
                                                                                lambda *_: False),
    "proposals: a country left out": ("scout.pipeline.suggest", "_is_country", lambda *_: False),
    "proposals: a time left out": ("scout.pipeline.suggest", "_is_time", lambda *_: False),
    "proposals: a place inside the city a name begins with left out": ("scout.pipeline.suggest", "_inside_named_city",
                                                                       lambda *_: False),
    "proposals: keywords any two at a time": ("scout.pipeline.suggest", "_any_two", lambda *_: []),
    "proposals: the first keyword alone": ("scout.pipeline.suggest", "_first_keyword", lambda *_: []),
    "proposals: a place where the member tells of themselves": ("scout.pipeline.suggest", "_own_setting", lambda *_: False),
    "proposals: a title the question's sentence marks before it asks": ("scout.pipeline.suggest", "_marked_before",
                                                                       lambda *_: False),
    "proposals: a common word after the keywords only scores": ("scout.pipeline.suggest", "_without_aspect", lambda *_: None),
    "proposals: a keyword that is a verb only scores": ("scout.pipeline.suggest", "_without_doing", lambda *_: None),
    "proposals: a run in its words": ("scout.pipeline.suggest", "parts_around_names", lambda *_: None),
    "proposals: the thing before a generic head": ("scout.pipeline.suggest", "_before_generic_head", lambda *_: None),
    "proposals: a product without its maker": ("scout.pipeline.suggest", "_without_maker", lambda *_: None),
    "proposals: the end of a story's name after another place is another one": ("scout.pipeline.suggest",
                                                                               "_placed_otherwise", lambda *_: False),
    "proposals: a keyword keeps what the cut would drop of it": ("scout.pipeline.suggest", "_typed_whole", lambda *_: []),
    "proposals: a question about a line of work is about the worker": ("scout.pipeline.suggest", "_worker_asked",
                                                                        lambda *_: None),
    "proposals: people asked by the work they do": ("scout.pipeline.suggest", "_by_work", lambda *_: False),
    "proposals: what the question asks people to tell about": ("scout.pipeline.suggest", "_about", lambda *_: None),
    "proposals: what a request asks for": ("scout.pipeline.suggest", "_asked_for", lambda *_: None),
    "proposals: an asking word before people asks for no thing": ("scout.pipeline.suggest", "_asks_for_people",
                                                                  lambda clause, cue: clause.find(cue + "人") >= 0),
    "proposals: what the member wants to become": ("scout.pipeline.suggest", "_BECOMING", re.compile(r"(?!)")),
    "proposals: what a request names again and again": ("scout.pipeline.suggest", "_repeated", lambda *_: None),
    "proposals: keywords of one field or head apart": ("scout.pipeline.suggest", "_alternatives", lambda *_: []),
    "proposals: alternatives beside a name are what of it is asked": ("scout.pipeline.suggest", "_aspects_of",
                                                                      lambda *_: False),
    "proposals: the most specific concept alone": ("scout.pipeline.suggest", "_most_specific", lambda *_: None),
    "proposals: a two-character name across a common word's edge is none": (
        "scout.pipeline.suggest", "_written_names", lambda aliases, folded: aliases.names_in(folded)),
    "proposals: a name that begins with a place kept whole": ("scout.pipeline.suggest", "_place_led", lambda concepts, *_: concepts),
    "proposals: a name without its place": ("scout.pipeline.suggest", "unplaced", lambda *_: None),
    "proposals: the thing before what is done": ("scout.pipeline.suggest", "_verb", lambda *_: False),
    "proposals: the clauses that ask first": ("scout.pipeline.suggest", "_in_asking_clause", lambda *_: False),
    "proposals: names of the statements before the asking are the setting": ("scout.pipeline.suggest", "_past_setting",
                                                                            lambda naming, *_: naming),
    "proposals: the story before the question is the setting": ("scout.pipeline.suggest", "_past_story",
                                                                 lambda per_piece, *_: per_piece),
    "proposals: a question after a story naming things of its own": ("scout.pipeline.suggest", "_own_names",
                                                                    lambda *_: []),
    "proposals: a question naming nothing asks about the story's last name": ("scout.pipeline.suggest", "_last_told",
                                                                             lambda *_: []),
    "proposals: a pointer at a line of work points back at the last work named": ("scout.pipeline.suggest", "_last_kind",
                                                                                 lambda *_: []),
    "proposals: the question is the first asking clause that begins a sentence": ("scout.pipeline.suggest",
                                                                                 "_begins_sentence", lambda *_: False),
    "proposals: what a pronoun or a pointer points back at": ("scout.pipeline.suggest", "_from_person",
                                                       lambda naming, *_: naming),
    "proposals: keywords giving names apart are about the first": ("scout.pipeline.suggest", "_one_keyword",
                                                                   lambda *_: True),
    "proposals: a first keyword of several words most specific": ("scout.pipeline.suggest", "_compound_first",
                                                                  lambda *_: None),
    "proposals: what is named before 之後 says when": ("scout.pipeline.suggest", "_occasion", lambda *_: False),
    "proposals: a clause of what else would do": ("scout.pipeline.suggest", "_EXTRA_ENDINGS", ()),
    "proposals: a clause of what the member does not want": ("scout.pipeline.suggest", "_UNWANTED", re.compile(r"(?!)")),
    "proposals: names listed as options are examples": ("scout.pipeline.suggest", "_option", lambda *_: False),
    "proposals: a name right before a person's says where the person works": ("scout.pipeline.suggest", "_affiliation",
                                                                           lambda *_: False),
    "proposals: a Chinese name beside a Latin one": ("scout.pipeline.suggest", "_beside_latin", lambda *_: []),
    "proposals: a verb glued to a name the dictionary lacks cut off it": ("scout.pipeline.suggest", "_unglued",
                                                                          lambda unit: unit),
    "proposals: a keyword that reads as a person's name whole": ("scout.pipeline.suggest", "_in_characters",
                                                                 lambda *_: []),
    "proposals: story things named again only in what is not wanted stay the setting": ("scout.pipeline.suggest",
                                                                                        "_told_aside", lambda *_: []),
    "proposals: a common word after alternatives that are things only scores": ("scout.pipeline.suggest", "_aspect_after",
                                                                                lambda *_: False),
    "proposals: a question's place and common things after a story of names": ("scout.pipeline.suggest", "_asked_there",
                                                                               lambda *_: []),
    "proposals: a platform between 在 and 上 is not where the story arrived": ("scout.pipeline.suggest", "_venue",
                                                                            lambda *_: False),
    "proposals: a thing named again by another name is not where the story arrived": ("scout.pipeline.suggest",
                                                                                      "_first_namings", lambda told, _: told),
    "proposals: the first keyword typed is the topic": ("scout.pipeline.suggest", "_typed_first", lambda *_: []),
    "proposals: where the member works or studies is the setting": ("scout.pipeline.suggest", "_self_told",
                                                                   lambda *_: False),
    "proposals: a pronoun points back at a person no lexicon knows": ("scout.pipeline.suggest", "_pointed_person",
                                                                     lambda *_: []),
}
BLIND_SETS = sorted(EVAL_DIR.glob("natural_blind*.jsonl"))


def switch_off(name: str) -> None:
    """Replace one rule or lexicon for this process, in its module and wherever it was imported."""
    where, attribute, stand_in = ABLATIONS[name]
    module_name, _, last = where.rpartition(".")
    # A method is switched off on its class (scout.pipeline.gate.Gate), anything else on its module.
    target = getattr(importlib.import_module(module_name), last) if last[:1].isupper() \
        else importlib.import_module(where)
    original = getattr(target, attribute)
    setattr(target, attribute, stand_in)
    for loaded in list(sys.modules.values()):
        if getattr(loaded, "__name__", "").startswith("scout.") and getattr(loaded, attribute, None) is original:
            setattr(loaded, attribute, stand_in)


def ablate(paths: list[Path], names: list[str]) -> dict:
    """Each rule or lexicon switched off alone, in a process of its own, on `paths` with both the
    labeled and the proposed terms: the change of precision@10 and attainment it causes per set,
    and summed. A rule whose removal costs nothing measurable has no place."""
    def figures(name: str | None) -> dict:
        command = [sys.executable, __file__, *map(str, paths), "--rankings", DEFAULT_RANKING, "--in-process"]
        done = subprocess.run(command + (["--switch-off", name] if name else []), capture_output=True, text=True)
        report = json.loads(done.stdout)
        return {component: {name: {"precision_at_10": f["precision_at_10"], "target_attainment": f["target_attainment"]}
                            for name, f in sets.items()} for component, sets in report["components"].items()}

    baseline = figures(None)
    result: dict = {"baseline": baseline, "switched_off": {}}
    for name in names:
        off = figures(name)
        delta = {component: {s: {k: round(v - baseline[component][s][k], 4) for k, v in f.items()}
                             for s, f in sets.items()} for component, sets in off.items()}
        total = {component: {k: round(sum(d[k] for d in sets.values()), 4) for k in ("precision_at_10", "target_attainment")}
                 for component, sets in delta.items()}
        result["switched_off"][name] = {"delta": delta, "total": total}
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", type=Path, help="labeled sets (JSON lines); default: all of them")
    parser.add_argument("--groups", default="", help="comma-separated group ids to evaluate (default: all)")
    parser.add_argument("--rankings", default=",".join(RANKINGS),
                        help="ranking components to evaluate, comma-separated; the service's default (rules+pool) is "
                             "judged against the bar when listed, else the last one")
    parser.add_argument("--no-suggested", action="store_true",
                        help="skip the pass with the terms the service proposes for each intent")
    parser.add_argument("--in-process", action="store_true",
                        help="run the scan pipeline in this process instead of through the stack (seconds a set)")
    parser.add_argument("--ablate", nargs="?", const="all", default=None,
                        help="switch each rule or lexicon off alone (or those named, comma-separated) on the blind "
                             "sets, or the sets given, in process, and report what each is worth")
    parser.add_argument("--switch-off", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv[1:])
    if args.ablate:
        names = list(ABLATIONS) if args.ablate == "all" else [n.strip() for n in args.ablate.split(",")]
        print(json.dumps(ablate(args.datasets or BLIND_SETS, names), ensure_ascii=False, indent=2))
        return 0
    if args.switch_off:
        switch_off(args.switch_off)
    only = {g.strip() for g in args.groups.split(",") if g.strip()} or None
    rankings = [r.strip() for r in args.rankings.split(",") if r.strip()]
    report = evaluate(args.datasets or DEFAULT_DATASETS, rankings, only, suggested=not args.no_suggested,
                      in_process=args.in_process)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
