"""The shared gRPC runtime: health follows readiness and drain, SIGTERM lets in-flight calls finish,
domain errors become statuses with ErrorInfo, bugs never leak, logs carry the request id."""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from devstack.infra import free_port
from devstack.processes import grpc_serving, python_module, wait_for
from devstack.tls import DEV_CA, TOOLS, callers_env
from feeds_runtime.errors import error_info

HERE = Path(__file__).parent
SERVICE = "probe.v1.Probe"


def call(channel: grpc.Channel, method: str, payload: bytes = b"", **kwargs):
    return channel.unary_unary(f"/{SERVICE}/{method}")(payload, **kwargs)


@pytest.fixture
def probe(processes, platform_env):
    port = free_port()
    env = {"PROBE_GRPC_PORT": str(port), "PROBE_GRPC_HEALTH_PORT": "0", "PROBE_DRAIN_GRACE_SECONDS": "5",
           "PYTHONPATH": str(HERE), **callers_env(("probe",), TOOLS)}
    process = processes.start("probe", [sys.executable, str(HERE / "probe_server.py")], env)
    address = f"127.0.0.1:{port}"
    wait_for(lambda: grpc_serving(address), "probe SERVING", processes, timeout=30)
    return process, address


def test_sigterm_lets_an_in_flight_call_finish(probe):
    process, address = probe
    with DEV_CA.channel(address) as channel:
        watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=SERVICE))
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        result: dict = {}
        slow = threading.Thread(target=lambda: result.setdefault("reply", call(channel, "Slow", b"5000", timeout=20)))
        slow.start()
        wait_for(lambda: _logged(process, "slow call started"), "the slow call running", timeout=30)

        # When the pod is told to stop while the call is running
        process.popen.send_signal(signal.SIGTERM)

        # Then health turns NOT_SERVING, new calls are refused, and the running call completes
        assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        wait_for(lambda: _refused(channel), "new calls refused", timeout=10)
        assert slow.is_alive(), "the slow call ended before new calls were refused"
        slow.join(20)
        assert result["reply"] == b"done"
    assert process.popen.wait(10) == 0


def test_domain_error_becomes_status_with_error_info(probe):
    _, address = probe
    with DEV_CA.channel(address) as channel:
        with pytest.raises(grpc.RpcError) as failed:
            call(channel, "Fail", metadata=[("x-request-id", "req-fail-1")])
    assert failed.value.code() == grpc.StatusCode.NOT_FOUND
    info = error_info(failed.value)
    assert info.reason == "probe_not_found" and info.metadata["probe_id"] == "p-1"


def test_unexpected_error_is_internal_without_details(probe):
    _, address = probe
    with DEV_CA.channel(address) as channel:
        with pytest.raises(grpc.RpcError) as failed:
            call(channel, "Crash")
    assert failed.value.code() == grpc.StatusCode.INTERNAL
    assert "secret" not in failed.value.details()


def test_identity_metadata_reaches_the_handler_and_the_logs(probe, processes):
    process, address = probe
    with DEV_CA.channel(address) as channel:
        reply = call(channel, "WhoAmI", metadata=[("x-actor-id", "a-1"), ("x-tenant-id", "t-1"), ("x-request-id", "r-42")])
        assert reply == b"a-1|t-1|r-42"
        with pytest.raises(grpc.RpcError):
            call(channel, "Fail", metadata=[("x-request-id", "r-43")])
    wait_for(lambda: _logged(process, "failing on purpose"), "the handler's log line", timeout=30)
    records = [json.loads(line) for line in process.log_path.read_text().splitlines() if line.startswith("{")]
    assert any(r["message"] == "failing on purpose" and r["request_id"] == "r-43" for r in records)
    assert any(r["message"] == "rpc" and r["request_id"] == "r-42" and r["method"].endswith("WhoAmI") for r in records)


