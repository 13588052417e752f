"""Source adapters against a local HTTP server speaking the Threads and SerpApi shapes."""

import json
import logging
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from devstack.infra import free_port
from scout.pipeline.scan import SOURCE_UNAVAILABLE, AllSourcesUnavailable, run_scan
from scout.pipeline.sources import SourceUnavailable, build_sources
from scout.pipeline.sources.dev import DevSource
from scout.pipeline.sources.serp import SerpSource
from scout.pipeline.sources.threads import ThreadsSource
from scout.settings import ScoutSettings

THREADS_TOKEN = "threads-secret-token-123"
SERP_KEY = "serp-secret-key-456"


class Provider:
    """A local server: each path answers with the (status, body, delay) queued for it."""

    def __init__(self):
        self.replies = {}
        self.requests = []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = urlsplit(self.path)
                provider.requests.append((parts.path, parse_qs(parts.query), dict(self.headers)))
                status, body, delay = provider.replies.get(parts.path, (404, "{}", 0))
                time.sleep(delay)
                data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reply(self, path, status, body, delay=0.0):
        self.replies[path] = (status, body, delay)


@pytest.fixture
def provider():
    server = Provider()
    yield server
    server.server.shutdown()
    server.server.server_close()


def threads(provider, timeout=2.0):
    return ThreadsSource(base_url=provider.url + "/v1.0", access_token=THREADS_TOKEN, search_type="TOP",
                         timeout=timeout)


def serp(provider, timeout=2.0):
    return SerpSource(base_url=provider.url, api_key=SERP_KEY, timeout=timeout)


THREADS_PAGE = {
    "data": [
        {"id": "1", "text": "颱風假宣布了，明天台北市停班停課", "permalink": "https://www.threads.net/@mei/post/C8xYz12AbCd",
         "shortcode": "C8xYz12AbCd", "timestamp": "2023-10-17T05:42:03+0000", "username": "mei"},
        {"id": "2", "text": "颱風假的標配：泡麵、零食、追劇", "shortcode": "DAbc123xyZ9", "timestamp": "bad",
         "username": "kai"},
    ],
    "paging": {"cursors": {"before": "b1", "after": "a1"}},
}


def test_threads_keyword_search_request_and_page(provider):
    provider.reply("/v1.0/keyword_search", 200, THREADS_PAGE)
    page = threads(provider).search("颱風假", limit=20, cursor="a0")
    path, query, headers = provider.requests[0]
    assert query["q"] == ["颱風假"] and query["search_type"] == ["TOP"] and query["limit"] == ["20"]
    assert query["after"] == ["a0"]
    assert set(query["fields"][0].split(",")) >= {"id", "text", "permalink", "shortcode", "timestamp", "username"}
    assert THREADS_TOKEN not in path + json.dumps(query)  # the token is not in the URL
    assert headers["Authorization"] == f"Bearer {THREADS_TOKEN}"
    first, second = page.candidates
    assert first.posted_at == datetime(2023, 10, 17, 5, 42, 3, tzinfo=UTC) and first.author == "mei"
    assert second.url == "https://www.threads.net/@kai/post/DAbc123xyZ9" and second.posted_at is None
    assert page.next_cursor == "a1"


def test_serp_request_and_page(provider):
    provider.reply("/search.json", 200, {
        "organic_results": [
            {"link": "https://www.threads.net/@mei/post/C8xYz12AbCd?hl=zh-tw", "title": "mei (@mei) on Threads",
             "snippet": "颱風假宣布了，明天台北市停班停課", "date": "Oct 17, 2023"},
            {"link": "https://www.threads.net/@mei", "title": "mei (@mei) • Threads", "snippet": "Say more"},
        ],
        "serpapi_pagination": {"next": "https://serpapi.com/search.json?start=20"},
    })
    page = serp(provider).search("颱風假", limit=20, cursor="20")
    _path, query, _headers = provider.requests[0]
    assert query["engine"] == ["google"] and query["start"] == ["20"] and query["api_key"] == [SERP_KEY]
    assert query["q"][0].startswith("颱風假 ") and "site:threads.net" in query["q"][0]
    assert page.candidates[0].text == "颱風假宣布了，明天台北市停班停課"
    assert page.candidates[0].posted_at == datetime(2023, 10, 17, tzinfo=UTC)
    assert page.next_cursor == "22"


