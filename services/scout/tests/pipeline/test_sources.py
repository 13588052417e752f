"""Contract tests of the live source adapters: each answers the providers' documented responses
(fixtures/<provider>/*.json: success, empty, last page, every error class) from a local server,
sends the documented request, and turns every failure into its kind, without leaking a credential."""

import json
import logging
import threading
from collections import deque
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from devstack.infra import free_port
from feeds_runtime.db import Database, make_engine
from scout.pipeline.scan import SOURCE_UNAVAILABLE, AllSourcesUnavailable, run_scan
from scout.pipeline.sources import FailureKind, SearchWindow, SourceUnavailable, build_sources
from scout.pipeline.sources.dev import DevSource
from scout.pipeline.sources.http import RetryPolicy
from scout.pipeline.sources.serp import SerpSource, parse_serp_date
from scout.pipeline.sources.threads import ThreadsSource
from scout.settings import ScoutSettings

THREADS_TOKEN = "threads-secret-token-123"
SERP_KEY = "serp-secret-key-456"
FIXTURES = Path(__file__).with_name("fixtures")
PATHS = {"threads": "/v1.0/keyword_search", "serp": "/search.json"}
FAST = RetryPolicy(attempts=3, base_seconds=0.01, max_seconds=0.05)
NOW = datetime(2026, 7, 20, 12, 0, tzinfo=UTC)


def fixture(provider: str, name: str) -> tuple[int, object]:
    data = json.loads((FIXTURES / provider / f"{name}.json").read_text(encoding="utf-8"))
    return data["status"], data["body"]


class Provider:
    """A local server answering each path with its queued replies in turn (the last one repeats)."""

    def __init__(self):
        self.replies: dict[str, deque] = {}
        self.requests = []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = urlsplit(self.path)
                provider.requests.append((parts.path, parse_qs(parts.query), dict(self.headers)))
                queue = provider.replies.get(parts.path) or deque([(404, {}, {})])
                status, body, headers = queue.popleft() if len(queue) > 1 else queue[0]
                data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reply(self, path, *replies):
        self.replies[path] = deque((status, body, headers) for status, body, headers in replies)

    def serve(self, provider, *names, headers=None):
        self.reply(PATHS[provider], *((*fixture(provider, name), headers or {}) for name in names))

    def params(self, index=-1) -> dict:
        return {key: values[0] for key, values in self.requests[index][1].items()}


@pytest.fixture
def provider():
    server = Provider()
    yield server
    server.server.shutdown()
    server.server.server_close()


def threads(provider, timeout=2.0, retry=FAST):
    return ThreadsSource(base_url=provider.url + "/v1.0", access_token=THREADS_TOKEN, search_type="TOP",
                         timeout=timeout, retry=retry)


def serp(provider, timeout=2.0, retry=FAST):
    return SerpSource(base_url=provider.url, api_key=SERP_KEY, timeout=timeout, retry=retry)


def source(kind, provider, **options):
    return threads(provider, **options) if kind == "threads" else serp(provider, **options)


# Requests.

def test_threads_request_is_the_documented_keyword_search(provider):
    provider.serve("threads", "success")
    threads(provider).search("颱風假", limit=20, cursor="QVFIUmJ0")
    path, query, headers = provider.requests[0]
    params = provider.params()
    assert path == "/v1.0/keyword_search" and params["access_token"] == THREADS_TOKEN
    assert params["q"] == "颱風假" and params["search_type"] == "TOP" and params["limit"] == "20"
    assert params["after"] == "QVFIUmJ0" and "since" not in params and "search_mode" not in params
    assert set(params["fields"].split(",")) >= {"id", "text", "permalink", "shortcode", "timestamp", "username"}
    assert "authorization" not in {key.lower() for key in headers}


def test_threads_recent_window_and_topic_tags(provider):
    provider.serve("threads", "success")
    window = SearchWindow(since=NOW - timedelta(days=7), now=NOW)
    threads(provider).search("#颱風假", limit=20, window=window)
    params = provider.params()
    assert params["search_type"] == "RECENT" and params["since"] == str(int((NOW - timedelta(days=7)).timestamp()))
    assert params["q"] == "颱風假" and params["search_mode"] == "TAG"


