"""What the platform team applies: every base and overlay renders, validates against the Kubernetes
schemas, and runs each process the way the images and the runtime expect."""

from __future__ import annotations

import functools
import json
import re

import kubernetes_validate
import pytest

from devstack.configuration import settings_classes
from tests.deploy.dockerfiles import entrypoint
from tests.deploy.support import (
    BASES,
    KUSTOMIZATIONS,
    SERVICES,
    config_env,
    console_scripts,
    image_name,
    pod_specs,
    project_image,
    run,
    venv_script,
)

# The oldest Kubernetes minor the manifests support, and the newest schemas the validator ships.
KUBERNETES_VERSIONS = ["1.30.0", kubernetes_validate.latest_version()]


def containers(pod: dict) -> list[tuple[dict, bool]]:
    """(container, is_init) for every container of a pod."""
    return [(c, True) for c in pod.get("initContainers", [])] + [(c, False) for c in pod["containers"]]


def service_of(workload: dict) -> str:
    return workload["metadata"]["labels"]["app.kubernetes.io/name"]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_every_rendered_object_validates_against_the_kubernetes_schemas(rendered, path, version):
    objects = rendered[path]
    assert objects, f"{path} renders nothing"
    for item in objects:
        if item["apiVersion"].startswith("monitoring.coreos.com/"):
            continue  # the Prometheus Operator's kinds, checked in test_monitoring
        if item["apiVersion"].startswith("cert-manager.io/"):
            continue  # cert-manager's kinds, checked in test_grpc_certificates_of_the_dev_overlay
        try:
            kubernetes_validate.validate(item, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            pytest.fail(f"{path}: {item['kind']}/{item['metadata']['name']} invalid for {version}: {error.message}")


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_every_container_has_probes_limits_and_runs_unprivileged(rendered, path):
    for workload, pod in pod_specs(rendered[path]):
        name = f"{path}: {workload['metadata']['name']}"
        assert pod["securityContext"].get("runAsNonRoot") is True, name
        assert pod["securityContext"].get("seccompProfile", {}).get("type") == "RuntimeDefault", name
        assert pod.get("automountServiceAccountToken") is False, name
        for container, is_init in containers(pod):
            where = f"{name}/{container['name']}"
            resources = container.get("resources", {})
            for kind in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(resources.get(kind, {})), f"{where}: {kind} for cpu and memory"
            security = container.get("securityContext", {})
            assert security.get("runAsNonRoot") is True, where
            assert security.get("allowPrivilegeEscalation") is False, where
            assert security.get("readOnlyRootFilesystem") is True, where
            assert security.get("capabilities", {}).get("drop") == ["ALL"], where
            if not is_init:  # Kubernetes allows no probes on init containers
                for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                    assert probe in container, f"{where}: no {probe}"


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_every_process_kind_in_the_manifests_exists_in_its_image(rendered, path):
    """The entry point of the image, run locally with --help, lists the kind each container asks for."""
    for workload, pod in pod_specs(rendered[path]):
        for container, _ in containers(pod):
            image = project_image(container["image"])
            if image is None:
                continue  # development PostgreSQL and Redis
            assert "command" not in container, "the image's entry point is the command; manifests pass the kind"
            script = entrypoint(image)[0]
            assert script in console_scripts(), f"{image}: {script} is no console script of the project"
            args = container.get("args", [])
            assert args and args[0] in process_kinds(script), (
                f"{path}: {workload['metadata']['name']}/{container['name']} runs {args} but {script} has "
                f"{sorted(process_kinds(script))}"
            )


@functools.cache
def process_kinds(script: str) -> frozenset[str]:
    """The process kinds an entry point accepts, as its --help lists them."""
    help_text = run([venv_script(script), "--help"]).stdout
    choices = re.search(r"\{([a-z,]+)\}", help_text)
    assert choices, f"{script} --help lists no process kinds:\n{help_text}"
    return frozenset(choices.group(1).split(","))


@pytest.mark.parametrize("service", SERVICES)
def test_a_service_base_runs_every_process_kind_and_migrates_before_each(rendered, service):
    workloads = {w["metadata"]["name"]: pod for w, pod in pod_specs(rendered[f"base/{service}"])}
    assert set(workloads) == {f"{service}-server", f"{service}-worker", f"{service}-relay"}
    for name, pod in workloads.items():
        kind = name.rsplit("-", 1)[1]
        assert [c.get("args") for c in pod["containers"]] == [[kind]], name
        assert [c.get("args") for c in pod.get("initContainers", [])] == [["migrate"]], name


@pytest.mark.parametrize("path", BASES)
def test_each_base_deploys_alone(rendered, path):
    """Everything a base refers to is in the base, except its Secret (created per environment)."""
    objects = rendered[path]
    names = {(item["kind"], item["metadata"]["name"]) for item in objects}
    service = path.split("/")[1]
    for workload, pod in pod_specs(objects):
        assert ("ServiceAccount", pod["serviceAccountName"]) in names
        for container, _ in containers(pod):
            for source in container.get("envFrom", []):
                if "configMapRef" in source:
                    assert ("ConfigMap", source["configMapRef"]["name"]) in names
                else:
                    assert source["secretRef"]["name"] == f"{service}-secrets"
    for item in objects:
        if item["kind"] == "HorizontalPodAutoscaler":
            assert item["apiVersion"] == "autoscaling/v2"
            assert ("Deployment", item["spec"]["scaleTargetRef"]["name"]) in names
        if item["kind"] == "PodDisruptionBudget":
            assert item["apiVersion"] == "policy/v1"
            assert any(matches(item["spec"]["selector"], w["spec"]["template"]["metadata"]["labels"])
                       for w, _ in pod_specs(objects))
    kinds = {kind for kind, _ in names}
    assert {"Deployment", "Service", "ServiceAccount", "ConfigMap", "HorizontalPodAutoscaler",
            "PodDisruptionBudget"} <= kinds
    if service == "gateway":
        assert "Ingress" in kinds


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_services_expose_named_ports_of_ready_server_pods(rendered, path):
    objects = rendered[path]
    for service in (item for item in objects if item["kind"] == "Service"):
        pods = [pod for w, pod in pod_specs(objects)
                if matches({"matchLabels": service["spec"]["selector"]}, w["spec"]["template"]["metadata"]["labels"])]
        assert pods, f"{path}: Service {service['metadata']['name']} selects no pod"
        for port in service["spec"]["ports"]:
            for pod in pods:
                named = {p["name"]: p["containerPort"] for c in pod["containers"] for p in c.get("ports", [])}
                assert port["targetPort"] in named, f"{service['metadata']['name']}: no container port {port['targetPort']}"
        if service["metadata"]["name"] in SERVICES:
            assert [p["name"] for p in service["spec"]["ports"]] == ["grpc"]


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_grpc_servers_probe_health_and_outlast_their_drain(rendered, path):
    objects = rendered[path]
    servers = [(w, pod) for w, pod in pod_specs(objects)
               if w["metadata"]["name"] in {f"{s}-server" for s in SERVICES}]
    if path.startswith("base/") and path != "base/gateway":
        assert len(servers) == 1
    for workload, pod in servers:
        prefix = service_of(workload).upper()
        assert workload["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
        (container,) = pod["containers"]
        env = config_env(objects, pod, container)
        port, health = int(env[f"{prefix}_GRPC_PORT"]), int(env[f"{prefix}_GRPC_HEALTH_PORT"])
        assert env[f"{prefix}_GRPC_HOST"] == "0.0.0.0"
        assert {p["name"]: p["containerPort"] for p in container["ports"]} == {
            "grpc": port, "health": health, "metrics": int(env[f"{prefix}_METRICS_PORT"])}
        # Kubelet's gRPC probe speaks no TLS: it asks the plaintext health-only port.
        assert container["readinessProbe"]["grpc"] == {"port": health}  # the service's own health
        for probe in ("livenessProbe", "startupProbe"):
            assert container[probe]["grpc"] == {"port": health, "service": "liveness"}
        pre_stop = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
        drain = float(env[f"{prefix}_DRAIN_GRACE_SECONDS"])
        assert pod["terminationGracePeriodSeconds"] > pre_stop + drain


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_servers_and_the_gateway_read_their_grpc_certificate_from_its_secret(rendered, path):
    """mTLS: each gRPC server and the gateway mount the Secret `<name>-grpc-tls` (the whole folder, so
    the kubelet's updates reach the process) where the GRPC_TLS_* settings point; the services serve
    the gateway."""
    objects = rendered[path]
    for workload, pod in pod_specs(objects):
        name = workload["metadata"]["name"]
        if name not in {*(f"{s}-server" for s in SERVICES), "gateway"}:
            continue
        service = service_of(workload)
        (container,) = pod["containers"]
        env = config_env(objects, pod, container)
        volumes = {v["name"]: v for v in pod["volumes"]}
        (mount,) = [m for m in container["volumeMounts"] if volumes[m["name"]].get("secret")]
        assert volumes[mount["name"]]["secret"]["secretName"] == f"{service}-grpc-tls" and mount["readOnly"]
        assert "subPath" not in mount
        assert [env[f"GRPC_TLS_{part}_FILE"] for part in ("CERT", "KEY", "CA")] == [
            f"{mount['mountPath']}/{file}" for file in ("tls.crt", "tls.key", "ca.crt")]
        if service != "gateway":
            assert json.loads(env[f"{service.upper()}_GRPC_CALLERS"]) == {"gateway": "*"}


def test_grpc_certificates_of_the_dev_overlay(rendered):
    """cert-manager issues every certificate the pods mount, from the namespace's CA, named for the
    identity the services authorize and the Service the gateway dials."""
    objects = rendered["overlays/dev"]
    certificates = {c["spec"]["secretName"]: c["spec"] for c in objects if c["kind"] == "Certificate"}
    mounted = {v["secret"]["secretName"] for _, pod in pod_specs(objects) for v in pod.get("volumes", [])
               if "secret" in v}
    assert mounted == {f"{name}-grpc-tls" for name in (*SERVICES, "gateway")} <= set(certificates)
    for name in (*SERVICES, "gateway"):
        spec = certificates[f"{name}-grpc-tls"]
        assert spec["commonName"] == name and spec["issuerRef"] == {"kind": "Issuer", "name": "feeds-grpc-ca"}
        assert "client auth" in spec["usages"]
        if name != "gateway":
            assert spec["dnsNames"] == [name] and "server auth" in spec["usages"]
    assert certificates["feeds-grpc-ca"]["isCA"] is True


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_workers_and_relays_probe_the_heartbeat_folder_they_write(rendered, path):
    objects = rendered[path]
    for workload, pod in pod_specs(objects):
        if workload["metadata"]["name"].rsplit("-", 1)[-1] not in ("worker", "relay"):
            continue
        (container,) = pod["containers"]
        folder = config_env(objects, pod, container)[f"{service_of(workload).upper()}_HEARTBEAT_DIR"]
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            command = container[probe]["exec"]["command"]
            assert command[:4] == ["python", "-m", "feeds_runtime.heartbeat", folder]
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        volumes = {v["name"]: v for v in pod["volumes"]}
        mount = next(path for path in mounts if folder == path or folder.startswith(path.rstrip("/") + "/"))
        assert "emptyDir" in volumes[mounts[mount]], "the heartbeat folder is writable"
        if workload["metadata"]["name"].endswith("-worker"):
            assert workload["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_the_project_images_get_a_writable_tmp(rendered, path):
    for workload, pod in pod_specs(rendered[path]):
        volumes = {v["name"]: v for v in pod.get("volumes", [])}
        for container, _ in containers(pod):
            if project_image(container["image"]) is None:
                continue
            tmp = [m for m in container.get("volumeMounts", []) if m["mountPath"] == "/tmp"]
            assert tmp and "emptyDir" in volumes[tmp[0]["name"]], f"{workload['metadata']['name']}/{container['name']}"


def test_images_name_the_project_dockerfiles(rendered):
    images = {image_name(c["image"]) for objects in rendered.values() for _, pod in pod_specs(objects)
              for c, _ in containers(pod) if project_image(c["image"])}
    assert images == {*SERVICES, "gateway"}
    for name in images:
        assert entrypoint(name)[0] == f"feeds-{name}"


# Network policies: a small evaluator of the rendered policies for the paths the platform needs.

def matches(selector: dict, labels: dict) -> bool:
    if any(labels.get(key) != value for key, value in selector.get("matchLabels", {}).items()):
        return False
    for expression in selector.get("matchExpressions", []):
        present = expression["key"] in labels
        value = labels.get(expression["key"])
        operator = expression["operator"]
        if operator == "In" and value not in expression["values"]:
            return False
        if operator == "NotIn" and value in expression["values"]:
            return False
        if operator == "Exists" and not present:
            return False
        if operator == "DoesNotExist" and present:
            return False
    return True


def port_allowed(rule_ports: list[dict] | None, port: int, port_name: str | None) -> bool:
    if not rule_ports:
        return True
    return any(p.get("port") in (port, port_name) and p.get("protocol", "TCP") == "TCP" for p in rule_ports)


def peer_allowed(peers: list[dict] | None, labels: dict | None, namespace: dict | None) -> bool:
    """`labels` None is a destination outside the cluster's pods (a managed database)."""
    if not peers:
        return True
    for peer in peers:
        if "ipBlock" in peer:
            if labels is None:
                return True
            continue
        if labels is None:
            continue
        if "namespaceSelector" in peer:
            if namespace is None or not matches(peer["namespaceSelector"], namespace):
                continue
        elif namespace is not None:
            continue  # a podSelector alone means the policy's own namespace
        if "podSelector" not in peer or matches(peer["podSelector"], labels):
            return True
    return False


def allowed(policies, source, destination, port, port_name=None) -> bool:
    """Whether `source` (labels) may open a TCP connection to `destination` (labels, or None for
    outside the cluster) on `port`, both in the policies' namespace unless a namespace is given."""
    src_labels, src_ns = source
    dst_labels, dst_ns = destination
    if src_ns is None:  # the source is in the namespace: its egress rules apply
        egress = [p for p in policies if "Egress" in p["spec"]["policyTypes"] and matches(p["spec"]["podSelector"], src_labels)]
        if egress and not any(
            port_allowed(rule.get("ports"), port, port_name) and peer_allowed(rule.get("to"), dst_labels, dst_ns)
            for policy in egress for rule in policy["spec"].get("egress", [])
        ):
            return False
    if dst_labels is not None and dst_ns is None:
        ingress = [p for p in policies if "Ingress" in p["spec"]["policyTypes"] and matches(p["spec"]["podSelector"], dst_labels)]
        if ingress and not any(
            port_allowed(rule.get("ports"), port, port_name) and peer_allowed(rule.get("from"), src_labels, src_ns)
            for policy in ingress for rule in policy["spec"].get("ingress", [])
        ):
            return False
    return True


def test_network_policies_deny_by_default_and_open_only_the_platform_paths(rendered):
    objects = rendered["overlays/production"]
    policies = [item for item in objects if item["kind"] == "NetworkPolicy"]
    labels = {w["metadata"]["name"]: w["spec"]["template"]["metadata"]["labels"] for w, _ in pod_specs(objects)}
    ports = {"timeline": 50051, "news": 50052, "scout": 50053}
    gateway = (labels["gateway"], None)
    controller = ({"app.kubernetes.io/name": "ingress-nginx"}, {"kubernetes.io/metadata.name": "ingress-nginx"})
    elsewhere = ({"app": "anything"}, {"kubernetes.io/metadata.name": "other"})
    outside = (None, None)

    assert allowed(policies, controller, gateway, 8080, "http")
    assert not allowed(policies, elsewhere, gateway, 8080, "http")
    for service, port in ports.items():
        server = (labels[f"{service}-server"], None)
        assert allowed(policies, gateway, server, port, "grpc")
        assert not allowed(policies, elsewhere, server, port, "grpc")
        assert not allowed(policies, gateway, (labels[f"{service}-worker"], None), port, "grpc")
        for kind in ("server", "worker", "relay"):
            pod = (labels[f"{service}-{kind}"], None)
            assert allowed(policies, pod, outside, 5432)
            assert allowed(policies, pod, outside, 6379)
            assert not allowed(policies, pod, gateway, 8080, "http")
            assert not allowed(policies, pod, outside, 25)
            for other, other_port in ports.items():
                assert not allowed(policies, pod, (labels[f"{other}-server"], None), other_port, "grpc")
            assert allowed(policies, pod, outside, 443) == (service == "scout")
    assert not allowed(policies, gateway, outside, 5432)
    assert allowed(policies, gateway, outside, 6379)  # the rate limits' counts
    assert not allowed(policies, elsewhere, (labels["timeline-worker"], None), 1234)
    dns = ({"k8s-app": "kube-dns"}, {"kubernetes.io/metadata.name": "kube-system"})
    collector = ({"app": "otel-collector"}, {"kubernetes.io/metadata.name": "monitoring"})
    for name in labels:
        assert allowed(policies, (labels[name], None), dns, 53)
        assert allowed(policies, (labels[name], None), collector, 4318)
        assert allowed(policies, (labels[name], None), collector, 4317)
        assert not allowed(policies, (labels[name], None), elsewhere, 4318)


@pytest.mark.parametrize("path", ["base/scout", "overlays/production", "overlays/dev"])
def test_scout_runs_on_live_sources_except_in_the_dev_overlay(rendered, path, monkeypatch):
    """Every scout process gets settings that start: live sources (and production) outside the dev
    overlay, whose processes alone say FEEDS_ENV=dev and search the offline sample corpus."""
    from scout.settings import ScoutSettings

    objects = rendered[path]
    scout = [(w, p) for w, p in pod_specs(objects) if service_of(w) == "scout"]
    assert scout
    for workload, pod in scout:
        for container, _ in containers(pod):
            env = config_env(objects, pod, container)
            if path == "overlays/dev":
                assert env["FEEDS_ENV"] == "dev" and env["SCOUT_SOURCES"] == "dev"
                continue
            assert env.get("FEEDS_ENV", "production") == "production", workload["metadata"]["name"]
            assert set(env["SCOUT_SOURCES"].split(",")) == {"threads", "serp"}
            # The Secret's keys, as deploy/README.md lists them, complete what the ConfigMap holds.
            secrets = {"DATABASE_URL": "postgresql://scout@pg/feeds", "REDIS_URL": "redis://redis:6379/0",
                       "SCOUT_THREADS_ACCESS_TOKEN": "token", "SCOUT_SERP_API_KEY": "key"}
            monkeypatch.delenv("FEEDS_ENV", raising=False)
            for key, value in {**env, **secrets}.items():
                monkeypatch.setenv(key, value)
            assert ScoutSettings().source_names == env["SCOUT_SOURCES"].split(",")


# What deploy/README.md says each Secret holds besides DATABASE_URL and REDIS_URL, with random values.
PRODUCTION_SECRETS = {
    "timeline": {"TIMELINE_CURSOR_SECRET": "7f" * 32},
    "news": {"NEWS_CURSOR_SECRET": "3c" * 32},
    "gateway": {"TIMELINE_HOST_KEYS": json.dumps([{"tenant_id": "acme", "key_id": "acme-1", "secret": "a9" * 32}]),
                "REDIS_URL": "rediss://:password@redis:6380/0"},
}


@pytest.mark.parametrize("service", sorted(PRODUCTION_SECRETS))
def test_production_processes_start_with_the_secrets_deploy_readme_lists(rendered, service, monkeypatch):
    """Production refuses to start on a missing secret: the production overlay's ConfigMaps and the
    Secret's keys are all each process needs (the gateway verifies member tokens through the JWKS)."""
    settings_class = settings_classes()[service]
    objects = rendered["overlays/production"]
    pods = [pod for workload, pod in pod_specs(objects) if service_of(workload) == service]
    assert pods
    infra = {} if service == "gateway" else {"DATABASE_URL": "postgresql://app@pg/feeds", "REDIS_URL": "redis://redis:6379/0"}
    for pod in pods:
        for container, _ in containers(pod):
            env = config_env(objects, pod, container)
            assert env.get("FEEDS_ENV", "production") == "production"
            monkeypatch.delenv("FEEDS_ENV", raising=False)
            for key, value in {**env, **infra, **PRODUCTION_SECRETS[service]}.items():
                monkeypatch.setenv(key, value)
            assert not settings_class().is_dev
