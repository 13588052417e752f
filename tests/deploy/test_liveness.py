"""The liveness probes against real processes. Worker and relay (`python -m feeds_runtime.heartbeat`):
passes for a live worker and a turning relay, fails for a worker whose actor hangs beyond its time
limit or that has stopped. gRPC server: the `liveness` health name stays SERVING while the database
is unreachable, when readiness does not."""

from __future__ import annotations

import os
import signal
import sys

import dramatiq
from dramatiq.brokers.redis import RedisBroker

from devstack.infra import free_port
from devstack.processes import grpc_serving, python_module, wait_for
from tests.deploy.support import REPO, run


def probe(folder, max_age: float) -> bool:
    return run([sys.executable, "-m", "feeds_runtime.heartbeat", str(folder), "--max-age", str(max_age)]).returncode == 0


def test_probe_fails_on_an_empty_folder(tmp_path):
    completed = run([sys.executable, "-m", "feeds_runtime.heartbeat", str(tmp_path), "--max-age", "30"])
    assert completed.returncode == 1
    assert "no heartbeat" in completed.stderr


def test_probe_catches_a_worker_whose_actor_hangs_past_its_time_limit(tmp_path, processes, redis_url, redis_namespace):
    # Given a worker with the heartbeat middleware, idle for longer than the probe's max age
    folder = tmp_path / "heartbeat"
    worker = processes.start(
        "hanging-worker",
        python_module("dramatiq", "tests.deploy.hanging_worker", "--processes", "1", "--threads", "1"),
        env={"HEARTBEAT_DIR": str(folder), "PYTHONPATH": str(REPO)},
    )
    try:
        wait_for(lambda: probe(folder, 2), "the worker's first heartbeat", processes, timeout=60)
        assert [p.name.split("-")[0] for p in folder.iterdir()] == ["worker"]
        # When an actor blocks in C code beyond its 0.5 s time limit (plus 0.5 s grace)
        sender = RedisBroker(url=redis_url, namespace=redis_namespace)
        sender.enqueue(dramatiq.Message(queue_name="liveness.hang", actor_name="block_forever", args=(), kwargs={},
                                        options={}))
        # Then the heartbeat stops and the probe fails, though the process is still running
        wait_for(lambda: not probe(folder, 2), "the probe to fail", timeout=30)
        assert worker.popen.poll() is None
    finally:
        # A blocked thread never finishes, so the graceful stop would only wait: kill this worker.
        os.killpg(worker.popen.pid, signal.SIGKILL)


def test_service_worker_and_relay_beat_while_alive(tmp_path, processes, platform_env):
    # Given the timeline service migrated, its worker and its relay, each with a heartbeat folder
    processes.run("migrate", python_module("timeline", "migrate"))
    worker_folder, relay_folder = tmp_path / "worker", tmp_path / "relay"
    worker = processes.start("worker", python_module("timeline", "worker"),
                             env={"TIMELINE_HEARTBEAT_DIR": str(worker_folder), "TIMELINE_WORKER_THREADS": "1"})
    processes.start("relay", python_module("timeline", "relay"), env={"TIMELINE_HEARTBEAT_DIR": str(relay_folder)})
    # Then both probes pass
    wait_for(lambda: probe(worker_folder, 10), "the worker's heartbeat", processes, timeout=60)
    wait_for(lambda: probe(relay_folder, 10), "the relay's heartbeat", processes, timeout=60)
    # When the worker stops gracefully
    worker.popen.send_signal(signal.SIGTERM)
    worker.popen.wait(30)
    # Then its heartbeat is gone and its probe fails
    assert not list(worker_folder.iterdir())
    assert not probe(worker_folder, 10)


def test_server_stays_live_but_not_ready_while_its_database_is_unreachable(processes):
    # Given a timeline server whose database cannot be reached
    port = free_port()
    processes.start("server", python_module("timeline", "server"), env={
        "TIMELINE_GRPC_PORT": str(port), "DATABASE_URL": f"postgresql://feeds@127.0.0.1:{free_port()}/feeds"})
    address = f"127.0.0.1:{port}"
    # Then the liveness probe's health name says SERVING and the readiness one does not
    wait_for(lambda: grpc_serving(address, "liveness"), "the server's liveness", processes, timeout=60)
    assert not grpc_serving(address, "")
