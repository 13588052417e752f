"""`make run`'s orchestrator refuses a malformed DATABASE_URL with one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_malformed_database_url_stops_with_one_line():
    env = {**os.environ, "DATABASE_URL": "postgresql://user@host:notaport/db", "REDIS_URL": "redis://127.0.0.1:1/0"}
    result = subprocess.run([sys.executable, "-m", "devstack"], cwd=REPO_ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("configuration error: DATABASE_URL:")
