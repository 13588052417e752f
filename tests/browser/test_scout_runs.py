"""Runs on /scout past the first minutes: the first scan of a new member shows at once, a refused
topic says the service's reason, other runs' status chips follow their runs, a failed run says why
and can run again, a run shows its search terms, and a shortfall is not shown as a success."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.scout_page import ScoutPage, fixture_run
from tests.browser.test_scout_actions import extra_run, now_nanos

pytestmark = pytest.mark.browser


def test_the_first_scan_of_a_new_member_shows_the_new_run(page, member):
    member.sign_in(page)
    page.goto(f"{member.base_url}/scout?poll=400")
    expect(page.locator("#runs")).to_contain_text("還沒有海巡批次")
    page.get_by_label("話題").fill("周杰倫演唱會")
    page.get_by_label("目標數（1–40）").fill("2")
    page.get_by_role("button", name="開始海巡").click()
    expect(page.locator("#scan-message")).to_contain_text("已建立海巡批次", timeout=30_000)
    # Nothing was selected, so there is nothing to keep in place: the new run is listed and chosen.
    run = page.locator("#runs button[data-run-id]")
    expect(run).to_have_count(1)
    expect(run).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#runs")).not_to_contain_text("還沒有海巡批次")
    expect(page.locator("#run-detail .run-title")).to_have_text("周杰倫演唱會")
    expect(page.locator("#new-runs-hint")).to_be_hidden()
    expect(page.locator("#posts button[data-post-id]").first).to_be_visible(timeout=90_000)
    expect(page.locator("#new-runs-hint")).to_be_hidden()


def test_a_refused_topic_shows_the_services_reason(page, member, scout_seed):
    ScoutPage(page, scout_seed).open(member)
    page.get_by_label("話題").fill("推薦 心得")
    page.get_by_role("button", name="開始海巡").click()
    message = page.locator("#scan-message")
    expect(message).to_contain_text("話題或搜尋詞無法接受：")
    expect(message).to_contain_text("推薦")
    expect(message).not_to_contain_text("請檢查話題、搜尋詞與目標數")
    expect(page.get_by_label("話題")).to_be_focused()
    assert member.http.get("/api/v1/scout/runs").json()["data"]["pagination"]["total"] == 14


def test_other_runs_status_chips_follow_their_runs_without_a_refresh(page, member, scout_seed):
    scout_seed.add([extra_run(97, status="queued", target=3, created=now_nanos())], [])
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    expect(scout.run(97)).to_contain_text("等待中")
    # The run starts and ends while the person reads run 2.
    run_id = scout_seed.id(fixture_run(97))
    scout_seed.execute("UPDATE scout.runs SET status = 'running', started_at = now() WHERE id = :id", id=run_id)
    expect(scout.run(97)).to_contain_text("執行中")
    scout_seed.execute("UPDATE scout.runs SET status = 'succeeded', eligible_count = 3, completed_at = now()"
                       " WHERE id = :id", id=run_id)
    expect(scout.run(97)).to_contain_text("已完成")
    expect(scout.run(97)).to_contain_text("目標／實得：3／3")
    # The reading stays where it was.
    expect(scout.run(2)).to_have_attribute("aria-pressed", "true")
    expect(scout.posts_pager).to_contain_text("第 1／2 頁（共 11 筆）")


def test_a_run_says_in_the_members_words_why_a_source_answered_nothing(page, member, scout_seed):
    short = {**extra_run(96, status="succeeded", target=5, eligible=3, reasons=["source_unavailable"],
                         created=now_nanos()),
             "source_failures": [{"source": "threads", "kind": "quota_exhausted"}]}
    failed = {**extra_run(95, status="failed", created=now_nanos()),
              "error_summary": "every search source was unavailable",
              "source_failures": [{"source": "serp", "kind": "rate_limited"}, {"source": "threads", "kind": "auth"}]}
    scout_seed.add([short, failed], [])
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(96)
    detail = page.locator("#run-detail")
    expect(detail).to_contain_text("有搜尋來源暫時無法使用，已由其他來源完成")
    expect(detail.locator(".source-failures li")).to_have_text(["Threads 搜尋：搜尋額度已用完"])
    scout.select_run(95)
    expect(detail).to_contain_text("失敗原因：所有搜尋來源都暫時無法使用。")
    expect(detail.locator(".source-failures li")).to_have_text(
        ["Google 搜尋：請求太頻繁，暫時被限制", "Threads 搜尋：存取憑證無效或已過期，需由管理者更新"])
    for code in ("quota_exhausted", "rate_limited", "auth", "serp", "threads"):
        expect(detail).not_to_contain_text(code)


def test_a_failed_run_says_why_and_runs_again(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(7)
    run_detail = page.locator("#run-detail")
    expect(run_detail).to_contain_text("失敗原因：所有搜尋來源都暫時無法使用。")
    expect(run_detail).not_to_contain_text("every search source")
    expect(run_detail.locator("dt", has_text="搜尋詞").locator("xpath=following-sibling::dd[1]")).to_have_text("日本自由行")
    run_detail.get_by_role("button", name="再執行一次").click()
    expect(page.locator("#run-message")).to_contain_text("已用相同設定建立新的海巡批次")
    created = page.locator("#created-runs li")
    expect(created).to_have_count(1)
    expect(created).to_contain_text("日本自由行")
    new_id = created.get_attribute("data-created-run-id")
    run = member.http.get(f"/api/v1/scout/runs/{new_id}").json()["data"]
    assert run["id"] != scout_seed.id(fixture_run(7))
    assert (run["intent"], run["terms"], run["target_count"]) == ("日本自由行", ["日本自由行"], 1)
    # The run being read is still the failed one.
    expect(scout.run(7)).to_have_attribute("aria-pressed", "true")


def test_a_run_shows_its_search_terms_and_a_shortfall_is_not_green(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(1)
    terms = page.locator("#run-detail dt", has_text="搜尋詞").locator("xpath=following-sibling::dd[1]")
    expect(terms).to_have_text("外包 後端工程師、後端 外包")
    chip = scout.run(3).locator(".status")
    expect(chip).to_have_text("完成但不足")
    done = scout.run(4).locator(".status")
    expect(done).to_have_text("已完成")
    color = "el => getComputedStyle(el).color"
    assert chip.evaluate(color) != done.evaluate(color)
