"""The gRPC surface's lock, on the real timeline server and gateway (docs/architecture.md, "Service
calls"): mTLS only on the service's port, callers named by their client certificate and served for
the tenants granted to them (refusals with ErrorInfo, logged and counted), health alone on a
plaintext port, and certificates read again when their files change, on both sides of the call."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
import uuid
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from devstack.host_client import Host
from devstack.processes import ProcessGroup, http_ok
from devstack.tls import DEV_CA, TOOLS, DevCa
from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.errors import error_info
from feeds_runtime.tls import TlsFiles

from .conftest import TENANTS, TimelineStack, wait_until

GRANTED, OTHER = TENANTS[0]["tenant_id"], TENANTS[1]["tenant_id"]
# "reporting" may act for the first tenant only; "stranger" has a certificate of the CA but no grant.
CALLERS = {"gateway": "*", TOOLS: "*", "reporting": [GRANTED]}


def copy_certificate(files: TlsFiles, folder: Path) -> dict[str, str]:
    """The certificate's files copied into `folder` (so a test may replace them), as process variables."""
    folder.mkdir(parents=True, exist_ok=True)
    for source, name in ((files.cert, "tls.crt"), (files.key, "tls.key"), (files.ca, "ca.crt")):
        shutil.copyfile(source, folder / name)
    return {"GRPC_TLS_CERT_FILE": str(folder / "tls.crt"), "GRPC_TLS_KEY_FILE": str(folder / "tls.key"),
            "GRPC_TLS_CA_FILE": str(folder / "ca.crt")}


def rotate(files: TlsFiles, folder: Path) -> None:
    """What a Secret volume does on renewal: the new files appear at once (each replaced atomically)."""
    for source, name in ((files.cert, "tls.crt"), (files.key, "tls.key"), (files.ca, "ca.crt")):
        shutil.copyfile(source, folder / f".{name}.next")
        (folder / f".{name}.next").replace(folder / name)


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("grpc-security")


@pytest.fixture(scope="module")
def stack(root, platform_env):
    group = ProcessGroup(log_dir=root / "logs", env=platform_env)
    stack = TimelineStack(group, {"TIMELINE_GRPC_CALLERS": json.dumps(CALLERS),
                                  **copy_certificate(DEV_CA.issue("timeline"), root / "timeline-tls")}, metrics=True)
    stack.platform.extra_env["gateway"].update(copy_certificate(DEV_CA.issue("gateway"), root / "gateway-tls"))
    stack.start(kinds=("server",))
    stack.start_gateway()
    yield stack
    group.stop()


def home(channel: grpc.Channel, tenant: str) -> pb.GetHomeTimelineResponse:
    return timeline_pb2_grpc.TimelineServiceStub(channel).GetHomeTimeline(
        pb.GetHomeTimelineRequest(), metadata=[("x-tenant-id", tenant), ("x-actor-id", str(uuid.uuid4()))], timeout=5)


def refused(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as raised:
        call()
    return raised.value


def refusals(stack: TimelineStack) -> dict[tuple[str, str], float]:
    """feeds_grpc_refused_total of the timeline server, by (reason, caller)."""
    url = stack.platform.metrics_url("timeline-server")
    assert url is not None
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    counts = {}
    for line in text.splitlines():
        if line.startswith("feeds_grpc_refused_total{"):
            labels = dict(part.split("=", 1) for part in line[line.index("{") + 1:line.index("}")].split(","))
            counts[(labels["reason"].strip('"'), labels["caller"].strip('"'))] = float(line.rsplit(" ", 1)[1])
    return counts


def test_plaintext_and_callers_without_a_certificate_of_the_ca_are_refused_at_the_handshake(stack, tmp_path):
    address = stack.address
    with grpc.insecure_channel(address) as plaintext:
        assert refused(lambda: home(plaintext, GRANTED)).code() == grpc.StatusCode.UNAVAILABLE
    ca = Path(DEV_CA.ca_file).read_bytes()
    with grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=ca)) as anonymous:
        assert refused(lambda: home(anonymous, GRANTED)).code() == grpc.StatusCode.UNAVAILABLE
    with DevCa(tmp_path / "another-ca").channel(address) as foreign:
        assert refused(lambda: home(foreign, GRANTED)).code() == grpc.StatusCode.UNAVAILABLE
    with DEV_CA.channel(address) as tools:
        assert home(tools, GRANTED).items == []


def test_a_caller_is_served_for_the_tenants_granted_to_it_and_refusals_are_logged_and_counted(stack):
    with DEV_CA.channel(stack.address, "reporting") as reporting:
        assert home(reporting, GRANTED).items == []
        other = refused(lambda: home(reporting, OTHER))
    assert other.code() == grpc.StatusCode.PERMISSION_DENIED
    assert error_info(other).reason == "tenant_not_granted" and OTHER in other.details()
    with DEV_CA.channel(stack.address, "stranger") as stranger:
        unknown = refused(lambda: home(stranger, GRANTED))
    assert unknown.code() == grpc.StatusCode.PERMISSION_DENIED and error_info(unknown).reason == "caller_not_allowed"
    counts = refusals(stack)
    assert counts[("tenant_not_granted", "reporting")] >= 1 and counts[("caller_not_allowed", "stranger")] >= 1
    log = stack.process("server").log_path.read_text()
    assert '"reason": "tenant_not_granted"' in log and '"caller": "stranger"' in log


def test_health_alone_is_answered_in_plaintext_on_its_own_port(stack):
    with grpc.insecure_channel(f"127.0.0.1:{stack.platform.ports.health['timeline']}") as channel:
        health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        assert refused(lambda: home(channel, GRANTED)).code() == grpc.StatusCode.UNIMPLEMENTED


def host_home(stack: TimelineStack) -> int:
    host = Host(stack.platform.gateway_url, TENANTS[0])
    try:
        return host.request("GET", "/api/v1/timeline/home", viewer=uuid.uuid4()).status_code
    finally:
        host.close()


def test_the_gateway_presents_a_renewed_certificate_without_a_restart(stack, root):
    folder = root / "gateway-tls"
    assert host_home(stack) == 200
    # Renewed as another identity, one timeline does not serve: the gateway's next calls carry it.
    rotate(DEV_CA.issue("gateway-renewed"), folder)
    wait_until(lambda: host_home(stack) == 500, "the gateway calling with its renewed certificate", 30, stack.group)
    assert refusals(stack)[("caller_not_allowed", "gateway-renewed")] >= 1
    rotate(DEV_CA.issue("gateway"), folder)
    wait_until(lambda: host_home(stack) == 200, "the gateway calling as itself again", 30, stack.group)


def test_the_server_takes_a_rotated_certificate_at_the_next_handshake(stack, root, tmp_path):
    renewed_ca = DevCa(tmp_path / "renewed-ca")
    rotate(renewed_ca.issue("timeline"), root / "timeline-tls")

    def served_by_renewed_ca() -> bool:
        with renewed_ca.channel(stack.address) as channel:
            try:
                return home(channel, GRANTED).items == []
            except grpc.RpcError:
                return False

    started = time.monotonic()
    wait_until(served_by_renewed_ca, "the server's renewed certificate", 30, stack.group)
    # Callers of the former CA are now strangers to it; the process never restarted.
    with DEV_CA.channel(stack.address) as former:
        assert refused(lambda: home(former, GRANTED)).code() == grpc.StatusCode.UNAVAILABLE
    assert stack.process("server").popen.poll() is None and time.monotonic() - started < 30
    assert http_ok(f"{stack.platform.gateway_url}/healthz")
