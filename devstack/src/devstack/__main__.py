"""`make run`: resolve PostgreSQL and Redis (embedded when DATABASE_URL / REDIS_URL are unset), migrate,
start every server, worker and relay and the gateway, print what runs where; Ctrl-C stops it all."""

from __future__ import annotations

import secrets
import signal
import sys
import threading

from devstack import DATA_DIR, infra
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup
from devstack.settings import DevSettings
from feeds_runtime.settings import load_settings

RUN_DIR = DATA_DIR / "run"
LOG_DIR = RUN_DIR / "logs"


def _dev_secret(name: str) -> str:
    """A per-checkout secret kept in the data folder, so tokens survive a restart."""
    path = RUN_DIR / name
    if not path.exists():
        RUN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


def main() -> int:
    settings = load_settings(DevSettings)
    try:
        resolved = infra.resolve(RUN_DIR, settings=settings)
    except ValueError as exc:
        print(f"configuration error: DATABASE_URL: {exc}", file=sys.stderr)
        return 2
    env = {**resolved.env(), "PYTHONUNBUFFERED": "1"}
    gateway_env = {
        "GATEWAY_JWT_SECRET": settings.gateway_jwt_secret or _dev_secret("jwt-secret"),
    }
    group = ProcessGroup(log_dir=LOG_DIR, env=env)
    platform = Platform(group, ports=Ports(metrics=Ports.metrics_ports()), extra_env={"gateway": gateway_env})
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    try:
        platform.start()
        where = ", ".join(resolved.embedded) or "none"
        print(f"\nfeeds platform is up (embedded: {where}; logs in {LOG_DIR})")
        print(f"  {'':<16} {'listening':<44} metrics")
        for name, address, metrics in platform.describe():
            print(f"  {name:<16} {address:<44} {metrics}".rstrip())
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
