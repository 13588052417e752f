"""Liveness of the worker and relay processes, for a Kubernetes exec probe.

A hung worker keeps its process alive: an actor blocked in C code (a socket read without a timeout)
never sees Dramatiq's time limit, and a consumer or worker thread that died leaves the process idle
for good. So each process touches its own file in a heartbeat folder only while it is healthy:

- a worker process (`WorkerHeartbeat` middleware) every few seconds while all its consumer and
  worker threads are alive and no message has run longer than its own time limit plus a grace;
- the relay (`Heartbeat.beat` on every loop turn) as long as its loop turns.

The probe, `python -m feeds_runtime.heartbeat DIR --max-age SECONDS`, fails when the folder holds no
heartbeat of a running process or any such heartbeat is older than SECONDS.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import dramatiq
from dramatiq.middleware import Middleware, TimeLimit


class Heartbeat:
    """One process's heartbeat file, `<dir>/<role>-<pid>`."""

    def __init__(self, directory: str | Path, role: str) -> None:
        self.path = Path(directory) / f"{role}-{os.getpid()}"

    def beat(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.touch()

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


class WorkerHeartbeat(Middleware):
    """Beats for a Dramatiq worker process while none of its threads died or hangs."""

    def __init__(self, directory: str | Path, *, interval: float = 5.0, grace: float = 30.0) -> None:
        self._directory = directory
        self._interval = interval
        self._grace = grace
        self._started: dict[str, tuple[float, float]] = {}  # message id -> (start, allowed seconds)
        self._stop = threading.Event()
        self._heartbeat: Heartbeat | None = None

    def before_process_message(self, broker: dramatiq.Broker, message: Any) -> None:
        self._started[message.message_id] = (time.monotonic(), self._allowed_seconds(broker, message))

    def after_process_message(self, broker: dramatiq.Broker, message: Any, *, result=None, exception=None) -> None:
        self._started.pop(message.message_id, None)

    after_skip_message = after_process_message

    def after_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        # Created here, in the forked worker process, so the file carries that process's pid.
        self._heartbeat = Heartbeat(self._directory, "worker")
        threading.Thread(target=self._run, args=(worker,), name="heartbeat", daemon=True).start()

    def before_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        self._stop.set()
        if self._heartbeat is not None:
            self._heartbeat.clear()

    def _allowed_seconds(self, broker: dramatiq.Broker, message: Any) -> float:
        default = next((m.time_limit for m in broker.middleware if isinstance(m, TimeLimit)), 600_000)
        try:
            actor_limit = broker.get_actor(message.actor_name).options.get("time_limit")
        except dramatiq.ActorNotFound:
            actor_limit = None
        limit_ms = message.options.get("time_limit") or actor_limit or default
        return limit_ms / 1000 + self._grace

    def healthy(self, worker: dramatiq.Worker) -> bool:
        threads = [*worker.consumers.values(), *worker.workers]
        if not threads or not all(thread.is_alive() for thread in threads):
            return False
        now = time.monotonic()
        return all(now - start <= allowed for start, allowed in list(self._started.values()))

    def _run(self, worker: dramatiq.Worker) -> None:
        heartbeat = self._heartbeat
        assert heartbeat is not None, "started by after_worker_boot"
        while not self._stop.is_set():
            if self.healthy(worker):
                heartbeat.beat()
            self._stop.wait(self._interval)


def check(directory: Path, max_age: float) -> str | None:
    """Why the processes writing to `directory` are not live, or None when they are."""
    beats = sorted(directory.glob("*-[0-9]*")) if directory.is_dir() else []
    now = time.time()
    live = [beat for beat in beats if _alive(beat.name.rpartition("-")[2])]
    if not live:
        return f"no heartbeat of a running process in {directory}"
    for beat in live:
        try:
            age = now - beat.stat().st_mtime
        except FileNotFoundError:  # the process shut down cleanly meanwhile
            continue
        if age > max_age:
            return f"{beat.name}: last heartbeat {age:.0f}s ago (limit {max_age:.0f}s)"
    return None


def _alive(pid: str) -> bool:
    """Whether `pid` runs here; a file left by a container that restarted names a pid that is gone."""
    if not pid.isdigit() or int(pid) == 0:
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # runs, as another user
        pass
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m feeds_runtime.heartbeat", description="Liveness probe of worker and relay processes."
    )
    parser.add_argument("directory", type=Path, help="the processes' heartbeat folder")
    parser.add_argument("--max-age", type=float, default=60.0, help="seconds a heartbeat may be old")
    args = parser.parse_args(argv)
    problem = check(args.directory, args.max_age)
    if problem:
        print(problem, file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
