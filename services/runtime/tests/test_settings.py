"""FEEDS_ENV: production unless a process is told it is dev; DATABASE_URL with one host or a list."""

import pytest
from pydantic import ValidationError
from sqlalchemy.engine import make_url

from feeds_runtime.settings import InfraSettings, normalize_database_url

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
