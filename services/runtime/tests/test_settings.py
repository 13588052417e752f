"""FEEDS_ENV: production unless a process is told it is dev."""

import pytest
from pydantic import ValidationError

from feeds_runtime.settings import InfraSettings, load_settings

INFRA = {"DATABASE_URL": "postgresql://u@localhost/db", "REDIS_URL": "redis://localhost:6379/0"}


@pytest.fixture
def infra_env(monkeypatch):
    for key, value in INFRA.items():
        monkeypatch.setenv(key, value)
    return monkeypatch


def test_production_when_unset(infra_env):
    infra_env.delenv("FEEDS_ENV", raising=False)
    settings = InfraSettings()
    assert settings.feeds_env == "production" and not settings.is_dev


def test_dev_only_when_said(infra_env):
    infra_env.setenv("FEEDS_ENV", "dev")
    assert InfraSettings().is_dev
    infra_env.setenv("FEEDS_ENV", "staging")
    with pytest.raises(ValidationError):
        InfraSettings()


SENTINELS = {"REDIS_SENTINELS": "sentinel-0:26379, sentinel-1:26379,sentinel-2:26379", "REDIS_SENTINEL_MASTER": "feeds"}


def refused(capsys, monkeypatch, env: dict[str, str]) -> str:
    """The line a process stops with, for these Redis variables."""
    for key in ("REDIS_URL", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER", "REDIS_SENTINEL_PASSWORD"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit):
        load_settings(InfraSettings)
    return capsys.readouterr().err


def test_a_sentinel_set_stands_for_redis_url(infra_env):
    infra_env.delenv("REDIS_URL")
    for key, value in SENTINELS.items():
        infra_env.setenv(key, value)
    settings = InfraSettings()
    assert settings.redis_sentinels == [("sentinel-0", 26379), ("sentinel-1", 26379), ("sentinel-2", 26379)]
    assert settings.redis_sentinel_master == "feeds" and settings.redis_url is None and settings.redis_configured
    # REDIS_URL may still carry the data nodes' password, database and TLS, never an address
    infra_env.setenv("REDIS_URL", "rediss://:node-password@/2")
    assert InfraSettings().redis_url == "rediss://:node-password@/2"


@pytest.mark.parametrize("env,expected", [
    ({}, "REDIS_URL: required: redis://host:port/db"),
    ({"REDIS_SENTINELS": "sentinel-0"}, "REDIS_SENTINELS: 'sentinel-0' is not host:port"),
    ({"REDIS_SENTINELS": "sentinel-0:0"}, "REDIS_SENTINELS: 'sentinel-0:0' is not host:port"),
    ({"REDIS_SENTINELS": "sentinel-0:26379"}, "REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS"),
    ({"REDIS_SENTINEL_MASTER": "feeds", "REDIS_URL": "redis://r:6379/0"}, "REDIS_SENTINEL_MASTER: only with REDIS_SENTINELS"),
    ({"REDIS_SENTINEL_PASSWORD": "p", "REDIS_URL": "redis://r:6379/0"}, "REDIS_SENTINEL_PASSWORD: only with REDIS_SENTINELS"),
    ({**SENTINELS, "REDIS_URL": "redis://r:6379/0"}, "REDIS_URL: with REDIS_SENTINELS the Sentinels name the master"),
    ({**SENTINELS, "REDIS_URL": "unix:///run/redis.sock"}, "REDIS_URL: with REDIS_SENTINELS, expected redis://"),
])
def test_bad_redis_settings_stop_the_process_with_one_clear_line(infra_env, capsys, env, expected):
    line = refused(capsys, infra_env, env)
    assert line.startswith("configuration error: ") and expected in line, line
