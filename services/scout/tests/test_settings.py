"""Scout's sources by FEEDS_ENV: the offline sample corpus only in dev, live sources with their
credentials everywhere else, and a process refusing to start otherwise."""

import subprocess
import sys

import pytest
from pydantic import ValidationError

from scout.settings import ScoutSettings

INFRA = {"DATABASE_URL": "postgresql://u@localhost/db", "REDIS_URL": "redis://localhost:6379/0"}


@pytest.fixture
def env(monkeypatch):
    for key in ("SCOUT_SOURCES", "SCOUT_THREADS_ACCESS_TOKEN", "SCOUT_SERP_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    for key, value in INFRA.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("FEEDS_ENV", "production")
    return monkeypatch


def test_production_refuses_the_sample_corpus_and_needs_named_sources(env):
    for sources in ("dev", "threads,dev", ""):
        env.setenv("SCOUT_SOURCES", sources)
        with pytest.raises(ValidationError, match="sources"):
            ScoutSettings()
    env.delenv("SCOUT_SOURCES")
    with pytest.raises(ValidationError, match="sources"):
        ScoutSettings()


def test_a_named_live_source_needs_its_credential(env):
    env.setenv("SCOUT_SOURCES", "threads,serp")
    env.setenv("SCOUT_THREADS_ACCESS_TOKEN", "t")
    with pytest.raises(ValidationError, match="serp_api_key"):
        ScoutSettings()
    env.setenv("SCOUT_SERP_API_KEY", "  ")
    with pytest.raises(ValidationError, match="serp_api_key"):
        ScoutSettings()
    env.setenv("SCOUT_SERP_API_KEY", "k")
    assert ScoutSettings().source_names == ["threads", "serp"]


def test_dev_defaults_to_the_sample_corpus(env):
    env.setenv("FEEDS_ENV", "dev")
    assert ScoutSettings().source_names == ["dev"]


@pytest.mark.parametrize("kind", ["server", "worker", "relay", "migrate"])
def test_a_production_process_on_the_sample_corpus_refuses_to_start(env, kind):
    env.setenv("SCOUT_SOURCES", "dev")
    done = subprocess.run([sys.executable, "-m", "scout", kind], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("configuration error: SCOUT_SOURCES:")
    assert "FEEDS_ENV=dev" in lines[0]
