"""One news stack (server, worker, relay, gateway) for the whole session of through-gateway tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devstack.processes import ProcessGroup
from tests.news.stack import NewsStack, start


# Package scope: the stack stops when this folder's tests end (see tests/browser/conftest.py).
@pytest.fixture(scope="package")
def news(platform_env, database_url, tmp_path_factory) -> Iterator[NewsStack]:
    group = ProcessGroup(log_dir=tmp_path_factory.mktemp("news-logs"), env=platform_env)
    try:
        stack = NewsStack(start(group), database_url)
        yield stack
        stack.close()
    finally:
        group.stop()