def test_serp_request_is_shaped_for_traditional_chinese_taiwan(provider):
    provider.serve("serp", "success")
    serp(provider).search("颱風假", limit=20, cursor="10")
    params = provider.params()
    assert params["engine"] == "google" and params["api_key"] == SERP_KEY and params["start"] == "10"
    assert params["q"].startswith("颱風假 ") and "site:threads.net" in params["q"]
    assert (params["hl"], params["gl"], params["google_domain"], params["lr"]) == (
        "zh-tw", "tw", "google.com.tw", "lang_zh-TW")
    assert "num" not in params and "tbs" not in params  # Google ignores num; no age cut unless asked


@pytest.mark.parametrize("days, tbs", [(1, "qdr:d"), (3, "qdr:w"), (7, "qdr:w"), (30, "qdr:m"), (200, "qdr:y")])
def test_serp_recency_only_where_the_brief_sets_a_window(provider, days, tbs):
    provider.serve("serp", "success")
    serp(provider).search("颱風假", limit=20, window=SearchWindow(since=NOW - timedelta(days=days), now=NOW))
    assert provider.params()["tbs"] == tbs and "start" not in provider.params()


# Pages.

def test_threads_page_and_paging_end(provider):
    provider.serve("threads", "success")
    page = threads(provider).search("颱風假", limit=20)
    first, second = page.candidates
    assert first.posted_at == datetime(2026, 7, 17, 5, 42, 3, tzinfo=UTC) and first.author == "mei"
    assert second.url == "https://www.threads.net/@kai/post/DAbc123xyZ9" and second.posted_at is None
    assert page.next_cursor == "QVFIUmx1"
    provider.serve("threads", "last_page")
    assert threads(provider).search("颱風假", limit=20).next_cursor is None
    provider.serve("threads", "empty")
    empty = threads(provider).search("颱風假", limit=20)
    assert empty.candidates == [] and empty.next_cursor is None


def test_serp_page_dates_and_paging_by_what_serpapi_returns(provider):
    provider.serve("serp", "success")
    page = serp(provider).search("颱風假", limit=20, window=SearchWindow(now=NOW))
    urls = [c.url for c in page.candidates]
    assert len(urls) == 4 and urls[2] == "https://www.threads.net/@mei"  # the pipeline judges identity
    assert page.candidates[0].posted_at == NOW - timedelta(days=3)  # "3 天前" against the scan clock
    assert page.candidates[1].posted_at == datetime(2026, 7, 10, tzinfo=UTC)
    assert page.candidates[3].posted_at is None
    assert page.next_cursor == "10"  # SerpApi's next page starts at 10, whatever was asked
    provider.serve("serp", "last_page")
    last = serp(provider).search("颱風假", limit=20, cursor="20", window=SearchWindow(now=NOW))
    assert last.next_cursor is None and last.candidates[0].posted_at == NOW - timedelta(hours=5)
    provider.serve("serp", "empty")
    empty = serp(provider).search("颱風假", limit=20)
    assert empty.candidates == [] and empty.next_cursor is None


@pytest.mark.parametrize("text, expected", [
    ("3 天前", timedelta(days=3)), ("5 小時前", timedelta(hours=5)), ("12 分鐘前", timedelta(minutes=12)),
    ("2 週前", timedelta(weeks=2)), ("1 個月前", timedelta(days=30)), ("昨天", timedelta(days=1)),
    ("3 days ago", timedelta(days=3)), ("1 week ago", timedelta(weeks=1)), ("2 hours ago", timedelta(hours=2)),
])
def test_relative_dates_count_back_from_the_scan_clock(text, expected):
    assert parse_serp_date(text, NOW) == NOW - expected


def test_absolute_and_unreadable_dates():
    assert parse_serp_date("Oct 17, 2023", NOW) == datetime(2023, 10, 17, tzinfo=UTC)
    assert parse_serp_date("2023年10月17日", NOW) == datetime(2023, 10, 17, tzinfo=UTC)
    assert parse_serp_date("前天下午", NOW) is None and parse_serp_date(None, NOW) is None


