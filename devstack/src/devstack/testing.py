"""Pytest plugin shared by every test suite (registered in the root conftest).

Real infrastructure only: the resolution rule of `infra.resolve`, a fresh database per test
session (dropped afterwards) and a Redis namespace of its own, so suites never see each other.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from devstack import DATA_DIR, infra
from devstack.replication import PostgresCluster
from devstack.platform import SERVICES
from devstack.processes import ProcessGroup
from devstack.sentinel import SentinelSet
from devstack.tls import DEV_CA, TOOLS, callers_env

TEST_DATA_DIR = DATA_DIR / "test"


def pytest_configure(config: pytest.Config) -> None:
    # Tests run as dev (FEEDS_ENV), as `make test` says, also when pytest is started directly; the
    # processes they start inherit it. A test about production sets FEEDS_ENV=production itself.
    os.environ.setdefault("FEEDS_ENV", "dev")


@pytest.fixture(scope="session")
def infrastructure() -> Iterator[infra.Infra]:
    resolved = infra.resolve(TEST_DATA_DIR)
    yield resolved


@pytest.fixture(scope="session")
def database_url(infrastructure: infra.Infra) -> Iterator[str]:
    url = infrastructure.server_url(f"feeds_test_{uuid.uuid4().hex[:12]}")
    infra.ensure_database(url)
    yield url
    infra.drop_database(url)


@pytest.fixture
def fresh_database_url(infrastructure: infra.Infra) -> Iterator[str]:
    """A database of this test's own, for tests about an empty or concurrently migrated schema."""
    url = infrastructure.server_url(f"feeds_test_{uuid.uuid4().hex[:12]}")
    infra.ensure_database(url)
    yield url
    infra.drop_database(url)


@pytest.fixture(scope="session")
def redis_url(infrastructure: infra.Infra) -> str:
    return infrastructure.redis_url


@pytest.fixture(scope="session")
def redis_namespace() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="session")
def platform_env(database_url: str, redis_url: str, redis_namespace: str) -> dict[str, str]:
    """Environment for processes under test: the session's database, Redis and namespace."""
    return {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "REDIS_NAMESPACE": redis_namespace,
        "PYTHONUNBUFFERED": "1",
        # No metrics endpoints unless a test names their ports (`Platform` does per process).
        **{f"{prefix}_METRICS_PORT": "0" for prefix in ("TIMELINE", "NEWS", "SCOUT", "GATEWAY")},
        # Nor plaintext health ports (`Platform` gives each service one).
        **{f"{prefix}_GRPC_HEALTH_PORT": "0" for prefix in ("TIMELINE", "NEWS", "SCOUT")},
        # mTLS with the dev CA, as `Platform` sets it per process; the dev tools (the tests) may call.
        **DEV_CA.env("service"), **callers_env(SERVICES, TOOLS),
    }


@pytest.fixture(scope="session")
def settings_env(platform_env: dict[str, str]) -> Iterator[dict[str, str]]:
    """The same environment applied to this test process, for in-process settings objects."""
    saved = {key: os.environ.get(key) for key in platform_env}
    os.environ.update(platform_env)
    yield platform_env
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@contextmanager
def _cluster_folder() -> Iterator[Path]:
    # Under .data/test rather than pytest's temporary folder: pytest makes that folder private again
    # at the start of every session, which would lock a server running as another user out of it.
    data_dir = TEST_DATA_DIR / f"postgres-cluster-{uuid.uuid4().hex[:12]}"
    try:
        yield data_dir
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture
def cluster_data_dir() -> Iterator[Path]:
    """A folder of this test's own for a PostgreSQL cluster it starts itself (one it stops or promotes)."""
    with _cluster_folder() as data_dir:
        yield data_dir


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A primary and one streaming standby of the session's own (devstack.replication), for the replica
    drills. A test that stops the standby starts it again; one that stops or promotes the primary
    starts a cluster of its own in `cluster_data_dir`."""
    with _cluster_folder() as data_dir:
        cluster = PostgresCluster(data_dir)
        try:
            cluster.start()
            yield cluster
        finally:
            cluster.stop()


@pytest.fixture
def processes(tmp_path: Path, platform_env: dict[str, str]) -> Iterator[ProcessGroup]:
    """Real subprocesses (servers, workers, relays), stopped with SIGTERM after the test.
    Their logs are in tmp_path/logs and are shown when a start-up check fails."""
    group = ProcessGroup(log_dir=tmp_path / "logs", env=platform_env)
    yield group
    group.stop()


@pytest.fixture
def sentinel_set(tmp_path: Path) -> Iterator[SentinelSet]:
    """A Redis master, its replica and three Sentinels of this test's own, for failover drills; the
    platform reaches it with `sentinel_set.env()` in place of REDIS_URL."""
    sentinels = SentinelSet(tmp_path / "sentinels")
    sentinels.start()
    yield sentinels
    sentinels.stop()
