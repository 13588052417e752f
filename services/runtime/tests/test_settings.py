"""FEEDS_ENV: production unless a process is told it is dev."""

import pytest
from pydantic import ValidationError

from feeds_runtime.settings import InfraSettings

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
