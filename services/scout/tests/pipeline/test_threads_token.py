"""Care of the Threads token against the search stand-in's debug_token and refresh_access_token:
the self-check at the scout server's start and on its period, its verdict shared with every worker,
and the refresh of a long-lived token kept encrypted in the scout schema."""

import os
import subprocess
import sys
import time

import pytest
import redis
from cryptography.fernet import Fernet
from sqlalchemy import text

from devstack.search_api import SearchApi
from devstack.tls import DEV_CA
from feeds_runtime.db import Database, make_engine
from scout.pipeline.sources import FailureKind, SourceUnavailable, build_sources
from scout.pipeline.sources.threads_token import ThreadsToken
from scout.settings import ScoutSettings

SEED = "seed-threads-token-abcdef"


@pytest.fixture(scope="module")
def api():
    stand_in = SearchApi(threads_token=SEED)
    yield stand_in
    stand_in.close()


@pytest.fixture(scope="module")
def database(database_url, redis_url):
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "FEEDS_ENV": "dev",
           "SCOUT_SOURCES": "dev"}
    subprocess.run([sys.executable, "-m", "scout", "migrate"], env=env, check=True, capture_output=True)
    db = Database(make_engine(database_url, pool_size=2))
    yield db
    db.engine.dispose()


@pytest.fixture
def settings(monkeypatch, api, database_url, redis_url, redis_namespace, database):
    api.reset()
    api.refreshed.clear()
    with database.transaction() as session:
        session.execute(text("DELETE FROM scout.source_credentials"))
    for key, value in {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "REDIS_NAMESPACE": redis_namespace,
                       "FEEDS_ENV": "production", "SCOUT_SOURCES": "threads", "SCOUT_THREADS_ACCESS_TOKEN": SEED,
                       "SCOUT_THREADS_BASE_URL": f"{api.url}/v1.0", "SCOUT_CREDENTIALS_KEY": Fernet.generate_key().decode(),
                       "SCOUT_SOURCE_BACKOFF_BASE_SECONDS": "0.01"}.items():
        monkeypatch.setenv(key, value)
    return ScoutSettings


@pytest.fixture
def client(redis_url):
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


def threads_source(settings, client, database):
    (source,) = build_sources(settings, client, database)
    return source


def test_a_fit_token_passes_and_is_not_refreshed_early(settings, client, database, api):
    status = ThreadsToken(settings(), database, client).care()
    assert status.kind is None and status.expires_at is not None
    assert api.refreshed == []
    api.add("颱風假", [])
    threads_source(settings(), client, database).search("颱風假", limit=20)  # no self-check failure


def test_without_keyword_search_permission_the_source_reports_permission(settings, client, database, api):
    api.token_scopes = ["threads_basic"]  # Meta would search only the token owner's own posts
    status = ThreadsToken(settings(), database, client).care()
    assert status.kind == FailureKind.PERMISSION and "threads_keyword_search" in status.detail
    with pytest.raises(SourceUnavailable) as failure:
        threads_source(settings(), client, database).search("颱風假", limit=20)
    assert failure.value.kind == FailureKind.PERMISSION
    assert not any(r["provider"] == "threads" for r in api.requests)  # no query was spent on it


def test_a_token_expiring_within_7_days_without_a_key_to_keep_a_refresh_is_auth(settings, client, database, api,
                                                                                monkeypatch):
    monkeypatch.delenv("SCOUT_CREDENTIALS_KEY")
    api.token_expires_at = int(time.time()) + 5 * 86400
    status = ThreadsToken(settings(), database, client).care()
    assert status.kind == FailureKind.AUTH and "expires in 4 day(s)" in status.detail and api.refreshed == []
    with pytest.raises(SourceUnavailable) as failure:
        threads_source(settings(), client, database).search("颱風假", limit=20)
    assert failure.value.kind == FailureKind.AUTH


def test_an_invalid_token_is_auth(settings, client, database, api, monkeypatch):
    monkeypatch.setenv("SCOUT_THREADS_ACCESS_TOKEN", "not-the-token")
    status = ThreadsToken(settings(), database, client).care()
    assert status.kind == FailureKind.AUTH


def test_a_token_nearing_its_end_is_refreshed_and_kept_encrypted_for_every_worker(settings, client, database, api,
                                                                                 monkeypatch):
    api.token_expires_at = int(time.time()) + 20 * 86400  # inside the 30-day refresh window
    care = ThreadsToken(settings(), database, client)
    status = care.care()
    assert status.kind is None and len(api.refreshed) == 1
    fresh = api.refreshed[0]
    with database.transaction() as session:
        stored = session.execute(text("SELECT ciphertext FROM scout.source_credentials")).scalar_one()
    assert fresh not in stored and SEED not in stored
    # Another worker (a new process's view) searches with the refreshed token
    api.add("颱風假", [])
    threads_source(settings(), client, database).search("颱風假", limit=20)
    assert ThreadsToken(settings(), database, client).current() == fresh
    # A new token in the Secret wins over what was refreshed from the old one
    monkeypatch.setenv("SCOUT_THREADS_ACCESS_TOKEN", "a-new-seed")
    assert ThreadsToken(settings(), database, client).current() == "a-new-seed"


def test_the_scout_server_checks_the_token_at_start(settings, client, api, database, tmp_path):
    api.token_scopes = ["threads_basic"]
    env = {**os.environ, "SCOUT_GRPC_PORT": "0", "SCOUT_GRPC_HEALTH_PORT": "0", **DEV_CA.env("scout")}
    server = subprocess.Popen([sys.executable, "-m", "scout", "server"], env=env, stdout=subprocess.DEVNULL,
                              stderr=open(tmp_path / "server.log", "w"))
    try:
        care = ThreadsToken(settings(), database, client)
        deadline = time.monotonic() + 60
        while True:  # the server's start-up check publishes its verdict
            try:
                care.raise_if_unfit()
            except SourceUnavailable as failure:
                assert failure.kind == FailureKind.PERMISSION
                break
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()[-2000:]
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=30)
