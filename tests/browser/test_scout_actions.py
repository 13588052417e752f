"""Acting on results and on active runs from the /scout workbench (docs/scout.md flows E and F,
3.2 and 5.3): draft / skip / publish keep the result order and move the run's pending count, a run's
pending count covers all its results, cancelling a queued or running run, polling the selected
running run, and the mock repository's page."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.scout_page import ScoutPage, fixture_run

pytestmark = pytest.mark.browser

NEWEST = "1784548800000000000"  # after every fixture run


def now_nanos() -> str:
    return str(time.time_ns())


def extra_run(n: int, *, status: str, target: int = 20, eligible: int = 0, reasons: list[str] | None = None,
              created: str = NEWEST) -> dict:
    done = status in ("succeeded", "failed", "cancelled")
    return {
        "id": fixture_run(n), "job_id": f"00000000-0000-4000-8000-0000000003{n:02d}", "theme_key": f"theme-{n}",
        "theme_label": f"額外批次 {n}", "intent": f"額外批次 {n}", "mode": "topic", "target_count": target,
        "status": status, "searched_count": 300 if done else 0, "duplicate_count": 10 if done else 0,
        "irrelevant_count": 200 if done else 0, "eligible_count": eligible, "shortfall_reasons": reasons or [],
        "created_at": created, "started_at": created if status != "queued" else "0",
        "completed_at": "1784548830000000000" if done else "0",
    }


def extra_post(run_n: int, n: int, status: str) -> dict:
    return {
        "id": f"00000000-0000-4000-8000-0000000004{n:02d}", "run_id": fixture_run(run_n), "theme_key": f"theme-{run_n}",
        "url": f"https://www.threads.net/@writer{n}/post/X{n:02d}", "author": f"writer{n}",
        "text": f"第 {n} 則結果", "match_reason": "命中：額外批次", "score": 0.99 - n / 100,
        "posted_at": str(1782882000000000000 - n * 60_000_000_000), "created_at": "1784548830000000000",
        "outreach_status": status,
    }


def detail_count(page, term: str):
    return page.locator("#run-detail dt", has_text=term).locator("xpath=following-sibling::dd[1]")


def test_draft_skip_and_publish_keep_the_order_and_move_the_pending_count(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    order = scout.posts_ids_of(1, 3, 2, 5, 4, 8, 7, 6)
    assert scout.post_ids() == order
    expect(scout.run(2)).to_contain_text("待處理：6")
    detail = page.locator("#post-detail")

    # Result 1 (new) is selected: draft keeps it pending, publish takes it out.
    detail.get_by_label("回覆草稿").fill("謝謝分享，無限城篇我也很期待！")
    detail.get_by_role("button", name="草擬", exact=True).click()
    expect(page.locator("#post-message")).to_have_text("已儲存草稿。")
    expect(scout.post(1)).to_contain_text("已草擬")
    expect(scout.run(2)).to_contain_text("待處理：6")
    detail.get_by_role("button", name="發佈", exact=True).click()
    expect(page.locator("#post-message")).to_have_text("已發佈回覆。")
    expect(scout.post(1)).to_contain_text("已發佈")
    expect(scout.run(2)).to_contain_text("待處理：5")
    expect(detail_count(page, "待處理")).to_have_text("5")
    assert scout.post_ids() == order
    expect(scout.post(1)).to_have_attribute("aria-pressed", "true")

    # Skipping result 3 leaves it where it is, selected.
    scout.post(3).click()
    detail.get_by_role("button", name="略過", exact=True).click()
    expect(scout.post(3)).to_contain_text("已略過")
    expect(scout.run(2)).to_contain_text("待處理：4")
    expect(detail_count(page, "待處理")).to_have_text("4")
    assert scout.post_ids() == order
    expect(scout.post(3)).to_have_attribute("aria-pressed", "true")
    run = member.http.get(f"/api/v1/scout/runs/{scout_seed.id(fixture_run(2))}").json()["data"]
    assert run["pending_count"] == 4


def test_deleting_the_only_result_of_a_run_that_met_its_target_shows_why_it_falls_short(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(4)
    scout.delete_selected_post()
    expect(page.locator("#run-message")).to_have_text("已刪除結果。")
    expect(page.locator("#run-message")).to_be_in_viewport()
    expect(scout.run(4).locator("xpath=../p[contains(@class, 'shortfall')]")).to_have_text(
        "不足 1 筆：已刪除部分結果，低於目標數")
    expect(page.locator("#run-detail .shortfall li")).to_have_text(["已刪除部分結果，低於目標數"])
    expect(page.locator("#posts")).to_contain_text("這個批次沒有結果。")
    expect(page.locator("#run-heading")).to_be_focused()


def test_the_pending_count_of_a_run_covers_all_its_results_not_one_page(page, member, scout_seed):
    # A run of 27 results: 6 new and 3 drafted are pending, the rest skipped or published.
    statuses = ["new"] * 6 + ["drafted"] * 3 + ["skipped"] * 9 + ["published"] * 9
    scout_seed.add([extra_run(99, status="succeeded", target=27, eligible=27)],
                   [extra_post(99, n, status) for n, status in enumerate(reversed(statuses), start=1)])
    scout = ScoutPage(page, scout_seed).open(member)
    expect(scout.run(99)).to_contain_text("待處理：9")
    expect(scout.run(99)).to_contain_text("目標／實得：27／27")
    scout.select_run(99)
    expect(scout.posts_pager).to_contain_text("第 1／4 頁（共 27 筆）")
    expect(detail_count(page, "待處理")).to_have_text("9")
    # Three quick presses of "next" while pages load: none is lost.
    next_page = page.get_by_role("button", name="結果下一頁")
    for _ in range(3):
        next_page.click()
    expect(scout.posts_pager).to_contain_text("第 4／4 頁（共 27 筆）")
    expect(page.locator("#posts")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#posts button[data-post-id]")).to_have_count(3)
    expect(scout.run(99)).to_contain_text("待處理：9")


def test_cancelling_a_running_run_flags_its_job_and_keeps_focus(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(1)
    cancel = page.locator("#run-detail [data-action=cancel]")
    expect(cancel).to_have_text("取消任務")
    cancel.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#run-message")).to_have_text("已要求取消任務，目前階段結束後停止。")
    expect(cancel).to_have_text("已要求取消")
    expect(cancel).to_have_attribute("aria-disabled", "true")
    expect(page.locator("[data-testid=run-progress]")).to_contain_text("已要求取消")
    assert page.evaluate("() => document.activeElement.dataset.action") == "cancel"
    job = member.http.get(f"/api/v1/jobs/{scout_seed.id('00000000-0000-4000-8000-000000000301')}").json()["data"]
    assert job["cancel_requested"] is True and job["status"] == "running"
    expect(scout.run(1)).to_contain_text("執行中")


def test_cancelling_a_queued_run_ends_it_at_once_in_its_row_and_detail(page, member, scout_seed):
    # Queued just now: the scheduling watchdog fails only jobs queued past its timeout.
    scout_seed.add([extra_run(98, status="queued", target=5, created=now_nanos())], [])
    scout = ScoutPage(page, scout_seed).open(member)
    expect(scout.run(98)).to_contain_text("等待中")
    scout.select_run(98)
    page.locator("#run-detail").get_by_role("button", name="取消任務").click()
    expect(page.locator("#run-message")).to_have_text("已取消任務。")
    expect(scout.run(98)).to_contain_text("已取消")
    expect(page.locator("#run-detail dl")).to_contain_text("已取消")
    expect(page.locator("#run-detail [data-action=cancel]")).to_have_count(0)
    run = member.http.get(f"/api/v1/scout/runs/{scout_seed.id(fixture_run(98))}").json()["data"]
    assert run["status"] == "cancelled"


def test_polling_the_selected_running_run_updates_its_row_and_detail(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(1)
    expect(scout.run(1)).to_contain_text("目標／實得：1／0")
    # The worker records its counts so far on the job and the run.
    scout_seed.execute("UPDATE scout.runs SET eligible_count = 1, searched_count = 25 WHERE id = :id",
                       id=scout_seed.id(fixture_run(1)))
    scout_seed.execute("UPDATE scout.jobs SET progress_eligible = 1, progress_searched = 25 WHERE id = :id",
                       id=scout_seed.id("00000000-0000-4000-8000-000000000301"))
    expect(scout.run(1)).to_contain_text("目標／實得：1／1")
    expect(detail_count(page, "目標／實得")).to_have_text("1／1")
    expect(detail_count(page, "已檢視候選")).to_have_text("25")
    expect(page.locator("[data-testid=run-progress]")).to_contain_text("合格 1／目標 1")
    expect(scout.run(1)).to_have_attribute("aria-pressed", "true")
    # The page words the job's step from its data: filtering after stage 1, then stage 2.
    expect(page.locator("[data-testid=run-progress]")).to_contain_text("第 1 階段搜尋")
    job = scout_seed.id("00000000-0000-4000-8000-000000000301")
    scout_seed.execute("UPDATE scout.jobs SET progress_stage = 'filtering', progress = 'stage 1 search' WHERE id = :id",
                       id=job)
    expect(page.locator("[data-testid=run-progress]")).to_contain_text("執行中：篩選／去重")
    scout_seed.execute("UPDATE scout.jobs SET progress_stage = 'searching', progress_stage_number = 2 WHERE id = :id",
                       id=job)
    expect(page.locator("[data-testid=run-progress]")).to_contain_text("執行中：第 2 階段搜尋")


def test_the_mock_repository_page_shows_the_jobs_progress(page, platform):
    page.goto(f"{platform.gateway_url}/scout?repository=mock&poll=200")
    run = page.locator('#runs button[data-run-id="00000000-0000-4000-8000-000000000101"]')
    run.click()
    progress = page.locator("[data-testid=run-progress]")
    expect(progress).to_contain_text("第 1 階段搜尋（合格 0／目標 1）")
    assert "undefined" not in page.locator("body").inner_text()
