"""Benchmark output as docs/architecture.md fixes it: one JSON object per measurement on stdout and in
bench/results/<name>.json, each with the baseline measured in the same run and the ratio to it."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from devstack import DATA_DIR, REPO_ROOT

RESULTS_DIR = REPO_ROOT / "bench" / "results"
# Embedded servers and process logs of benchmark runs.
BENCH_DATA_DIR = DATA_DIR / "bench"


def record(name: str, params: dict[str, Any], metric: str, value: float, unit: str,
           baseline_name: str, baseline_value: float) -> dict[str, Any]:
    result = {
        "name": name,
        "params": params,
        "metric": metric,
        "value": round(value, 6),
        "unit": unit,
        "baseline": {"name": baseline_name, "value": round(baseline_value, 6)},
        "ratio": round(value / baseline_value, 3) if baseline_value else None,
    }
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / f"{name}.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(result, ensure_ascii=False), flush=True)
    return result


def latencies_ms(operation: Callable[[], object], runs: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        operation()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        operation()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    if p == 50:
        return statistics.median(ordered)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
    return ordered[index]