def test_serp_error_without_results_is_an_empty_page(provider):
    provider.reply("/search.json", 200, {"error": "Google hasn't returned any results for this query."})
    page = serp(provider).search("颱風假", limit=20)
    assert page.candidates == [] and page.next_cursor is None


@pytest.mark.parametrize("status, body, delay, message", [
    (401, {"error": {"message": "Invalid OAuth access token"}}, 0, "HTTP 401"),
    (429, {"error": "rate limited"}, 0, "HTTP 429"),
    (500, "oops", 0, "HTTP 500"),
    (503, "", 0, "HTTP 503"),
    (200, "<html>not json</html>", 0, "malformed"),
    (200, {"unexpected": True}, 0, "malformed"),
    (200, {"data": "nope"}, 0, "malformed"),
    (200, {"data": [], "paging": {}}, 1.5, "timed out"),
])
@pytest.mark.parametrize("kind", ["threads", "serp"])
def test_failures_make_the_source_unavailable_without_leaking_secrets(provider, caplog, kind, status, body, delay,
                                                                      message):
    if kind == "serp" and body == {"data": "nope"}:
        body = {"organic_results": "nope"}
    provider.reply("/v1.0/keyword_search" if kind == "threads" else "/search.json", status, body, delay)
    source = threads(provider, timeout=0.5) if kind == "threads" else serp(provider, timeout=0.5)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(SourceUnavailable) as failure:
        source.search("颱風假", limit=20)
    assert message in str(failure.value)
    for secret in (THREADS_TOKEN, SERP_KEY):
        assert secret not in str(failure.value) and secret not in caplog.text


def test_unreachable_provider_is_unavailable():
    source = ThreadsSource(base_url=f"http://127.0.0.1:{free_port()}", access_token=THREADS_TOKEN,
                           search_type="TOP", timeout=1.0)
    with pytest.raises(SourceUnavailable):
        source.search("颱風假", limit=20)


def test_run_completes_on_the_other_source_and_fails_when_both_are_down(provider, caplog):
    provider.reply("/v1.0/keyword_search", 429, {"error": "rate limited"})
    provider.reply("/search.json", 200, {"organic_results": [
        {"link": "https://threads.com/@mei/post/C8xYz12AbCd/", "snippet": "颱風假宣布了，明天台北市停班停課"}]})
    brief = type("Brief", (), {"intent": "颱風假", "terms": ("颱風假",), "mode": "topic"})()
    caplog.set_level(logging.DEBUG)
    outcome = run_scan(brief, [threads(provider), serp(provider)], history=set(), target=5,
                       on_progress=lambda *_: None, should_cancel=lambda: False)
    assert [p.canonical_id for p in outcome.posts] == ["C8xYz12AbCd"]
    assert SOURCE_UNAVAILABLE in outcome.shortfall_reasons and outcome.source_errors == {"threads": "threads: HTTP 429"}
    provider.reply("/search.json", 502, "bad gateway")
    with pytest.raises(AllSourcesUnavailable):
        run_scan(brief, [threads(provider), serp(provider)], history=set(), target=5,
                 on_progress=lambda *_: None, should_cancel=lambda: False)
    assert THREADS_TOKEN not in caplog.text and SERP_KEY not in caplog.text


def test_build_sources_follows_configuration(monkeypatch):
    base = {"DATABASE_URL": "postgresql://u@localhost/db", "REDIS_URL": "redis://localhost:6379/0"}
    for key, value in base.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("SCOUT_SOURCES", "threads, serp")
    monkeypatch.setenv("SCOUT_THREADS_ACCESS_TOKEN", THREADS_TOKEN)
    monkeypatch.setenv("SCOUT_SERP_API_KEY", SERP_KEY)
    assert [s.name for s in build_sources(ScoutSettings())] == ["threads", "serp"]
    monkeypatch.setenv("SCOUT_SOURCES", "dev")
    assert [s.name for s in build_sources(ScoutSettings())] == ["dev"]
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
