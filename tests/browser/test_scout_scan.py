"""A scan created from the /scout page runs through the real job, worker and dev source and
reaches its results, while the run being read stays selected."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.scout_page import ScoutPage

pytestmark = pytest.mark.browser


def test_a_scan_created_from_the_page_reaches_its_results(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    page.get_by_label("話題").fill("周杰倫演唱會")
    page.get_by_role("button", name="建議搜尋詞").click()
    terms = page.get_by_label("搜尋詞（每行一個，可修改）")
    # The service proposes the topic's concepts set apart, then the singer alone and by the other names.
    expect(terms).to_have_value(re.compile(r"^周杰倫 演唱會\n周杰倫\n(.+\n)*周董(\n|$)"))
    terms.fill("周杰倫演唱會\n周董 演唱會")
    page.get_by_label("目標數（1–40）").fill("5")
    page.get_by_role("button", name="開始海巡").click()

    created = page.locator("#created-runs li")
    expect(created).to_have_count(1, timeout=30_000)
    expect(page.locator("#scan-message")).to_contain_text("已建立海巡批次")
    run_id = created.get_attribute("data-created-run-id")
    # The line follows its run: waiting, running, then done.
    expect(created.locator(".status")).to_have_text(re.compile("^(等待中|執行中|已完成|完成但不足)$"))
    # The run being read is untouched.
    expect(scout.run(2)).to_have_attribute("aria-pressed", "true")
    expect(scout.posts_pager).to_contain_text("第 1／2 頁（共 11 筆）")

    created.get_by_role("button", name="查看").click()
    expect(page.locator("#run-detail .run-title")).to_have_text("周杰倫演唱會")
    expect(page.locator("#run-detail")).to_contain_text("周杰倫演唱會、周董 演唱會")
    results = page.locator("#posts button[data-post-id]")
    expect(results.first).to_be_visible(timeout=90_000)
    run = member.http.get(f"/api/v1/scout/runs/{run_id}").json()["data"]
    assert run["status"] == "succeeded" and run["eligible_count"] >= 1, run
    assert run["terms"] == ["周杰倫演唱會", "周董 演唱會"] and run["target_count"] == 5
    expect(results).to_have_count(min(run["eligible_count"], 8))
    first = results.first.inner_text()
    assert "周杰倫" in first or "周董" in first
    assert "貼文時間" in first and "符合原因：" in first
    expect(page.locator("#run-detail")).to_contain_text(f"5／{run['eligible_count']}")
