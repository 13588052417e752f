"""The staged search of flow B: stage order, limits, dedup, stop at target, shortfall, failures."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from scout.pipeline.scan import (
    DUPLICATE_EXHAUSTED, FILTERING, LIMIT_REACHED, MAX_RAW_PER_RUN, PREPARING, RELEVANCE_EXHAUSTED, SEARCHING,
    SOURCE_EXHAUSTED, SOURCE_UNAVAILABLE,
    AllSourcesUnavailable, ScanCancelled, result_order_key, run_scan)
from scout.pipeline.sources.base import FailureKind, RawCandidate, SearchPage, SourceUnavailable

NOW = datetime(2026, 8, 10, tzinfo=UTC)


@dataclass(frozen=True)
class Brief:
    intent: str
    terms: tuple[str, ...]
    mode: str = "topic"


def post(code, body, *, host="www.threads.net", query="", hours=1):
    return RawCandidate(url=f"https://{host}/@writer/post/{code}{query}", text=body, author="writer",
                        posted_at=NOW - timedelta(hours=hours) if hours is not None else None)


def on_topic(code, **kwargs):
    return post(code, f"颱風假宣布了，明天停班停課，第{code}篇心得", **kwargs)


def off_topic(code):
    return post(code, f"今天午餐吃了牛肉麵，味道普通，第{code}篇")


class ScriptedSource:
    """Answers each (query, page number) from a script and records every request."""

    def __init__(self, name, pages_by_query=None, fail=False):
        self.name = name
        self.pages_by_query = pages_by_query or {}
        self.fail = fail
        self.requests = []

    def search(self, query, *, limit, cursor=None, window=None):
        self.requests.append((query, cursor, limit))
        if self.fail:
            raise SourceUnavailable(self.name, FailureKind.TRANSIENT, "HTTP 503")
        pages = self.pages_by_query.get(query, [])
        index = int(cursor or 0)
        page = pages[index] if index < len(pages) else []
        return SearchPage(candidates=page, next_cursor=str(index + 1) if index + 1 < len(pages) else None)


def scan(brief, sources, *, history=None, target=20, cancel=lambda: False, progress=None):
    return run_scan(brief, sources, history=history or set(), target=target,
                    on_progress=progress if progress is not None else (lambda *_: None),
                    should_cancel=cancel, now=NOW)


def test_stage_one_raw_count_reaching_target_does_not_stop_the_run():
    # Given target 20 and a first stage of 20 raw candidates of which 7 pass
    first = [on_topic(f"A{i:04d}") for i in range(7)] + [off_topic(f"B{i:04d}") for i in range(13)]
    second = [on_topic(f"C{i:04d}") for i in range(20)]
    primary = ScriptedSource("primary", {"颱風假": [first, second]})
    # When the pipeline counts what is eligible
    outcome = scan(Brief("颱風假", ("颱風假",)), [primary], target=20)
    # Then it went on to stage 2 and stopped once 20 were eligible
    assert [r[1] for r in primary.requests] == [None, "1"]
    assert len(outcome.posts) == 20 and outcome.shortfall_count == 0
    assert outcome.counts.eligible == 20 and outcome.counts.rejected == 13
    # the whole second page was judged (27 passed); the best 20 are kept
    assert outcome.counts.raw == 40 and outcome.rejections == {"off_topic": 13}
    assert outcome.shortfall_reasons == []


def test_a_stage_is_one_fan_out_and_the_best_scored_posts_are_kept():
    # Given two terms whose first pages each hold enough eligible posts for the target, the second
    # term's posts writing the whole topic more fully
    brief = Brief("颱風假 停班停課", ("颱風假", "停班停課"))
    thin = [post(f"A{i:04d}", f"颱風假耶，第{i}篇") for i in range(5)]
    full = [post(f"B{i:04d}", f"颱風假宣布了，明天停班停課，整理一下各縣市的公告，第{i}篇") for i in range(5)]
    primary = ScriptedSource("primary", {"颱風假": [thin], "停班停課": [full]})
    # When the run meets its target within stage 1
    outcome = scan(brief, [primary], target=5)
    # Then every term of the stage was asked, no later stage, and the better-scored posts are kept
    assert [r[0] for r in primary.requests] == ["颱風假", "停班停課"]
    assert outcome.shortfall_count == 0 and outcome.counts.raw == 10
    assert {p.canonical_id for p in outcome.posts} == {f"B{i:04d}" for i in range(5)}


def test_stages_in_order_with_intent_queries_for_a_single_activity_term_and_page_limits():
    primary = ScriptedSource("primary", {"颱風假": [[off_topic(f"P{i:04d}") for i in range(25)]] * 2})
    secondary = ScriptedSource("secondary", {"颱風假": [[on_topic("S0001")]]})
    outcome = scan(Brief("颱風假 停班停課", ("颱風假",), mode="activity"), [primary, secondary], target=5)
    queries = [q for q, _c, _l in primary.requests]
    # stage 1 and stage 2 on the term, then at most four short queries from the intent
    assert queries[:2] == ["颱風假", "颱風假"] and primary.requests[1][1] == "1"
    assert 1 <= len(queries[2:]) <= 4 and "颱風假" not in queries[2:]
    # stage 3: the secondary source, after everything on the primary
    assert [q for q, _c, _l in secondary.requests] == ["颱風假"]
    assert all(limit == 20 for _q, _c, limit in primary.requests + secondary.requests)
    # never more than 20 raw per term/source/stage, even when a source sends more
    assert outcome.counts.raw == 20 + 20 + 1
    assert list(outcome.stage_ms) == ["stage 1", "stage 2", "stage 2 intent queries", "stage 3"]
    assert outcome.shortfall_count == 4 and SOURCE_EXHAUSTED in outcome.shortfall_reasons
    assert RELEVANCE_EXHAUSTED in outcome.shortfall_reasons


def test_no_intent_queries_when_several_terms_were_approved():
    primary = ScriptedSource("primary", {})
    scan(Brief("颱風假 停班停課", ("颱風假", "停班停課"), mode="activity"), [primary], target=5)
    assert [q for q, _c, _l in primary.requests] == ["颱風假", "停班停課"]  # no second page was promised


@pytest.mark.parametrize("mode", ["topic", "brand"])
def test_no_intent_queries_outside_activity_mode(mode):
    primary = ScriptedSource("primary", {"颱風假": [[off_topic("P0000001")], [off_topic("P0000002")]]})
    outcome = scan(Brief("颱風假 停班停課", ("颱風假",), mode=mode), [primary], target=5)
    assert [q for q, _c, _l in primary.requests] == ["颱風假", "颱風假"]
    assert list(outcome.stage_ms) == ["stage 1", "stage 2"]


def test_raw_candidates_are_capped_per_run():
    terms = tuple(f"颱風假{i}" for i in range(10))
    pages = {t: [[off_topic(f"{n}{t[-1]}{i:03d}") for i in range(20)] for n in "XY"] for t in terms}
    primary = ScriptedSource("primary", pages)
    outcome = scan(Brief("颱風假", terms), [primary], target=40)
    assert outcome.counts.raw == MAX_RAW_PER_RUN
    assert LIMIT_REACHED in outcome.shortfall_reasons and SOURCE_EXHAUSTED not in outcome.shortfall_reasons


def test_exactly_the_cap_of_raw_candidates_reports_limit_reached_and_asks_nothing_more():
    # Given 8 terms of two full pages each: exactly 320 raw candidates by the end of stage 2
    terms = tuple(f"颱風假{i}" for i in range(8))
    pages = {t: [[off_topic(f"{n}{t[-1]}{i:03d}") for i in range(20)] for n in "XY"] for t in terms}
    primary = ScriptedSource("primary", pages)
    secondary = ScriptedSource("secondary", {t: [[on_topic(f"S{t[-1]}0001")]] for t in terms})
    outcome = scan(Brief("颱風假", terms), [primary, secondary], target=40)
    # Then the run stops at the cap: no stage-3 request, and the shortfall says why
    assert outcome.counts.raw == MAX_RAW_PER_RUN and len(primary.requests) == 16
    assert secondary.requests == []
    assert LIMIT_REACHED in outcome.shortfall_reasons and SOURCE_EXHAUSTED not in outcome.shortfall_reasons


def test_url_variants_within_the_run_and_history_are_duplicates():
    page = [
        on_topic("Dup00001"),
        on_topic("Dup00001", host="threads.net", query="?xmt=abc"),
        on_topic("Dup00001", host="www.threads.com", query="/"),
        on_topic("Seen0001"),
        on_topic("New00001"),
        RawCandidate(url="https://www.threads.net/@writer", text="颱風假 profile", author="writer"),
    ]
    primary = ScriptedSource("primary", {"颱風假": [page]})
    outcome = scan(Brief("颱風假", ("颱風假",)), [primary], history={"Seen0001"}, target=10)
    assert sorted(p.canonical_id for p in outcome.posts) == ["Dup00001", "New00001"]
    assert outcome.counts.duplicates == 3 and outcome.counts.rejected == 1
    assert DUPLICATE_EXHAUSTED in outcome.shortfall_reasons


def test_one_source_down_the_run_completes_on_the_other():
    primary = ScriptedSource("primary", fail=True)
    secondary = ScriptedSource("secondary", {"颱風假": [[on_topic("S0000001")]]})
    outcome = scan(Brief("颱風假", ("颱風假",)), [primary, secondary], target=3)
    assert len(primary.requests) == 1  # dropped after its failure, never retried
    assert [p.canonical_id for p in outcome.posts] == ["S0000001"]
    assert SOURCE_UNAVAILABLE in outcome.shortfall_reasons and "primary" in outcome.source_errors


def test_all_sources_down_fails_the_run():
    with pytest.raises(AllSourcesUnavailable):
        scan(Brief("颱風假", ("颱風假",)), [ScriptedSource("a", fail=True), ScriptedSource("b", fail=True)])
    with pytest.raises(AllSourcesUnavailable):
        scan(Brief("颱風假", ("颱風假",)), [])


def test_cancellation_is_honoured_before_the_next_request():
    calls = iter([False, True])
    primary = ScriptedSource("primary", {"颱風假": [[off_topic("Q0000001")], [off_topic("Q0000002")]]})
    with pytest.raises(ScanCancelled):
        scan(Brief("颱風假", ("颱風假",)), [primary], cancel=lambda: next(calls, True))
    assert len(primary.requests) == 1


def test_results_are_ordered_by_score_then_known_time_and_unknown_times_stay_unknown():
    page = [
        on_topic("Old00001", hours=24 * 400),
        on_topic("New00001", hours=2),
        on_topic("Unknown1", hours=None),
        post("Future01", "颱風假宣布了，明天停班停課", hours=-24 * 30),  # a time from the future is unknown
    ]
    primary = ScriptedSource("primary", {"颱風假": [page]})
    outcome = scan(Brief("颱風假", ("颱風假",)), [primary], target=10)
    by_id = {p.canonical_id: p for p in outcome.posts}
    assert by_id["Unknown1"].posted_at is None and by_id["Future01"].posted_at is None
    assert by_id["Old00001"].posted_at is not None  # old posts are kept, only scored lower
    assert by_id["New00001"].score > by_id["Old00001"].score
    keys = [result_order_key(p.score, p.posted_at, p.canonical_id) for p in outcome.posts]
    assert keys == sorted(keys)


def test_equal_scores_put_known_times_first_newest_first():
    a, b, c = NOW - timedelta(days=1), NOW - timedelta(days=2), None
    ordered = sorted([(0.5, c, "c"), (0.5, b, "b"), (0.5, a, "a"), (0.9, c, "z")],
                     key=lambda r: result_order_key(*r))
    assert [r[2] for r in ordered] == ["z", "a", "b", "c"]


def test_progress_names_the_stages_as_data_and_carries_the_counts_so_far():
    steps = []
    page = [on_topic("P0000001"), on_topic("P0000001", host="threads.net"), off_topic("P0000002"),
            on_topic("P0000003")]
    primary = ScriptedSource("primary", {"颱風假": [page]})
    scan(Brief("颱風假", ("颱風假",)), [primary], target=1, progress=lambda step, counts: steps.append((step, counts)))
    stages = [(step.stage, step.stage_number) for step, _c in steps]
    assert stages == [(PREPARING, 0), (SEARCHING, 1), (FILTERING, 1)]
    assert steps[0][1].raw == 0
    step, counts = steps[-1]
    assert step.summary == "filter and dedup after stage 1: 1/1 eligible"
    # the whole page was judged; eligible is shown against the target, never above it
    assert (counts.raw, counts.duplicates, counts.rejected, counts.eligible) == (4, 1, 1, 1)


def test_the_intent_queries_and_the_secondary_source_report_their_stage_numbers():
    steps = []
    primary = ScriptedSource("primary", {})
    secondary = ScriptedSource("secondary", {})
    brief = Brief("外包後端工程師", ("外包後端工程師",), mode="activity")
    scan(brief, [primary, secondary], target=5, progress=lambda step, counts: steps.append(step))
    searched = [step.stage_number for step in steps if step.stage == SEARCHING]
    assert searched[0] == 1 and searched[-1] == 3 and set(searched) <= {1, 2, 3} and 2 in searched


def test_posts_writing_a_long_term_whole_make_up_a_shortfall_after_the_others():
    # Given a request whose signature 3 posts meet and 3 more only write an approved term whole
    brief = Brief("素食拉麵 名店", ("素食拉麵", "拉麵 名店"))
    full = [post(f"F{i:04d}", f"素食拉麵第{i}家名店好好吃，湯頭清甜") for i in range(3)]
    weak = [post(f"W{i:04d}", f"拉麵名店第{i}家排隊好久，叉燒很厚") for i in range(3)]
    primary = ScriptedSource("primary", {"素食拉麵": [full], "拉麵 名店": [weak]})
    # When the target is 5, then 4
    made_up = scan(brief, [primary], target=5)
    # Then the shortfall is made up by the weak posts, ranked after every other, the rest off topic
    assert [p.canonical_id[:1] for p in made_up.posts] == ["F", "F", "F", "W", "W"]
    assert max(p.score for p in made_up.posts[3:]) < min(p.score for p in made_up.posts[:3])
    assert made_up.posts[3].match_reason == "命中搜尋詞：拉麵 名店"
    assert made_up.counts.eligible == 5 and made_up.rejections == {"off_topic": 1} and made_up.shortfall_reasons == []
    # and when the signature's posts meet the target, no weak post is shown
    met = scan(brief, [primary], target=3)
    assert [p.canonical_id[:1] for p in met.posts] == ["F", "F", "F"] and met.rejections == {"off_topic": 3}
