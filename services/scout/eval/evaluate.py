"""Quality evaluation of scout scans on labeled sets (make eval-scout [DATASET=…]).

Each group runs through the real scan job: the scout server, worker and outbox relay run as in
production (PostgreSQL and Redis from DATABASE_URL / REDIS_URL, embedded when unset; a fresh
database and Redis namespace for each set and component, dropped after it), with the `threads`
source as primary and `serp` as secondary, both pointing at a local server that answers with the
group's candidates — they stand for what the search engines answered. Each request gets the next
≤ 20 candidates for its query, ordered by lexical overlap with it, those with no overlap last but
still returned, so every candidate can be reached. Every group is scanned over gRPC by an owner
of its own; its results are read with ListRunPosts, in the order members see them.

Every set is evaluated once per ranking component (SCOUT_RANKING: the gate's rules alone, then
with BM25, then with the eligible posts' common words, the service's default), so each
component's figures stand on their own; then once more with the default component and, for each
group, the terms SuggestTerms proposes for its intent instead of the labeled ones (reported, not
judged; --no-suggested skips it). Prints one JSON object: per set and component, precision@10
(relevant among the first min(10, results) results; 0 for a group without results), target
attainment (share of the groups reaching their target among those with at least target unique
relevant candidates) and the groups that returned fewer than half their target although they had
it; for the default component, every group with its shortfall reasons and false positives. Exits 1 when the default component misses the bar on any set.

The sets (docs/scout.md 4.1): dataset.jsonl and holdout.jsonl, written from topics.py;
natural_dev.jsonl and natural_dev2–6.jsonl, written blind and open for tuning;
natural_blind.jsonl and natural_blind2–4.jsonl, written blind and only ever run.

    python services/scout/eval/evaluate.py [DATASET ...] [--groups g01,g02] [--rankings rules,rules+pool] [--no-suggested]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import grpc
from devstack import infra
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, python_module, wait_for
from devstack.search_api import SearchApi
from feeds.scout.v1 import scout_pb2, scout_pb2_grpc
from scout.pipeline.identity import post_identity
from scout.pipeline.sources import PAGE_LIMIT
from scout.pipeline.sources.lexical import overlap, query_grams

REPO_ROOT = Path(__file__).resolve().parents[3]
EVAL_DIR = Path(__file__).parent
DEFAULT_DATASETS = [EVAL_DIR / n for n in ("dataset.jsonl", "holdout.jsonl", "natural_dev.jsonl", "natural_dev2.jsonl",
                                              "natural_dev3.jsonl", "natural_dev4.jsonl", "natural_dev5.jsonl",
                                              "natural_dev6.jsonl", "natural_blind.jsonl", "natural_blind2.jsonl",
                                              "natural_blind3.jsonl", "natural_blind4.jsonl")]
DATA_DIR = REPO_ROOT / ".data" / "eval"
PRECISION_BAR, ATTAINMENT_BAR = 0.9, 0.95
# A group that had its target among its candidates returns at least this share of it.
HALF_TARGET = 0.5
# The component the service runs by default (SCOUT_RANKING), the one judged against the bar.
DEFAULT_RANKING = "rules+pool"
RANKINGS = ("rules", "rules+bm25", DEFAULT_RANKING)
# The component that scans with the proposed terms; reported, not judged against the bar.
SUGGESTED = "suggested terms"
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
    platform = Platform(group, ports=Ports(scout=infra.free_port()), extra_env={"scout": scout_env})
    try:
        group.run("scout-migrate", python_module("scout", "migrate"), platform.service_env("scout"))
        platform.start_service("scout")
        wait_for(lambda: grpc_serving(platform.grpc_address("scout")), "scout SERVING", group)
        yield platform.grpc_address("scout")
    finally:
        group.stop()
        infra.drop_database(database_url)


def scan(stub: scout_pb2_grpc.ScoutServiceStub, brief: dict, group_id: str,
         suggested: bool = False) -> tuple[scout_pb2.ScoutRun, list]:
    """One scan by a new owner, waited for; the run as it ended and its results in ListRunPosts order.
    `suggested`: with the terms the service proposes for the intent instead of the labeled ones."""
    metadata = [("x-actor-id", str(uuid.uuid4()))]
    mode = brief.get("mode", "topic")
    terms = stub.SuggestTerms(scout_pb2.SuggestTermsRequest(intent=brief["intent"]), metadata=metadata,
                              timeout=30).terms if suggested else brief["terms"]
    request = scout_pb2.ScanRequest(brief=scout_pb2.Brief(
        intent=brief["intent"], terms=terms, mode=mode, target_count=brief.get("target_count"),
        # A brand-mode brief needs a brand; the group stands for one when the set names none.
        brand_id=brief.get("brand_id") or (group_id if mode == "brand" else ""),
    ))
    run = stub.Scan(request, metadata=metadata, timeout=30).run
    deadline = time.monotonic() + RUN_TIMEOUT_SECONDS
    while run.status not in TERMINAL:
        if time.monotonic() > deadline:
            raise TimeoutError(f"group {group_id}: run still {run.status} after {RUN_TIMEOUT_SECONDS:.0f}s")
        time.sleep(0.05)
        run = stub.GetRun(scout_pb2.GetRunRequest(run_id=run.id), metadata=metadata, timeout=30).run
    posts, page = [], 1
    while True:
        listing = stub.ListRunPosts(scout_pb2.ListRunPostsRequest(
            run_id=run.id, page=scout_pb2.PageRequest(page=page, page_size=PAGE_SIZE)), metadata=metadata, timeout=30)
        posts.extend(listing.posts)
        if page >= listing.pagination.total_pages:
            return run, posts
        page += 1


def evaluate_group(stub: scout_pb2_grpc.ScoutServiceStub, search: GroupSearch, group: dict,
                   suggested: bool = False) -> dict:
    brief = group["brief"]
    relevant_ids: set[str] = set()
    for candidate in group["candidates"]:
        identity = post_identity(candidate["url"])
        if identity is not None and candidate.get("relevant"):
            relevant_ids.add(identity.canonical_id)
    search.show(group["candidates"])
    try:
        run, posts = scan(stub, brief, group["id"], suggested)
    except grpc.RpcError as error:  # a brief the service refuses scores like a group without results
        return {"id": group["id"], "category": group.get("category", ""),
                "target": int(brief.get("target_count") or 20), "results": 0, "unique_relevant": len(relevant_ids),
                "precision_at_10": 0.0, "reached_target": False, "status": "refused",
                "error": f"{error.code().name}: {error.details()}", "counts": {}, "shortfall_count": 0,
                "shortfall_reasons": [], "false_positives": []}
    top = posts[:10]
    hits = sum(1 for post in top if post.canonical_id in relevant_ids)
    report = {
        "id": group["id"],
        "category": group.get("category", ""),
        "target": run.target_count,
        "results": len(posts),
        "unique_relevant": len(relevant_ids),
        "precision_at_10": round(hits / len(top), 4) if top else 0.0,
        "reached_target": len(posts) >= run.target_count,
        "status": run.status,
        "counts": {"raw": run.searched_count, "duplicates": run.duplicate_count,
                   "rejected": run.irrelevant_count, "eligible": run.eligible_count},
        "shortfall_count": run.shortfall_count,
        "shortfall_reasons": list(run.shortfall_reasons),
        "false_positives": [p.text for p in top if p.canonical_id not in relevant_ids],
    }
    if run.error_summary:
        report["error"] = run.error_summary
    return report


def load(path: Path, only: set[str] | None) -> list[dict]:
    groups = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [g for g in groups if not only or g["id"] in only]


def overall(reports: list[dict]) -> dict:
    precision = sum(r["precision_at_10"] for r in reports) / len(reports) if reports else 0.0
    attainable = [r for r in reports if r["unique_relevant"] >= r["target"]]
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


def evaluate(paths: list[Path], rankings: list[str], only: set[str] | None = None, suggested: bool = True) -> dict:
    sets = {path.name: load(path, only) for path in paths}
    judged = DEFAULT_RANKING if DEFAULT_RANKING in rankings else rankings[-1]
    components: dict[str, dict] = {}
    details: dict[str, dict] = {}
    search = GroupSearch()
    # One resolution for every stack: an embedded Redis lives as long as the object that started it.
    resolved = infra.resolve(DATA_DIR)
    try:
        # Last, the judged component once more with the terms the service proposes for each intent
        # (建議搜尋詞) instead of the labeled ones: what a member gets who approves them as they are.
        passes = [(ranking, ranking, False) for ranking in rankings] + (
            [(f"{judged}, {SUGGESTED}", judged, True)] if suggested else [])
        for component, ranking, suggested in passes:
            for name, groups in sets.items():
                # A stack per set: each set's scans share one Threads account budget (Meta's 2,200
                # queries a day), which a set stays well inside and every set together would not.
                with scout_stack(resolved, search, ranking) as address, grpc.insecure_channel(address) as channel:
                    stub = scout_pb2_grpc.ScoutServiceStub(channel)
                    reports = [evaluate_group(stub, search, group, suggested) for group in groups]
                components.setdefault(component, {})[name] = overall(reports)
                if component == judged:
                    details[name] = {
                        "shortfall_groups": [
                            {"id": r["id"], "target": r["target"], "results": r["results"],
                             "unique_relevant": r["unique_relevant"], "reasons": r["shortfall_reasons"]}
                            for r in reports if r["shortfall_count"] > 0],
                        "groups": reports,
                    }
    finally:
        search.close()
    final = components[judged]
    return {
        "bar": {"precision_at_10": PRECISION_BAR, "target_attainment": ATTAINMENT_BAR, "min_share_of_target": HALF_TARGET},
        "ranking": judged,
        "passed": all(o["passed"] for o in final.values()),
        "components": components,
        "sets": details,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", type=Path, help="labeled sets (JSON lines); default: all of them")
    parser.add_argument("--groups", default="", help="comma-separated group ids to evaluate (default: all)")
    parser.add_argument("--rankings", default=",".join(RANKINGS),
                        help="ranking components to evaluate, comma-separated; the service's default (rules+pool) is "
                             "judged against the bar when listed, else the last one")
    parser.add_argument("--no-suggested", action="store_true",
                        help="skip the pass with the terms the service proposes for each intent")
    args = parser.parse_args(argv[1:])
    only = {g.strip() for g in args.groups.split(",") if g.strip()} or None
    rankings = [r.strip() for r in args.rankings.split(",") if r.strip()]
    report = evaluate(args.datasets or DEFAULT_DATASETS, rankings, only, suggested=not args.no_suggested)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
