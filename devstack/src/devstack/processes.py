"""Start, watch and stop the platform's processes (for `make run`, end-to-end tests, benchmarks)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from devstack.tls import DEV_CA


@dataclass
class Process:
    name: str
    popen: subprocess.Popen
    log_path: Path | None

    def log_tail(self, lines: int = 40) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


class ProcessGroup:
    def __init__(self, log_dir: Path | None = None, env: dict[str, str] | None = None) -> None:
        self.log_dir = log_dir
        self.env = {**os.environ, **(env or {})}
        self.processes: list[Process] = []

    def start(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> Process:
        log_path = None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            log_path = self.log_dir / f"{name}.log"
            output = open(log_path, "ab")
        else:
            output = None
        popen = subprocess.Popen(
            argv,
            env={**self.env, **(env or {})},
            stdout=output,
            stderr=subprocess.STDOUT if output else None,
            start_new_session=True,  # Ctrl-C reaches the orchestrator, which stops children in order
        )
        process = Process(name, popen, log_path)
        self.processes.append(process)
        return process

    def run(self, name: str, argv: list[str], env: dict[str, str] | None = None, timeout: float = 120) -> None:
        """Run a one-shot command (a migration) to completion, failing loudly."""
        process = self.start(name, argv, env)
        code = process.popen.wait(timeout)
        self.processes.remove(process)
        if code != 0:
            raise RuntimeError(f"{name} exited with {code}\n{process.log_tail()}")

    def check_alive(self) -> None:
        for process in self.processes:
            if process.popen.poll() is not None:
                raise RuntimeError(f"{process.name} exited with {process.popen.returncode}\n{process.log_tail()}")

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM each process's whole group (a Dramatiq worker's children too, even when a test
        killed the parent), then SIGKILL what is still there after `timeout`."""
        for process in reversed(self.processes):
            _signal_group(process.popen, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in reversed(self.processes):
            try:
                process.popen.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(process.popen, signal.SIGKILL)
            process.popen.wait()
        self.processes.clear()


def _signal_group(popen: subprocess.Popen, signum: int) -> None:
    # Every process starts a session of its own, so its process group id is its pid.
    try:
        os.killpg(popen.pid, signum)
    except ProcessLookupError:
        pass


def grpc_serving(address: str, service: str = "", timeout: float = 1.0) -> bool:
    """The health of a service of the dev CA, asked over mTLS as the dev tools."""
    try:
        with DEV_CA.channel(address) as channel:
            response = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
            return response.status == health_pb2.HealthCheckResponse.SERVING
    except grpc.RpcError:
        return False


def http_ok(url: str, timeout: float = 1.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200
    except OSError:
        return False


def wait_for(check, what: str, group: ProcessGroup | None = None, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if group is not None:
            group.check_alive()
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.1)


def python_module(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]
