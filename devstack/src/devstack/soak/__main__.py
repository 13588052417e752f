"""`make soak`: the whole platform started as `make run` starts it (on free ports, in a database and
Redis namespace of its own, both removed afterwards), a mixed load through the gateway for
SOAK_SECONDS, then the report; the exit status is 0 only when the run met the bar."""

from __future__ import annotations

import json
import shutil
import signal
import sys
import threading
import time
import uuid

import redis
from pydantic import ValidationError

from devstack import DATA_DIR, infra
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup
from devstack.settings import DevSettings
from devstack.soak import probes, report
from devstack.soak.load import Load, Recorder

SOAK_DIR = DATA_DIR / "soak"
LOG_DIR = SOAK_DIR / "logs"


def soak(platform: Platform, settings: DevSettings, host_key: dict[str, str], jwt_secret: str) -> report.Report:
    recorder = Recorder()
    load = Load(platform.gateway_url, host_key, jwt_secret, recorder)
    stop = threading.Event()
    runner = threading.Thread(target=load.run, name="soak-schedule",
                              args=(settings.soak_rate, settings.soak_seconds, settings.soak_concurrency, stop))
    began = time.monotonic()
    runner.start()
    try:
        # Memory is compared from the end of warm-up (caches, pools and connections filled) to the end.
        stop.wait(settings.soak_warmup_seconds)
        warm = probes.resident_memory(platform.group)
        while runner.is_alive():
            platform.group.check_alive()
            runner.join(1.0)
        load_seconds = time.monotonic() - began
        end = probes.resident_memory(platform.group)
        at_stop = probes.backlog(platform)
        stopped = time.monotonic()
        drained_after = None
        while time.monotonic() - stopped <= report.DRAIN_LIMIT_SECONDS:
            if probes.backlog(platform).empty:
                drained_after = round(time.monotonic() - stopped, 1)
                break
            time.sleep(0.5)
        return report.build(
            {"seconds": settings.soak_seconds, "rate": settings.soak_rate, "concurrency": settings.soak_concurrency,
             "warmup_seconds": settings.soak_warmup_seconds},
            recorder, load_seconds, at_stop, drained_after, warm, end, load.scan_statuses())
    finally:
        stop.set()
        runner.join()
        load.close()


def _forget_namespace(redis_url: str, namespace: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        for key in client.scan_iter(match=f"{namespace}*", count=1000):
            client.delete(key)
    finally:
        client.close()


def main() -> int:
    try:
        settings = DevSettings()
    except ValidationError as exc:
        print(f"configuration error: {exc.errors()[0]['msg']}", file=sys.stderr)
        return 2
    # SIGTERM ends the run like Ctrl-C: the platform stops and its database is dropped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    resolved = infra.resolve(SOAK_DIR, settings=settings)
    run_id = uuid.uuid4().hex[:8]
    database_url = resolved.server_url(f"feeds_soak_{run_id}")
    namespace = f"soak-{run_id}"
    infra.ensure_database(database_url)
    shutil.rmtree(LOG_DIR, ignore_errors=True)
    group = ProcessGroup(log_dir=LOG_DIR, env={"DATABASE_URL": database_url, "REDIS_URL": resolved.redis_url,
                                               "REDIS_NAMESPACE": namespace, "PYTHONUNBUFFERED": "1"})
    host_key = {"tenant_id": str(uuid.uuid4()), "key_id": "soak", "secret": uuid.uuid4().hex}
    jwt_secret = uuid.uuid4().hex
    # Metrics on for every process, as `make run` has them: the relays' report the backlogs.
    platform = Platform(group, ports=Ports.free(metrics=True), extra_env={
        "gateway": {"TIMELINE_HOST_KEYS": json.dumps([host_key]), "GATEWAY_JWT_SECRET": jwt_secret}})
    try:
        platform.start()
        print(f"soak: platform up (logs in {LOG_DIR}); {settings.soak_rate:g} operations/s for "
              f"{settings.soak_seconds:g} s…", flush=True)
        result = soak(platform, settings, host_key, jwt_secret)
    except (RuntimeError, TimeoutError) as exc:
        print(f"platform failed: {exc}", file=sys.stderr)
        return 1
    finally:
        group.stop()
        infra.drop_database(database_url)
        _forget_namespace(resolved.redis_url, namespace)
    print(report.table(result), flush=True)
    if settings.soak_report is not None:
        settings.soak_report.write_text(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    return 0 if result.passed else 1


if __name__ == "__main__":
    sys.exit(main())
