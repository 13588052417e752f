"""The quality bar of the specification on the labeled sets, through evaluate.py: every group a
real scan job (scout server, worker and relay on this session's PostgreSQL and Redis)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EVAL = Path(__file__).parents[2] / "eval"
CATEGORIES = {"person", "work", "brand", "event", "industry", "multi"}
# The specification's acceptance bar (section 9): precision@10 on average, and target attainment of
# the groups whose candidates hold their target.
SPEC_PRECISION, SPEC_ATTAINMENT = 0.8, 0.9


def groups_of(name: str) -> list[dict]:
    return [json.loads(line) for line in (EVAL / name).read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("name", sorted(p.name for p in EVAL.glob("*.jsonl")))
def test_labeled_sets_cover_the_required_kinds_of_groups(name):
    groups = groups_of(name)
    assert len(groups) >= 18
    assert {g["category"] for g in groups} >= CATEGORIES
    for group in groups:
        assert {"intent", "terms", "mode", "target_count"} <= set(group["brief"])
        assert any(c["relevant"] for c in group["candidates"]) and any(not c["relevant"] for c in group["candidates"])
        # Only a relevant post can name its topic (spec 004 §9 counts attainment over those that do).
        assert all(isinstance(c["names_topic"], bool) and (c["relevant"] or not c["names_topic"])
                   for c in group["candidates"])


def test_the_natural_sets_hold_long_requests_and_shortfall_groups():
    groups = [g for n in ("natural_dev.jsonl", "natural_dev2.jsonl", "natural_dev3.jsonl", "natural_dev4.jsonl",
                          "natural_dev5.jsonl", "natural_dev6.jsonl", "natural_blind.jsonl", "natural_blind2.jsonl",
                          "natural_blind3.jsonl", "natural_blind4.jsonl")
              for g in groups_of(n)]
    assert len(groups) >= 600
    long_requests = [g for g in groups if len(g["brief"]["intent"]) >= 12]
    assert len(long_requests) * 3 >= len(groups)
    relevant = {g["id"]: len({c["url"].split("/post/")[-1][:11] for c in g["candidates"] if c["relevant"]}) for g in groups}
    assert sum(1 for g in groups if relevant[g["id"]] < g["brief"]["target_count"]) >= 8


# About three seconds a group on a quiet machine (each a real scan job); room for a loaded one.
@pytest.mark.timeout(1800)
def test_evaluation_meets_the_specification_bar(infrastructure):
    env = {**os.environ, "DATABASE_URL": infrastructure.database_url, "REDIS_URL": infrastructure.redis_url}
    sets = [EVAL / n for n in ("dataset.jsonl", "holdout.jsonl", "natural_dev.jsonl")]
    done = subprocess.run([sys.executable, str(EVAL / "evaluate.py"), *map(str, sets), "--rankings", "rules+pool",
                           "--no-suggested"],
                          capture_output=True, text=True, timeout=1700, env=env)
    assert done.stdout, done.stderr[-2000:]
    report = json.loads(done.stdout)
    for name, figures in report["components"]["rules+pool"].items():
        groups = figures["group_reports"]
        assert {g["status"] for g in groups} == {"succeeded"}, name
        assert figures["precision_at_10"] >= SPEC_PRECISION and figures["target_attainment"] >= SPEC_ATTAINMENT, \
            (name, figures)
        # groups with fewer relevant posts than their target are reported with reasons; in the
        # seed sets, none of them is padded with off-topic posts
        for group in groups:
            assert len(group["result_urls"]) == group["results"], (name, group["id"])
            if group["unique_relevant"] < group["target"]:
                assert group["shortfall_count"] > 0 and group["shortfall_reasons"], (name, group["id"])
                if name in ("dataset.jsonl", "holdout.jsonl"):
                    assert group["precision_at_10"] >= SPEC_PRECISION, (name, group["id"])
