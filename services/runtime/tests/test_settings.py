"""FEEDS_ENV: production unless a process is told it is dev; DATABASE_URL with one host or a list."""

import pytest
from pydantic import ValidationError
from sqlalchemy.engine import make_url

from feeds_runtime.settings import InfraSettings, load_settings, normalize_database_url

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


@pytest.mark.parametrize("value", [
    "postgresql://u@replica-a/db, postgres://u@replica-b/db",
    '["postgresql://u@replica-a/db", "postgres://u@replica-b/db"]',
])
def test_replica_urls_as_a_list_or_json(infra_env, value):
    infra_env.setenv("DATABASE_REPLICA_URLS", value)
    assert InfraSettings().database_replica_urls == [
        "postgresql+psycopg://u@replica-a/db", "postgresql+psycopg://u@replica-b/db"]


def test_no_replica_urls_by_default_or_when_empty(infra_env):
    infra_env.delenv("DATABASE_REPLICA_URLS", raising=False)
    assert InfraSettings().database_replica_urls == []
    infra_env.setenv("DATABASE_REPLICA_URLS", "")
    assert InfraSettings().database_replica_urls == []


@pytest.mark.parametrize("value", ["mysql://u@replica/db", "postgresql://u@replica", '["postgresql://u@r/db"'])
def test_a_bad_replica_url_is_refused(infra_env, value):
    infra_env.setenv("DATABASE_REPLICA_URLS", value)
    with pytest.raises(ValidationError):
        InfraSettings()

def test_a_list_of_hosts_is_taken_in_sqlalchemys_form():
    # libpq's multi-host URL, as a managed PostgreSQL or a failover set gives it
    url = normalize_database_url("postgresql://app:s%40cret@db-a:5432,[::1]:5433,db-c/feeds"
                                 "?target_session_attrs=read-write")
    assert url == ("postgresql+psycopg://app:s%40cret@/feeds?host=db-a%2C%3A%3A1%2Cdb-c&port=5432%2C5433%2C"
                   "&target_session_attrs=read-write")
    parsed = make_url(url)
    _, params = parsed.get_dialect()().create_connect_args(parsed)
    assert (params["host"], params["port"], params["password"]) == ("db-a,::1,db-c", "5432,5433,", "s@cret")
    assert params["target_session_attrs"] == "read-write"
    # SQLAlchemy's own forms and a single host are kept as they are
    assert normalize_database_url(url) == url
    assert normalize_database_url("postgresql://u@db:5432/feeds") == "postgresql+psycopg://u@db:5432/feeds"


@pytest.mark.parametrize("url", ["postgresql://u@db-a:x,db-b/feeds", "postgresql://u@db-a,,db-b/feeds",
                                 "postgresql://u@db-a:5432,db-b:5432/"])
def test_a_bad_list_of_hosts_is_refused(url):
    with pytest.raises(ValueError):
        normalize_database_url(url)

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
