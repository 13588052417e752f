"""`make soak` at a low rate for a few seconds: it starts the platform itself, stops by itself, reports
every operation of the mix with its latencies and answers, the backlogs and each process's memory,
and exits non-zero exactly when its report says the bar was missed. Memory growth and drain time over
a few seconds say nothing, so only their presence is asserted; no 5xx is asserted outright."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from devstack.platform import PROCESSES
from devstack.settings import DevSettings

REPO_ROOT = Path(__file__).resolve().parent.parent
SECONDS, RATE = 6, 5
# The first 30 operations of the mix hold each of these at least once (the mix is a fixed interleaving).
OPERATIONS = {"home", "feed", "publish", "follow", "subscribe", "news_write", "news_publish", "scan"}


def test_a_short_soak_reports_every_operation_and_no_5xx(infrastructure, tmp_path):
    report_path = tmp_path / "soak.json"
    env = {**os.environ, "FEEDS_ENV": "dev", "DATABASE_URL": infrastructure.database_url,
           "REDIS_URL": infrastructure.redis_url, "SOAK_SECONDS": str(SECONDS), "SOAK_RATE": str(RATE),
           "SOAK_WARMUP_SECONDS": "1", "SOAK_REPORT": str(report_path)}
    soak = subprocess.Popen([sys.executable, "-m", "devstack.soak"], cwd=REPO_ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        output, _ = soak.communicate(timeout=600)
    finally:
        if soak.poll() is None:  # SIGTERM lets it stop its platform and drop its database
            soak.send_signal(signal.SIGTERM)
            soak.communicate(timeout=60)
    assert report_path.exists(), output
    report = json.loads(report_path.read_text())

    assert report["settings"] == {"seconds": SECONDS, "rate": RATE, "concurrency": 8, "warmup_seconds": 1}
    assert report["started"] == SECONDS * RATE
    assert OPERATIONS <= set(report["operations"]), report["operations"]
    statuses: dict[str, int] = {}
    for name, operation in report["operations"].items():
        assert operation["count"] == sum(operation["statuses"].values()) > 0, name
        assert 0 < operation["p50_ms"] <= operation["p99_ms"], name
        for status, n in operation["statuses"].items():
            statuses[status] = statuses.get(status, 0) + n
    assert not [status for status in statuses if status.startswith("5") or not status.isdigit()], statuses
    assert report["crashes"] == {}

    backlog = report["backlog_at_stop"]
    assert {queue.split(".")[0] for queue in backlog["queued"]} == {"timeline", "news", "scout"}
    assert set(backlog["outbox"]) == {"timeline", "news", "scout"} and backlog["unreadable"] == []
    assert "drained_after_seconds" in report
    # Every platform process, a Dramatiq worker's forked processes besides.
    assert set(PROCESSES) <= set(report["memory"]), report["memory"]
    assert all(m["warm_kib"] > 0 and m["end_kib"] > 0 for m in report["memory"].values())
    assert sum(report["scan_runs"].values()) == report["operations"]["scan"]["statuses"]["200"]

    assert (soak.returncode == 0) == report["passed"] == (report["failures"] == []), output
    for name in report["operations"]:
        assert re.search(rf"^{name} +\d+ +[\d.]+ +[\d.]+  ", output, re.MULTILINE), output
    assert ("PASS:" if report["passed"] else "FAIL:") in output


def test_readme_documents_every_dev_kit_variable():
    readme = (REPO_ROOT / "README.md").read_text()
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", readme))
    missing = [field.validation_alias for field in DevSettings.model_fields.values()
               if field.validation_alias not in documented]
    assert not missing, f"README.md does not document {missing}"
