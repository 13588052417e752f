"""/feed past the first visit: a post opens in its own view, a member sees whom they follow and can
unfollow a source that has gone quiet, a guest learns that signing in lets them follow, and the
category chip names its category by a post, never by a raw id."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.harness import wait_until_held
from tests.browser.test_feed_paging import publish, subscribe
from tests.browser.test_feed_reader import publish_post

pytestmark = pytest.mark.browser


def test_a_post_opens_in_its_own_view_and_back(page, member, new_member):
    author = new_member()
    body = "第一段：園區擴建今日動工。\n第二段：預計兩年後完工，並新增三條聯外道路。"
    post_id = publish_post(author, "可以打開的新聞：園區擴建", body)
    page.goto(f"{member.base_url}/feed")
    card = page.locator(f'li.card[data-post-id="{post_id}"]')
    card.get_by_role("link", name="可以打開的新聞：園區擴建").click()
    page.wait_for_url(f"**/feed?post={post_id}")
    title = page.get_by_role("heading", name="可以打開的新聞：園區擴建")
    expect(title).to_be_visible()
    expect(title).to_be_focused()
    expect(page.locator("#post-body")).to_have_text(body)
    expect(page.locator("#post-view")).to_contain_text("發布時間：")
    expect(page.locator("#feed-panel")).to_be_hidden()
    page.get_by_role("link", name="← 返回動態").click()
    page.wait_for_url("**/feed")
    expect(card).to_be_visible()


def test_a_missing_post_says_so(page, member):
    page.goto(f"{member.base_url}/feed?post={uuid.uuid4()}")
    expect(page.get_by_role("heading", name="找不到動態")).to_be_visible()
    expect(page.locator("#post-message")).to_have_text("找不到這則動態，可能已下架。")


def test_a_member_sees_whom_they_follow_and_unfollows_a_quiet_source(page, member, new_member):
    talkative, quiet = new_member(), new_member()
    publish_post(talkative, "常發文作者的新聞", "內文。")
    subscribe(member, "Author", talkative.id)
    subscribe(member, "Author", quiet.id)  # has never published
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    following = page.locator("#following")
    summary = following.locator("summary")
    expect(summary).to_have_text("我追蹤的來源（2）")
    summary.click()
    items = following.locator("li")
    expect(items).to_have_count(2)
    quiet_key = f"Author:{quiet.id}"
    quiet_item = following.locator(f'li[data-following="{quiet_key}"]')
    expect(quiet_item).to_contain_text(f"作者（ID {str(quiet.id)[:8]}…）")
    quiet_item.get_by_role("button", name="取消追蹤").click()
    expect(page.locator("#feed-message")).to_contain_text("已取消追蹤")
    expect(summary).to_have_text("我追蹤的來源（1）")
    expect(summary).to_be_focused()
    assert [s["target"] for s in member.http.get("/api/v1/subscriptions").json()["items"]] == [str(talkative.id)]


def test_unfollowing_in_the_list_while_the_feed_loads_keeps_the_focus_in_the_list(page, member, new_member):
    talkative, quiet = new_member(), new_member()
    post_id = publish_post(talkative, "清單重畫時的新聞", "內文。")
    subscribe(member, "Author", talkative.id)
    subscribe(member, "Author", quiet.id)
    feed, unfollow = [], []
    page.route(lambda url: "/api/v1/feed/subscriptions" in url, lambda route: feed.append(route))
    page.route(lambda url: "/api/v1/subscriptions/" in url, lambda route: unfollow.append(route))
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    following = page.locator("#following")
    summary = following.locator("summary")
    expect(summary).to_have_text("我追蹤的來源（2）")
    wait_until_held(page, feed, "the subscription feed")
    summary.click()
    following.locator(f'li[data-following="Author:{quiet.id}"]').get_by_role("button", name="取消追蹤").click()
    wait_until_held(page, unfollow, "the unfollow")
    # While the unfollow is on its way, the feed arrives and the list is drawn again (it learns a name)
    feed[0].continue_()
    expect(page.locator(f'li.card[data-post-id="{post_id}"]')).to_be_visible()
    expect(following.locator(f'li[data-following="Author:{quiet.id}"]').get_by_role("button")).to_be_focused()
    unfollow[0].continue_()
    expect(page.locator("#feed-message")).to_contain_text("已取消追蹤")
    expect(summary).to_have_text("我追蹤的來源（1）")
    expect(summary).to_be_focused()


def test_a_guest_learns_that_signing_in_lets_them_follow(page, platform, new_member):
    publish_post(new_member(), "訪客看得到的新聞", "內文。")
    page.goto(f"{platform.gateway_url}/feed")
    hint = page.locator("#guest-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("想追蹤作者或公司？")
    expect(hint.get_by_role("link", name="登入")).to_have_attribute("href", "/dev/sign-in?next=%2Ffeed")
    expect(page.locator("#following")).to_be_hidden()


def test_the_category_chip_names_its_category_without_a_raw_id(page, member, new_member):
    author = new_member()
    category = str(uuid.uuid4())
    title = f"書展開幕 {category[:6]}"
    post_id = publish(author, title, category=category)
    page.goto(f"{member.base_url}/feed")
    card = page.locator(f'li.card[data-post-id="{post_id}"]')
    only = card.get_by_role("button", name="只看這個分類")
    expect(only).to_have_text("只看這個分類")
    only.click()
    chip = page.locator("#category-filter")
    expect(chip).to_contain_text(f"與「{title}」同分類")
    expect(chip).not_to_contain_text(category)
