"""Secure by default: a process told nothing runs as production, and production refuses to start on a
missing, shipped or short secret, with one line naming the variable (exit code 2), before it opens
any port or connection."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from devstack.configuration import settings_classes

# Where PostgreSQL and Redis would be: settings are checked before anything connects.
INFRA = {"DATABASE_URL": "postgresql://feeds@127.0.0.1:1/feeds", "REDIS_URL": "redis://127.0.0.1:1/0"}
GOOD = "0123456789abcdef" * 4


def run(module: str, kind: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """The process as a deployment would start it: no FEEDS_ENV, nothing but `env` configured."""
    base = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    return subprocess.run([sys.executable, "-m", module, kind], env={**base, **env}, capture_output=True,
                          text=True, timeout=60)


def refused_with(done: subprocess.CompletedProcess, variable: str) -> str:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("configuration error: ") and f"{variable}: " in lines[0], lines[0]
    assert "FEEDS_ENV" in lines[0]
    return lines[0]


@pytest.mark.parametrize("module,kind,variable", [
    *((service, kind, f"{service.upper()}_CURSOR_SECRET") for service in ("timeline", "news")
      for kind in ("server", "worker", "relay", "migrate")),
    ("scout", "server", "SCOUT_SOURCES"),
    ("scout", "worker", "SCOUT_SOURCES"),
    ("gateway", "server", "GATEWAY_JWT_SECRET"),
    ("gateway", "server", "TIMELINE_HOST_KEYS"),
    ("gateway", "server", "REDIS_URL"),
])
def test_every_process_refuses_to_start_without_its_secrets(module, kind, variable):
    refused_with(run(module, kind, {}), variable)
    # With PostgreSQL and Redis named, the missing secret is the one complaint left.
    if variable not in INFRA:
        refused_with(run(module, kind, INFRA), variable)


@pytest.mark.parametrize("service,shipped", [("timeline", "timeline-dev-cursor-secret"), ("news", "news-dev-cursor-secret")])
def test_a_shipped_or_short_cursor_secret_is_refused(service, shipped):
    variable = f"{service.upper()}_CURSOR_SECRET"
    assert "shipped dev value" in refused_with(run(service, "server", {**INFRA, variable: shipped}), variable)
    assert "at least 32 characters" in refused_with(run(service, "server", {**INFRA, variable: "x" * 31}), variable)


def test_gateway_refuses_short_secrets():
    keys = json.dumps([{"tenant_id": "t", "key_id": "k", "secret": "short-host-secret"}])
    line = refused_with(run("gateway", "server", {"GATEWAY_JWT_SECRET": "s" * 20, "TIMELINE_HOST_KEYS": keys}),
                        "GATEWAY_JWT_SECRET")
    assert "TIMELINE_HOST_KEYS: every host key's secret has at least 32 characters" in line


SECRETS = {"TIMELINE_CURSOR_SECRET": GOOD, "NEWS_CURSOR_SECRET": GOOD[::-1], "GATEWAY_JWT_SECRET": GOOD,
           "TIMELINE_HOST_KEYS": "[]"}


@pytest.mark.parametrize("module", ["timeline", "news", "gateway"])
def test_a_server_refuses_to_start_without_grpc_tls_unless_a_mesh_is_declared(module):
    """Every secret set, but no certificate: the line names the files and the mesh setting."""
    line = refused_with(run(module, "server", {**INFRA, **SECRETS}), "GRPC_TLS_CERT_FILE")
    assert "GRPC_TLS_KEY_FILE: " in line and "GRPC_TLS_CA_FILE: " in line and "GRPC_MESH_MTLS=true" in line


def test_production_settings_load_once_the_secrets_are_set(monkeypatch):
    """The other side: real secrets (and a JWKS in place of a token secret, no host keys for a gateway
    that serves no host) are a configuration production accepts."""
    settings = settings_classes()
    monkeypatch.delenv("FEEDS_ENV")
    for key in ("GRPC_TLS_CERT_FILE", "GRPC_TLS_KEY_FILE", "GRPC_TLS_CA_FILE", "GRPC_MESH_MTLS"):
        monkeypatch.delenv(key, raising=False)
    for key, value in {**INFRA, "TIMELINE_CURSOR_SECRET": GOOD, "NEWS_CURSOR_SECRET": GOOD[::-1],
                       "GATEWAY_JWKS_URL": "https://id.example.com/jwks.json", "TIMELINE_HOST_KEYS": "[]",
                       "GRPC_MESH_MTLS": "true"}.items():
        monkeypatch.setenv(key, value)
    assert settings["timeline"]().cursor_secret.get_secret_value() == GOOD
    assert settings["news"]().cursor_secret.get_secret_value() == GOOD[::-1]
    gateway = settings["gateway"]()
    assert gateway.feeds_env == "production" and gateway.host_keys == []
    # A mesh declared: the calls are the mesh's plaintext; or certificates, and mTLS it is.
    assert gateway.grpc_tls is None and settings["grpc-tls"]().grpc_mesh_mtls
    monkeypatch.delenv("GRPC_MESH_MTLS")
    for key in ("GRPC_TLS_CERT_FILE", "GRPC_TLS_KEY_FILE", "GRPC_TLS_CA_FILE"):
        monkeypatch.setenv(key, f"/etc/feeds/grpc-tls/{key.lower()}")
    assert settings["grpc-tls"]().grpc_tls == ("/etc/feeds/grpc-tls/grpc_tls_cert_file",
                                                "/etc/feeds/grpc-tls/grpc_tls_key_file",
                                                "/etc/feeds/grpc-tls/grpc_tls_ca_file")


def test_dev_keeps_its_conveniences(monkeypatch):
    settings = settings_classes()
    monkeypatch.setenv("FEEDS_ENV", "dev")
    for key, value in INFRA.items():
        monkeypatch.setenv(key, value)
    for key in ("TIMELINE_CURSOR_SECRET", "TIMELINE_HOST_KEYS", "GATEWAY_JWT_SECRET", "GATEWAY_JWKS_URL"):
        monkeypatch.delenv(key, raising=False)
    assert settings["timeline"]().cursor_secret.get_secret_value() == "timeline-dev-cursor-secret"
    assert settings["gateway"]().host_keys == []
