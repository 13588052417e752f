"""The monitoring component: every process is scraped on its named `metrics` port, the alerts and
the dashboard are valid PromQL (promtool) and query only series the code exports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
import yaml
from prometheus_client import REGISTRY

import scout.metrics  # noqa: F401  (registers the service's series)
import timeline.metrics  # noqa: F401
from feeds_runtime.observability import backlog
from tests.deploy.support import KUSTOMIZATIONS, config_env, pod_specs, project_image
from tests.deploy.test_manifests import allowed, matches, service_of

MONITORED = "overlays/production"
ALERTS = {"TimelineFanoutLagHigh", "OutboxBacklogStale", "QueueBacklogStale", "GatewayServerErrorRate",
          "ScoutSourceFailureRate", "FeedsMetricsTargetDown"}
# Dramatiq's Prometheus middleware names its own series; the platform end-to-end test scrapes them.
DRAMATIQ_SERIES = {"dramatiq_messages_total", "dramatiq_message_errors_total", "dramatiq_message_retries_total",
                   "dramatiq_message_rejects_total", "dramatiq_messages_inprogress",
                   "dramatiq_message_duration_milliseconds"}
METRIC = re.compile(r"\b((?:timeline|scout|feeds|grpc_server|http_requests?|dramatiq)_[a-z_]+|up)\b")
SUFFIXES = ("_bucket", "_count", "_sum", "_total", "_created")


def exported_series() -> set[str]:
    names = {family.name for family in REGISTRY.collect()} | set(backlog.SERIES) | DRAMATIQ_SERIES | {"up"}
    return names | {name + suffix for name in names for suffix in SUFFIXES}


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        pytest.fail("promtool not found: `make test` installs it (Debian package prometheus)")
    return found


def check_rules(tmp_path, groups: list[dict]) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump({"groups": groups}))
    result = subprocess.run([promtool(), "check", "rules", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def monitoring_objects(rendered) -> dict[str, dict]:
    return {item["kind"]: item for item in rendered[MONITORED]
            if item["apiVersion"].startswith("monitoring.coreos.com/") or item["metadata"]["name"] == "feeds-dashboard"}


@pytest.mark.parametrize("path", KUSTOMIZATIONS)
def test_every_process_serves_metrics_on_a_named_port_on_all_interfaces(rendered, path):
    objects = rendered[path]
    for workload, pod in pod_specs(objects):
        for container in pod["containers"]:
            if project_image(container["image"]) is None:
                continue
            where = f"{path}: {workload['metadata']['name']}"
            prefix = service_of(workload).upper()
            env = config_env(objects, pod, container)
            ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
            assert ports.get("metrics") == int(env[f"{prefix}_METRICS_PORT"]) > 0, where
            assert env[f"{prefix}_METRICS_HOST"] == "0.0.0.0", where


def test_the_pod_monitor_scrapes_every_workload_of_the_platform(rendered):
    monitor = monitoring_objects(rendered)["PodMonitor"]
    assert [e["port"] for e in monitor["spec"]["podMetricsEndpoints"]] == ["metrics"]
    assert monitor["spec"]["podMetricsEndpoints"][0]["path"] == "/metrics"
    workloads = [w for w, pod in pod_specs(rendered[MONITORED])
                 if any(project_image(c["image"]) for c in pod["containers"])]
    assert len(workloads) == 10  # three processes per service and the gateway
    for workload in workloads:
        assert matches(monitor["spec"]["selector"], workload["spec"]["template"]["metadata"]["labels"])


def test_alerts_are_valid_promql_on_exported_series(rendered, tmp_path):
    rule = monitoring_objects(rendered)["PrometheusRule"]
    groups = rule["spec"]["groups"]
    check_rules(tmp_path, groups)
    alerts = {r["alert"]: r for group in groups for r in group["rules"]}
    assert set(alerts) == ALERTS
    known = exported_series()
    for name, alert in alerts.items():
        used = set(METRIC.findall(alert["expr"]))
        assert used and used <= known, (name, used - known)
        assert alert["labels"]["severity"] in ("warning", "critical")
        assert alert["annotations"]["summary"]


def test_the_dashboard_charts_exported_series_with_valid_promql(rendered, tmp_path):
    config_map = monitoring_objects(rendered)["ConfigMap"]
    assert config_map["metadata"]["labels"]["grafana_dashboard"] == "1"
    dashboard = json.loads(config_map["data"]["feeds.json"])
    expressions = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    check_rules(tmp_path, [{"name": "dashboard", "rules": [
        {"record": f"dashboard:panel_{n}", "expr": expr} for n, expr in enumerate(expressions)]}])
    known = exported_series()
    charted = set()
    for expr in expressions:
        used = set(METRIC.findall(expr))
        assert used and used <= known, (expr, used - known)
        charted |= {re.sub(r"_(bucket|total)$", "", name) for name in used}
    for series in ("timeline_fanout_lag_seconds", *backlog.SERIES, "http_requests", "grpc_server_handled",
                   "scout_source_requests", "feeds_db_pool_waiting"):
        assert series in charted, series


def test_prometheus_in_the_monitoring_namespace_reaches_only_metrics_ports(rendered):
    objects = rendered[MONITORED]
    policies = [item for item in objects if item["kind"] == "NetworkPolicy"]
    prometheus = ({"app.kubernetes.io/name": "prometheus"}, {"kubernetes.io/metadata.name": "monitoring"})
    elsewhere = ({"app": "anything"}, {"kubernetes.io/metadata.name": "other"})
    for workload, _ in pod_specs(objects):
        pod = (workload["spec"]["template"]["metadata"]["labels"], None)
        assert allowed(policies, prometheus, pod, 9464, "metrics"), workload["metadata"]["name"]
        assert not allowed(policies, elsewhere, pod, 9464, "metrics"), workload["metadata"]["name"]
        assert not allowed(policies, prometheus, pod, 50051, "grpc"), workload["metadata"]["name"]
