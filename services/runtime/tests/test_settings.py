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
