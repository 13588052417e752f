"""The quota governor: one sliding-window budget per provider account in Redis, shared by every
worker; a run that would pass it stops with limit_reached and says why, instead of failing requests."""

import time
import uuid

import pytest
import redis

from scout.pipeline.scan import LIMIT_REACHED, SOURCE_UNAVAILABLE, run_scan
from scout.pipeline.sources import BudgetReached, FailureKind, SourceUnavailable
from scout.pipeline.sources.quota import Budget, account_key
from scout.pipeline.sources.serp import SerpSource
from scout.pipeline.sources.threads import ThreadsSource
from services.scout.tests.pipeline.test_sources import BRIEF, FAST, NOW, PATHS, Provider, fixture


@pytest.fixture
def client(redis_url):
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


@pytest.fixture
def provider():
    server = Provider()
    yield server
    server.server.shutdown()
    server.server.server_close()


def budget(client, limit, window=3600.0, key=None):
    return Budget(client, key=key or f"test:{uuid.uuid4().hex}", source="threads", limit=limit,
                  window_seconds=window, describe=f"{limit} queries per test window")


def test_the_budget_is_shared_and_refunds_give_back(client):
    first = budget(client, 3)
    second = Budget(client, key=first.key, source="threads", limit=3, window_seconds=3600, describe="3")
    refund = first.admit()
    second.admit()
    first.admit()
    with pytest.raises(BudgetReached, match="shared budget of 3"):
        second.admit()  # another worker sees the same window
    refund()
    second.admit()
    with pytest.raises(BudgetReached):
        first.admit()


def test_queries_leave_the_window(client):
    window = budget(client, 1, window=0.5)
    window.admit()
    with pytest.raises(BudgetReached):
        window.admit()
    deadline = time.monotonic() + 10
    while True:  # the window slides on Redis' clock
        try:
            window.admit()
            break
        except BudgetReached:
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_the_key_names_the_account_by_fingerprint_only():
    key = account_key("feeds", "threads", "secret-token")
    assert key.startswith("feeds:scout:quota:threads:") and "secret-token" not in key
    assert key == account_key("feeds", "threads", "secret-token") != account_key("feeds", "threads", "other")


def test_an_unreachable_governor_is_a_transient_failure():
    dead = Budget(redis.Redis(port=1, socket_connect_timeout=0.2), key="k", source="serp", limit=1,
                  window_seconds=60, describe="1")
    with pytest.raises(SourceUnavailable) as failure:
        dead.admit()
    assert failure.value.kind == FailureKind.TRANSIENT


def test_threads_queries_that_find_nothing_are_refunded(client, provider):
    threads_budget = budget(client, 1)
    source = ThreadsSource(base_url=provider.url + "/v1.0", access_token="t", search_type="TOP", timeout=2,
                           retry=FAST, admit=threads_budget.admit)
    provider.reply(PATHS["threads"], (*fixture("threads", "empty"), {}))
    for _ in range(3):  # Meta does not count queries without results
        source.search("颱風假", limit=20)
    provider.reply(PATHS["threads"], (*fixture("threads", "success"), {}))
    source.search("颱風假", limit=20)
    with pytest.raises(BudgetReached):
        source.search("颱風假", limit=20)
    assert len(provider.requests) == 4


def test_a_run_stops_on_a_spent_budget_with_limit_reached_and_says_why(client, provider):
    provider.serve("threads", "success")
    provider.serve("serp", "success")
    threads = ThreadsSource(base_url=provider.url + "/v1.0", access_token="t", search_type="TOP", timeout=2,
                            retry=FAST, admit=budget(client, 1).admit)
    serp = SerpSource(base_url=provider.url, api_key="k", timeout=2, retry=FAST,
                      admit=Budget(client, key=f"test:{uuid.uuid4().hex}", source="serp", limit=0,
                                   window_seconds=3600, describe="0 searches per hour").admit)
    brief = type("Brief", (), {"intent": "颱風假", "terms": ("颱風假", "颱風 停班"), "mode": "topic"})()
    outcome = run_scan(brief, [threads, serp], history=set(), target=20, on_progress=lambda *_: None,
                       should_cancel=lambda: False, now=NOW)
    assert len(provider.requests) == 1  # one Threads query was in the budget; nothing was refused by a provider
    assert LIMIT_REACHED in outcome.shortfall_reasons and SOURCE_UNAVAILABLE not in outcome.shortfall_reasons
    assert outcome.source_errors["threads"] == {"kind": "budget",
                                                "detail": "shared budget of 1 queries per test window reached"}
    assert outcome.source_errors["serp"]["kind"] == "budget"
    # A budget spent before the first query: the run still completes, empty, saying why.
    empty = run_scan(BRIEF, [serp], history=set(), target=5, on_progress=lambda *_: None,
                     should_cancel=lambda: False, now=NOW)
    assert empty.posts == [] and LIMIT_REACHED in empty.shortfall_reasons
