"""The /scout workbench's UI scenarios of docs/scout.md 9 and flows D, E, F, in Chromium against the
real gateway and scout service, on the seeded fixture (13 runs and one legacy run; run 2 holds 11
results)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.scout_page import LEGACY_THEME, ScoutPage

pytestmark = pytest.mark.browser


def test_runs_are_newest_first_and_a_finished_background_run_only_shows_a_hint(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    # Given the run list: created_at DESC, id DESC (runs 5 and 6 share a creation time).
    assert scout.run_ids() == scout.runs_ids_of(1, 2, 3, 4, 6, 5, 7, 8, 9, 10)
    expect(scout.runs_pager).to_contain_text("第 1／2 頁（共 14 筆）")
    # And the person reads run 12 on the second run page.
    scout.runs_next()
    expect(scout.runs_pager).to_contain_text("第 2／2 頁（共 14 筆）")
    scout.select_run(12)
    # When a run started elsewhere finishes.
    response = member.http.post("/api/v1/scout/scan", json={"brief": {
        "intent": "台北咖啡廳", "terms": ["台北咖啡廳"], "target_count": 1}})
    assert response.status_code == 200, response.text
    new_run = response.json()["data"]["run"]["id"]
    hint = page.locator("#new-runs-hint")
    expect(hint).to_be_visible(timeout=60_000)
    # Then only the hint shows: same page, same rows, same selection.
    assert member.http.get(f"/api/v1/scout/runs/{new_run}").json()["data"]["status"] in (
        "succeeded", "failed", "cancelled")
    expect(scout.runs_pager).to_contain_text("第 2／2 頁（共 14 筆）")
    assert scout.run_ids() == [*scout.runs_ids_of(11, 12, 13), scout_seed.legacy_run_id(LEGACY_THEME)]
    expect(scout.run(12)).to_have_attribute("aria-pressed", "true")
    # When the person refreshes, the new first page shows the new run first.
    hint.get_by_role("button", name="重新整理批次").click()
    expect(scout.runs_pager).to_contain_text("第 1／2 頁（共 15 筆）")
    assert scout.run_ids()[0] == new_run
    expect(hint).to_be_hidden()


def test_run_pager_and_result_pager_keep_separate_state(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    expect(scout.posts_pager).to_contain_text("第 1／2 頁（共 11 筆）")
    scout.posts_next()
    expect(scout.posts_pager).to_contain_text("第 2／2 頁（共 11 筆）")
    # Paging the runs leaves the results where they are.
    scout.runs_next()
    expect(scout.runs_pager).to_contain_text("第 2／2 頁")
    expect(scout.posts_pager).to_contain_text("第 2／2 頁（共 11 筆）")
    assert scout.post_ids() == scout.posts_ids_of(9, 10, 11)
    scout.runs_previous()
    expect(scout.runs_pager).to_contain_text("第 1／2 頁")
    expect(scout.posts_pager).to_contain_text("第 2／2 頁（共 11 筆）")
    expect(scout.run(2)).to_have_attribute("aria-pressed", "true")


def test_switching_runs_resets_only_the_result_page(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    scout.posts_next()
    expect(scout.posts_pager).to_contain_text("第 2／2 頁")
    # The first result of a new page is selected.
    expect(scout.post(9)).to_have_attribute("aria-pressed", "true")
    scout.select_run(4)
    expect(scout.posts_pager).to_contain_text("共 1 筆")
    assert scout.post_ids() == scout.posts_ids_of(13)
    scout.select_run(2)
    expect(scout.posts_pager).to_contain_text("第 1／2 頁（共 11 筆）")
    assert scout.post_ids() == scout.posts_ids_of(1, 3, 2, 5, 4, 8, 7, 6)
    expect(scout.post(1)).to_have_attribute("aria-pressed", "true")
    expect(scout.runs_pager).to_contain_text("第 1／2 頁（共 14 筆）")


def test_deleting_the_last_result_of_the_last_page_falls_back_to_the_new_last_page(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    scout.posts_next()
    for remaining in ([10, 11], [11], []):
        scout.delete_selected_post()
        if remaining:
            expect(scout.posts_pager).to_contain_text("第 2／2 頁")
            expect(page.locator("#posts button[data-post-id]")).to_have_count(len(remaining))
            assert scout.post_ids() == scout.posts_ids_of(*remaining)
    # No empty page 3 or 2: the new last page, its first result selected.
    expect(scout.posts_pager).to_contain_text("共 8 筆")
    assert scout.post_ids() == scout.posts_ids_of(1, 3, 2, 5, 4, 8, 7, 6)
    expect(scout.post(1)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#post-detail")).to_contain_text("鬼滅之刃無限城篇上映")
    expect(scout.run(2)).to_contain_text("目標／實得：20／8")


def test_deleting_the_last_run_of_the_last_page_falls_back_and_selects_its_first_run(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.runs_next()
    # The legacy run (results saved before runs existed) is deleted like any finished run.
    scout.legacy_run().click()
    expect(page.locator("#run-detail")).to_contain_text("舊版結果")
    scout.delete_selected_run()
    expect(scout.legacy_run()).to_have_count(0)
    for n in (11, 12, 13):
        scout.select_run(n)
        scout.delete_selected_run()
        expect(scout.run(n)).to_have_count(0)
    expect(scout.runs_pager).to_contain_text("共 10 筆")
    assert scout.run_ids() == scout.runs_ids_of(1, 2, 3, 4, 6, 5, 7, 8, 9, 10)
    expect(scout.run(1)).to_have_attribute("aria-pressed", "true")
    assert member.http.get("/api/v1/scout/runs").json()["data"]["pagination"]["total"] == 10


def test_unknown_post_time_is_labelled_and_scan_time_stands_apart(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    for n in (5, 4):
        expect(scout.post(n)).to_contain_text("貼文時間未知")
    # 2026-07-01T05:00Z in the browser's zone (Asia/Taipei).
    expect(scout.post(1)).to_contain_text("貼文時間：2026/07/01 13:00")
    scout.post(4).click()
    detail = page.locator("#post-detail")
    expect(detail.locator(".times")).to_contain_text("貼文時間未知")
    # The scan time (2026-07-20T10:00:31Z) is its own label, never a post time.
    expect(detail.locator(".times time")).to_have_text("掃入時間：2026/07/20 18:00")
    expect(detail).not_to_contain_text("貼文時間：")


def test_deleting_a_running_run_is_refused_and_explained(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(1)
    expect(page.locator("[data-testid=run-progress]")).to_contain_text("執行中")
    expect(page.locator("#posts button[data-post-id]")).to_have_count(0)
    scout.delete_selected_run()
    expect(page.locator("#run-message")).to_contain_text("批次仍在等待或執行中，無法刪除")
    expect(scout.run(1)).to_be_visible()
    run = member.http.get(f"/api/v1/scout/runs/{scout_seed.id('00000000-0000-4000-8000-000000000101')}")
    assert run.json()["data"]["status"] == "running"


def test_shortfall_is_shown_with_localized_reasons_never_codes(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    row = scout.run(3).locator("xpath=..")
    expect(row).to_contain_text("不足 2 筆：大量候選未通過話題核心或分類門檻；已達本次安全檢視上限")
    expect(scout.run(3)).to_contain_text("完成但不足")
    scout.select_run(3)
    expect(page.locator("#run-detail .shortfall")).to_contain_text("完成但不足：還差 2 筆")
    body = page.locator("body").inner_text()
    for code in ("relevance_exhausted", "limit_reached", "source_exhausted", "succeeded", "running"):
        assert code not in body


def test_a_shortfall_without_reasons_shows_no_empty_reason_list(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    # Run 10 fell 1 short and recorded no reason.
    expect(scout.run(10).locator("xpath=../p[contains(@class, 'shortfall')]")).to_have_text("不足 1 筆")
    scout.select_run(10)
    note = page.locator("#run-detail .shortfall")
    expect(note).to_have_text("完成但不足：還差 1 筆。")
    expect(note.locator("ul")).to_have_count(0)


def active(page, attribute: str) -> str | None:
    return page.evaluate(f"() => document.activeElement.getAttribute({attribute!r})")


def test_controls_are_labelled_keyboard_reachable_and_fit_360_pixels(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, textarea, select')]
        .filter(e => e.labels.length === 0 && !e.getAttribute('aria-label')).map(e => e.id)""")
    assert unlabelled == []
    # Tab reaches the run rows; Enter selects one; the focus ring is visible.
    target = scout_seed.id("00000000-0000-4000-8000-000000000102")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.runId") == target:
            break
    else:
        pytest.fail("run 2 is not reachable by keyboard")
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    expect(scout.run(2)).to_have_attribute("aria-pressed", "true")
    expect(scout.posts_pager).to_contain_text("第 1／2 頁（共 11 筆）")
    # Focus stays on the row just chosen, through both re-renders (selection, then the loaded run).
    assert active(page, "data-run-id") == target

    # The run pager: Enter on "next" reaches the last page, where focus moves to "previous".
    page.get_by_role("button", name="批次下一頁").focus()
    page.keyboard.press("Enter")
    expect(scout.runs_pager).to_contain_text("第 2／2 頁")
    expect(page.get_by_role("button", name="批次上一頁")).to_be_focused()
    page.keyboard.press("Enter")
    expect(scout.runs_pager).to_contain_text("第 1／2 頁")
    expect(page.get_by_role("button", name="批次下一頁")).to_be_focused()

    # A result row: Enter selects it and takes the keyboard to its detail.
    scout.post(3).focus()
    page.keyboard.press("Enter")
    expect(scout.post(3)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("heading", name="貼文明細")).to_be_focused()
    # An action on the result keeps focus on the action's button.
    page.keyboard.press("Tab")
    for _ in range(10):
        if page.evaluate("() => document.activeElement.id") == "draft-text":
            break
        page.keyboard.press("Tab")
    page.keyboard.type("想請教這篇提到的案子。")
    page.keyboard.press("Tab")
    expect(page.locator("#post-detail [data-action=draft]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(scout.post(3)).to_contain_text("已草擬")
    expect(page.locator("#post-detail [data-action=draft]")).to_be_focused()
    # The result pager behaves like the run pager.
    page.get_by_role("button", name="結果下一頁").focus()
    page.keyboard.press("Enter")
    expect(scout.posts_pager).to_contain_text("第 2／2 頁")
    expect(page.get_by_role("button", name="結果上一頁")).to_be_focused()
    # Deleting a result asks first (focus stays on the button), then moves focus to the result
    # selected after it.
    page.locator("#post-detail [data-action=delete-post]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#post-detail [data-action=delete-post]")).to_have_text("確認刪除結果？")
    expect(page.locator("#post-detail [data-action=delete-post]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#post-message")).to_have_text("已刪除結果。")
    expect(scout.post(10)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("heading", name="貼文明細")).to_be_focused()

    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