def test_under_a_mesh_the_caller_is_the_workload_its_sidecar_names(processes):
    """GRPC_MESH_MTLS=true: no certificate of the service's own, plaintext from the local sidecar, and
    the caller read from the x-forwarded-client-cert the sidecar sets (Envoy's form)."""
    port = free_port()
    env = {"PROBE_GRPC_PORT": str(port), "PROBE_GRPC_HEALTH_PORT": "0", "PYTHONPATH": str(HERE),
           "FEEDS_ENV": "production", "GRPC_MESH_MTLS": "true", "GRPC_TLS_CERT_FILE": "", "GRPC_TLS_KEY_FILE": "",
           "GRPC_TLS_CA_FILE": "", "PROBE_GRPC_CALLERS": json.dumps({"gateway": "*", "reporting": ["t-1"]})}
    processes.start("probe", [sys.executable, str(HERE / "probe_server.py")], env)
    address = f"127.0.0.1:{port}"

    def forwarded(workload: str) -> list[tuple[str, str]]:
        return [("x-forwarded-client-cert", f'By=spiffe://cluster.local/ns/feeds/sa/probe;Hash=ab12;Subject="";'
                                            f'URI=spiffe://cluster.local/ns/feeds/sa/{workload}'),
                ("x-tenant-id", "t-1")]

    with grpc.insecure_channel(address) as channel:
        wait_for(lambda: _answers(channel, forwarded("gateway")), "probe serving the mesh's gateway", processes, 30)
        assert call(channel, "WhoAmI", metadata=forwarded("reporting"), timeout=5).startswith(b"None|t-1|")
        for metadata, code, reason in ((forwarded("stranger"), grpc.StatusCode.PERMISSION_DENIED, "caller_not_allowed"),
                                       ([("x-tenant-id", "t-1")], grpc.StatusCode.UNAUTHENTICATED, "unauthenticated")):
            with pytest.raises(grpc.RpcError) as failed:
                call(channel, "WhoAmI", metadata=metadata, timeout=5)
            assert failed.value.code() == code and error_info(failed.value).reason == reason


def _answers(channel: grpc.Channel, metadata: list[tuple[str, str]]) -> bool:
    try:
        return call(channel, "WhoAmI", metadata=metadata, timeout=1).startswith(b"None|")
    except grpc.RpcError:
        return False


def test_health_is_not_serving_until_migrated(processes, fresh_database_url):
    # Given a service started against a database that has no schema yet
    port = free_port()
    env = {"TIMELINE_GRPC_PORT": str(port), "DATABASE_URL": fresh_database_url}
    processes.start("timeline-server", python_module("timeline", "server"), env)
    address = f"127.0.0.1:{port}"

    def status() -> int | None:
        try:
            with DEV_CA.channel(address) as channel:
                return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1).status
        except grpc.RpcError:
            return None

    wait_for(lambda: status() is not None, "timeline listening", processes, timeout=30)
    time.sleep(1.0)
    assert status() == health_pb2.HealthCheckResponse.NOT_SERVING

    # When its migrations run
    processes.run("timeline-migrate", python_module("timeline", "migrate"), env)

    # Then it reports SERVING
    wait_for(lambda: status() == health_pb2.HealthCheckResponse.SERVING, "SERVING after migrate", processes, timeout=30)


def test_concurrent_migrations_apply_once(processes, fresh_database_url):
    # Two pods migrating the same empty database at once both succeed: the advisory lock serialises them
    env = {"DATABASE_URL": fresh_database_url}
    pods = [processes.start(f"migrate-{i}", python_module("timeline", "migrate"), env) for i in range(2)]
    assert [pod.popen.wait(120) for pod in pods] == [0, 0]


def test_bad_setting_stops_with_one_clear_line(tmp_path):
    import subprocess

    result = subprocess.run(
        python_module("timeline", "server"),
        env={"DATABASE_URL": "mysql://nope", "REDIS_URL": "redis://127.0.0.1:1/0", "TIMELINE_GRPC_PORT": "not-a-port",
             "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("configuration error:")
    assert "configuration error: DATABASE_URL:" in lines[0] and "TIMELINE_GRPC_PORT:" in lines[0]
    assert "Traceback" not in result.stderr


def test_missing_setting_is_named_by_its_variable():
    import subprocess

    result = subprocess.run(python_module("news", "server"), env={"PATH": "/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    # Production by default: the missing secret is named beside the missing URLs, on the same line.
    assert result.stderr.strip() == (
        "configuration error: REDIS_URL: required: redis://host:port/db (rediss:// for TLS), or REDIS_SENTINELS and "
        "REDIS_SENTINEL_MASTER for a Sentinel set; DATABASE_URL: Field required; "
        "NEWS_CURSOR_SECRET: required outside FEEDS_ENV=dev, e.g. `openssl rand -hex 32`")


def test_reflection_lists_the_services(probe):
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

    _, address = probe
    with DEV_CA.channel(address) as channel:
        services = set(ProtoReflectionDescriptorDatabase(channel).get_services())
    assert {SERVICE, "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= services


def _logged(process, message: str) -> bool:
    return any(json.loads(line).get("message") == message
               for line in process.log_path.read_text().splitlines() if line.startswith("{"))


# How gRPC turns a new call away once the server is shutting down: UNAVAILABLE, or CANCELLED when
# the call reached the server as it stopped accepting; the gateway answers both as a 503 to retry.
REFUSED = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)


def _refused(channel) -> bool:
    """A new call is turned away as the server drains (any other failure is a failure). A call
    that has no answer within its deadline, as on a loaded machine, is asked again."""
    try:
        call(channel, "Slow", b"0", timeout=2)
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
            return False
        assert error.code() in REFUSED, error.code()
        return True
    return False
