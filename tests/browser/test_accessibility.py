"""axe-core (vendored from its npm package, run offline) on /feed and /scout at 1280 and 360 px,
for a guest and a member, with the states a person meets: no serious or critical violation."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.harness import serious_accessibility_violations
from tests.browser.scout_page import ScoutPage
from tests.browser.test_feed_paging import publish, subscribe

pytestmark = pytest.mark.browser

WIDTHS = [1280, 360]


def assert_accessible(page, state: str) -> None:
    violations = serious_accessibility_violations(page)
    assert not violations, f"{state}: " + json.dumps(violations, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("width", WIDTHS)
def test_feed_has_no_serious_accessibility_violation(page, platform, member, new_member, width):
    page.set_viewport_size({"width": width, "height": 800})
    author = new_member()
    post_id = publish(author, "無障礙檢查的新聞", category="6f1c2d1e-8a43-4a55-9d43-0c6c8e0f3a10")
    subscribe(member, "Author", author.id)
    page.goto(f"{platform.gateway_url}/feed")
    expect(page.locator(f'li.card[data-post-id="{post_id}"]')).to_be_visible()
    assert_accessible(page, "guest feed")
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    expect(page.locator(f'li.card[data-post-id="{post_id}"]')).to_be_visible()
    page.locator("#following summary").click()
    assert_accessible(page, "member feed")
    page.locator(f'li.card[data-post-id="{post_id}"]').get_by_role("button", name="只看這個分類").click()
    expect(page.locator("#category-filter")).to_be_visible()
    assert_accessible(page, "category filter")
    page.goto(f"{member.base_url}/feed?post={post_id}")
    expect(page.locator("#post-body")).to_contain_text("無障礙檢查的新聞")
    assert_accessible(page, "post view")


@pytest.mark.parametrize("width", WIDTHS)
def test_scout_has_no_serious_accessibility_violation(page, platform, member, scout_seed, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{platform.gateway_url}/scout")
    expect(page.get_by_role("heading", name="請先登入")).to_be_visible()
    assert_accessible(page, "signed out")
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    expect(page.locator("#post-detail")).to_be_visible()
    assert_accessible(page, "run with results")
    page.locator("#post-detail").get_by_role("button", name="刪除結果").click()
    assert_accessible(page, "delete confirmation")
    scout.select_run(1)
    expect(page.locator("[data-testid=run-progress]")).to_be_visible()
    assert_accessible(page, "running run")
    scout.select_run(7)
    expect(page.locator("#run-detail")).to_contain_text("失敗原因")
    assert_accessible(page, "failed run")
