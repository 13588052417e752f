"""The evaluation's search engines (make eval-scout): both sources made of one group's candidates,
each request answering the next ≤ 20 for its query by lexical overlap, so every candidate is reachable."""

import importlib.util
import sys
from pathlib import Path

import pytest

from scout.pipeline.sources.lexical import overlap, query_grams
from scout.pipeline.sources.serp import SerpSource
from scout.pipeline.sources.threads import ThreadsSource

EVALUATE = Path(__file__).parents[2] / "eval" / "evaluate.py"


def _evaluate_module():
    spec = importlib.util.spec_from_file_location("scout_evaluate", EVALUATE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


evaluate = _evaluate_module()

TERM = "珍珠奶茶 推薦"
ON_TOPIC = "台中這家珍珠奶茶推薦給大家，珍珠QQ的 第{n}杯"
PARTLY = "今天喝了奶茶 第{n}杯"
OFF_TOPIC = "週末去爬山，天氣很好 第{n}次"


def candidates() -> list[dict]:
    """45 posts in an order unrelated to the query: none, some and full overlap interleaved."""
    texts = [(OFF_TOPIC, PARTLY, ON_TOPIC)[i % 3].format(n=i) for i in range(45)]
    return [{"url": f"https://www.threads.net/@u{i}/post/Eval{i:05d}?xmt=x{i}", "author": f"u{i}", "text": text,
             "posted_at": f"2026-07-{i % 28 + 1:02d}T08:00:00Z", "relevant": False} for i, text in enumerate(texts)]


@pytest.fixture(scope="module")
def search():
    api = evaluate.GroupSearch()
    api.show(candidates())
    yield api
    api.close()


def pages(source, query: str) -> list[list]:
    found, cursor = [], None
    while True:
        page = source.search(query, limit=50, cursor=cursor)  # asks for more than a request may return
        found.append(page.candidates)
        if page.next_cursor is None:
            return found
        cursor = page.next_cursor


@pytest.mark.parametrize("provider", ["threads", "serp"])
def test_every_candidate_is_reachable_in_pages_of_at_most_20_by_overlap(search, provider):
    source = (ThreadsSource(base_url=f"{search.url}/v1.0", access_token="t", search_type="TOP", timeout=5)
              if provider == "threads" else SerpSource(base_url=search.url, api_key="k", timeout=5))
    found = pages(source, TERM)
    # Google gives about 10 results a page whatever is asked (SerpApi's `num` has no effect)
    assert [len(p) for p in found] == ([20, 20, 5] if provider == "threads" else [10, 10, 10, 10, 5])
    urls = [c.url for page in found for c in page]
    assert sorted(urls) == sorted(c["url"] for c in candidates())  # each once, none missing
    grams = query_grams(TERM)
    scores = [overlap(grams, c.text) for page in found for c in page]
    assert scores == sorted(scores, reverse=True) and scores[-1] == 0  # no overlap last, still returned


def test_both_providers_answer_the_same_order_with_the_labeled_times(search):
    threads = ThreadsSource(base_url=f"{search.url}/v1.0", access_token="t", search_type="TOP", timeout=5)
    serp = SerpSource(base_url=search.url, api_key="k", timeout=5)
    first_threads, first_serp = threads.search(TERM, limit=20), serp.search(TERM, limit=20)
    serp_urls = [c.url for c in first_serp.candidates]
    assert [c.url for c in first_threads.candidates][:len(serp_urls)] == serp_urls
    by_url = {c["url"]: c for c in candidates()}
    for candidate in first_threads.candidates:
        labeled = by_url[candidate.url]["posted_at"]
        assert candidate.posted_at.isoformat().replace("+00:00", "Z") == labeled
    # SerpApi shows the day only
    pairs = zip(first_serp.candidates, first_threads.candidates)
    assert all(s.posted_at.date() == t.posted_at.date() for s, t in pairs)


@pytest.mark.parametrize("provider", ["threads", "serp"])
def test_the_in_process_sources_answer_the_pages_the_search_server_does(search, provider):
    served = (ThreadsSource(base_url=f"{search.url}/v1.0", access_token="t", search_type="TOP", timeout=5)
              if provider == "threads" else SerpSource(base_url=search.url, api_key="k", timeout=5))
    local = evaluate.candidate_sources(candidates())[0 if provider == "threads" else 1]
    for query in (TERM, "奶茶", "爬山 天氣"):
        expected, found = pages(served, query), pages(local, query)
        assert [[(c.url, c.text, c.author, c.posted_at) for c in page] for page in found] == \
            [[(c.url, c.text, c.author, c.posted_at) for c in page] for page in expected]
