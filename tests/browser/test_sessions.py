"""An ended sign-in on both pages: a token past its expiry, or one the gateway refuses, leaves the
person signed out with a visible way to sign in again; /feed keeps showing the public global feed."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.scout_page import ScoutPage
from tests.browser.test_feed_reader import publish_post

pytestmark = pytest.mark.browser


def expect_signed_out_with_a_way_back(page, next_page: str) -> None:
    session = page.locator("#session")
    expect(session).to_contain_text("登入已過期")
    expect(session).not_to_contain_text("已登入")
    again = session.get_by_role("link", name="重新登入")
    expect(again).to_have_attribute("href", re.compile(rf"^/dev/sign-in\?next=%2F{next_page[1:]}"))


def test_feed_with_an_expired_token_shows_the_global_feed_and_the_way_to_sign_in(page, member, new_member):
    author = new_member()
    post_id = publish_post(author, "過期登入也看得到的公開新聞", "全站動態對訪客開放。")
    member.sign_in(page, member.token_expiring_at(time.time() - 60))
    page.goto(f"{member.base_url}/feed")
    expect(page.locator(f'li.card[data-post-id="{post_id}"]')).to_be_visible()
    expect(page.get_by_role("button", name="全站", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="追蹤中", exact=True)).to_be_hidden()
    expect(page.locator("#feed-message")).to_contain_text("登入已過期")
    expect_signed_out_with_a_way_back(page, "/feed")


def test_feed_falls_back_to_the_guest_view_when_the_sign_in_expires_while_reading(page, member, new_member):
    author = new_member()
    post_id = publish_post(author, "登入過期後仍在的全站新聞", "內文。")
    page.clock.install()
    member.sign_in(page, member.token_expiring_at(time.time() + 3600))
    page.goto(f"{member.base_url}/feed")
    expect(page.locator("#empty-subscriptions")).to_be_visible()
    expect(page.locator("#session")).to_contain_text("已登入")
    # An hour later the token has expired; the person opens the subscription tab again.
    page.clock.fast_forward("02:00:00")
    page.get_by_role("button", name="瀏覽全站動態，追蹤作者或公司").click()
    expect(page.locator(f'li.card[data-post-id="{post_id}"]')).to_be_visible()
    expect(page.locator(f'li.card[data-post-id="{post_id}"]').get_by_role("button", name="追蹤")).to_have_count(0)
    expect(page.get_by_role("button", name="追蹤中", exact=True)).to_be_hidden()
    expect(page.locator("#feed-message")).to_contain_text("登入已過期")
    expect_signed_out_with_a_way_back(page, "/feed")


def test_the_dev_sign_in_form_holds_a_member_id_before_its_script_runs(page, member):
    # No script writes into the field, so none can land in the middle of what is being typed there.
    page.route("**/pages/assets/sign-in.js", lambda route: route.abort())
    page.goto(f"{member.base_url}/dev/sign-in?next=%2Fscout")
    assert uuid.UUID(page.get_by_label("會員 ID（UUID）").input_value())
    expect(page.get_by_role("button", name="登入")).to_be_disabled()


def test_scout_with_a_refused_token_says_the_sign_in_expired_and_offers_it_again(page, member):
    # A token the gateway refuses (signed with another key): the page learns it from the 401.
    member.sign_in(page, member.token_expiring_at(time.time() + 3600, secret="not-the-gateways-secret-at-all"))
    page.goto(f"{member.base_url}/scout")
    expect(page.get_by_role("heading", name="登入已過期")).to_be_visible()
    expect(page.locator("#scout")).to_be_hidden()
    expect(page.locator("#signed-out").get_by_role("link", name="重新登入")).to_be_visible()
    expect_signed_out_with_a_way_back(page, "/scout")
    # The way back: the dev sign-in form returns to /scout signed in.
    page.locator("#signed-out").get_by_role("link", name="重新登入").click()
    page.get_by_label("會員 ID（UUID）").fill(str(member.id))
    page.get_by_role("button", name="登入").click()
    page.wait_for_url("**/scout")
    expect(page.locator("#scout")).to_be_visible()
    expect(page.locator("#session")).to_contain_text("已登入")


def test_scout_signs_out_visibly_when_the_token_expires_mid_session(page, member, scout_seed):
    page.clock.install()
    member.sign_in(page, member.token_expiring_at(time.time() + 3600))
    page.goto(f"{member.base_url}/scout?poll=400")
    scout = ScoutPage(page, scout_seed)
    expect(scout.run(2)).to_be_visible()
    # Two hours later the next request (the background poll, or any action) finds it expired.
    page.clock.fast_forward("02:00:00")
    expect(page.get_by_role("heading", name="登入已過期")).to_be_visible()
    expect(page.get_by_role("heading", name="登入已過期")).to_be_focused()
    expect(page.locator("#scout")).to_be_hidden()
    expect_signed_out_with_a_way_back(page, "/scout")