# Failures.

THREADS_KINDS = {
    "expired_token": FailureKind.AUTH, "invalid_token": FailureKind.AUTH, "session_invalid": FailureKind.AUTH,
    "permission_denied": FailureKind.PERMISSION, "permission_scope": FailureKind.PERMISSION,
    "app_throttled": FailureKind.RATE_LIMITED, "user_throttled": FailureKind.RATE_LIMITED,
    "page_throttled": FailureKind.RATE_LIMITED, "calls_throttled": FailureKind.RATE_LIMITED,
    "service_unavailable": FailureKind.TRANSIENT, "unknown_error": FailureKind.TRANSIENT,
    "gateway_html": FailureKind.TRANSIENT, "invalid_parameter": FailureKind.MALFORMED,
    "not_a_page": FailureKind.MALFORMED,
}
SERP_KINDS = {
    "invalid_key": FailureKind.AUTH, "forbidden": FailureKind.PERMISSION, "hourly_limit": FailureKind.RATE_LIMITED,
    "out_of_searches": FailureKind.QUOTA_EXHAUSTED, "search_failed": FailureKind.TRANSIENT,
    "search_failed_200": FailureKind.TRANSIENT, "server_error": FailureKind.TRANSIENT,
    "bad_request": FailureKind.MALFORMED, "not_a_page": FailureKind.MALFORMED,
}
CASES = [("threads", name, kind) for name, kind in THREADS_KINDS.items()] + [
    ("serp", name, kind) for name, kind in SERP_KINDS.items()]


def test_every_fixture_is_covered():
    for kind, table in (("threads", THREADS_KINDS), ("serp", SERP_KINDS)):
        names = {path.stem for path in (FIXTURES / kind).glob("*.json")}
        assert names - set(table) == {"success", "last_page", "empty"}


@pytest.mark.parametrize("kind, name, expected", CASES)
def test_each_error_class_is_its_kind_retried_only_when_worth_it(provider, caplog, kind, name, expected):
    provider.serve(kind, name)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(SourceUnavailable) as failure:
        source(kind, provider).search("颱風假", limit=20)
    assert failure.value.kind == expected and failure.value.source == kind
    assert len(provider.requests) == (FAST.attempts if expected in (FailureKind.RATE_LIMITED, FailureKind.TRANSIENT)
                                      else 1)
    for secret in (THREADS_TOKEN, SERP_KEY):
        assert secret not in str(failure.value) and secret not in caplog.text


@pytest.mark.parametrize("kind", ["threads", "serp"])
def test_a_transient_failure_then_a_page_is_a_page(provider, kind):
    failure = "service_unavailable" if kind == "threads" else "server_error"
    provider.serve(kind, failure, "success")
    page = source(kind, provider).search("颱風假", limit=20)
    assert page.candidates and len(provider.requests) == 2


def test_retry_after_is_honoured_and_a_long_one_is_not_waited_for(provider):
    provider.serve("serp", "hourly_limit", "success", headers={"Retry-After": "0"})
    assert serp(provider).search("颱風假", limit=20).candidates and len(provider.requests) == 2
    provider.requests.clear()
    provider.serve("serp", "hourly_limit", headers={"Retry-After": "3600"})
    with pytest.raises(SourceUnavailable) as failure:
        serp(provider).search("颱風假", limit=20)
    assert failure.value.kind == FailureKind.RATE_LIMITED and failure.value.retry_after == 3600
    assert len(provider.requests) == 1


@pytest.mark.parametrize("kind", ["threads", "serp"])
def test_timeouts_and_unreachable_providers_are_transient(provider, kind):
    down = ThreadsSource(base_url=f"http://127.0.0.1:{free_port()}", access_token=THREADS_TOKEN, search_type="TOP",
                         timeout=1.0, retry=FAST) if kind == "threads" else SerpSource(
        base_url=f"http://127.0.0.1:{free_port()}", api_key=SERP_KEY, timeout=1.0, retry=FAST)
    with pytest.raises(SourceUnavailable) as failure:
        down.search("颱風假", limit=20)
    assert failure.value.kind == FailureKind.TRANSIENT


# The pipeline.

