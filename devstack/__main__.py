"""`make run`: resolve PostgreSQL and Redis (embedded when DATABASE_URL / REDIS_URL are unset), migrate,
start every server, worker and relay and the gateway, print what runs where; Ctrl-C stops it all."""

from __future__ import annotations

import os
import secrets
import signal
import sys
import threading
from pathlib import Path

from devstack.platform import Platform, log_dir
from feeds_runtime import infra
from feeds_runtime.processes import ProcessGroup

REPO_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = REPO_ROOT / ".data" / "run"


def _dev_secret(name: str) -> str:
    """A per-checkout secret kept in the data folder, so tokens survive a restart."""
    path = DATA_DIR / name
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


def main() -> int:
    try:
        resolved = infra.resolve(DATA_DIR)
    except ValueError as exc:
        print(f"configuration error: DATABASE_URL: {exc}", file=sys.stderr)
        return 2
    env = {"DATABASE_URL": resolved.database_url, "REDIS_URL": resolved.redis_url, "PYTHONUNBUFFERED": "1"}
    gateway_env = {
        "GATEWAY_DEV_MODE": os.environ.get("GATEWAY_DEV_MODE", "true"),
        "GATEWAY_JWT_SECRET": os.environ.get("GATEWAY_JWT_SECRET") or _dev_secret("jwt-secret"),
    }
    group = ProcessGroup(log_dir=log_dir(REPO_ROOT), env=env)
    platform = Platform(group, extra_env={"gateway": gateway_env})
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    try:
        platform.start()
        where = ", ".join(resolved.embedded) or "none"
        print(f"\nfeeds platform is up (embedded: {where}; logs in {log_dir(REPO_ROOT)})")
        for name, address in platform.describe():
            print(f"  {name:<16} {address}")
        print("Ctrl-C stops everything.", flush=True)
        while not stop.wait(1.0):
            group.check_alive()
    except (RuntimeError, TimeoutError) as exc:
        print(f"platform failed: {exc}", file=sys.stderr)
        return 1
    finally:
        print("stopping…", flush=True)
        group.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