BRIEF = type("Brief", (), {"intent": "颱風假", "terms": ("颱風假",), "mode": "topic"})()


def test_run_completes_on_the_other_source_with_the_failure_kind(provider, caplog):
    provider.serve("threads", "expired_token")
    provider.serve("serp", "success")
    caplog.set_level(logging.DEBUG)
    outcome = run_scan(BRIEF, [threads(provider), serp(provider)], history=set(), target=5,
                       on_progress=lambda *_: None, should_cancel=lambda: False, now=NOW)
    assert "C8xYz12AbCd" in {p.canonical_id for p in outcome.posts}  # found by serp
    assert SOURCE_UNAVAILABLE in outcome.shortfall_reasons
    assert outcome.source_errors["threads"]["kind"] == "auth" and "190" in outcome.source_errors["threads"]["detail"]
    assert "auth" in caplog.text  # the kind reaches the logs
    provider.serve("serp", "server_error")
    with pytest.raises(AllSourcesUnavailable):
        run_scan(BRIEF, [threads(provider), serp(provider)], history=set(), target=5,
                 on_progress=lambda *_: None, should_cancel=lambda: False, now=NOW)
    assert THREADS_TOKEN not in caplog.text and SERP_KEY not in caplog.text


def test_a_brief_window_reaches_the_request(provider):
    provider.serve("threads", "empty")
    brief = type("Brief", (), {"intent": "颱風假", "terms": ("颱風假",), "mode": "topic", "recent_days": 3})()
    run_scan(brief, [threads(provider)], history=set(), target=5, on_progress=lambda *_: None,
             should_cancel=lambda: False, now=NOW)
    assert provider.params(0)["search_type"] == "RECENT"
    assert provider.params(0)["since"] == str(int((NOW - timedelta(days=3)).timestamp()))


def test_build_sources_follows_configuration(monkeypatch, redis_url):
    import redis

    base = {"DATABASE_URL": "postgresql://u@localhost/db", "REDIS_URL": redis_url}
    for key, value in base.items():
        monkeypatch.setenv(key, value)
    client = redis.Redis.from_url(redis_url)
    monkeypatch.setenv("SCOUT_SOURCES", "threads, serp")
    monkeypatch.setenv("SCOUT_THREADS_ACCESS_TOKEN", THREADS_TOKEN)
    monkeypatch.setenv("SCOUT_SERP_API_KEY", SERP_KEY)
    # The database is only reached when a refreshed token is stored: an engine that never connects.
    database = Database(make_engine(ScoutSettings().database_url))
    assert [s.name for s in build_sources(ScoutSettings(), client, database)] == ["threads", "serp"]
    monkeypatch.setenv("SCOUT_SOURCES", "dev")
    assert [s.name for s in build_sources(ScoutSettings(), client, database)] == ["dev"]
    assert THREADS_TOKEN not in repr(ScoutSettings(sources="threads"))
    monkeypatch.setenv("SCOUT_SOURCES", "bing")
    with pytest.raises(ValueError):
        ScoutSettings()


def test_dev_corpus_is_searched_lexically_and_deterministically():
    source = DevSource()
    first = source.search("台北 演唱會", limit=20)
    assert len(first.candidates) == 20 and first.next_cursor == "20"
    assert first == source.search("台北 演唱會", limit=20)
    assert all("台北" in c.text or "演唱" in c.text or "唱會" in c.text for c in first.candidates)
    assert "台北" in first.candidates[0].text and "演唱會" in first.candidates[0].text
    second = source.search("台北 演唱會", limit=20, cursor=first.next_cursor)
    assert second.candidates and not {c.url for c in first.candidates} & {c.url for c in second.candidates}
    assert source.search("zzqx", limit=20).candidates == []
    brief = type("Brief", (), {"intent": "鬼滅之刃", "terms": ("鬼滅之刃", "鬼滅 心得"), "mode": "topic"})()
    outcome = run_scan(brief, [source], history=set(), target=8, on_progress=lambda *_: None,
                       should_cancel=lambda: False)
    assert len(outcome.posts) == 8 and all("鬼滅" in p.text for p in outcome.posts)
