"""Working on one result of /scout: the reply composer, what 發佈 publishes and when it can, answers
shown next to the buttons that asked, deleting with a confirmation, and a tap on a result at 360 px
bringing its detail into view."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.scout_page import ScoutPage, fixture_post

pytestmark = pytest.mark.browser


def detail(page):
    return page.get_by_role("region", name="貼文明細")


def test_a_reply_is_written_saved_as_a_draft_and_published_as_written(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    box = detail(page)
    publish = box.get_by_role("button", name="發佈", exact=True)
    # Not drafted yet: 發佈 is unavailable and says why, next to it.
    expect(publish).to_be_disabled()
    expect(publish).to_have_accessible_description("先寫好回覆並按「草擬」儲存，才能發佈。")
    # An empty reply is not saved; the answer shows next to the buttons.
    box.get_by_role("button", name="草擬", exact=True).click()
    expect(box.get_by_role("status")).to_have_text("請先在「回覆草稿」寫下回覆內容。")
    expect(box.get_by_role("status")).to_be_in_viewport()
    expect(box.get_by_label("回覆草稿")).to_be_focused()
    # Drafting saves the text of the box.
    reply = box.get_by_label("回覆草稿")
    reply.fill("謝謝分享！想請教無限城篇的場次資訊。")
    box.get_by_role("button", name="草擬", exact=True).click()
    expect(box.get_by_role("status")).to_have_text("已儲存草稿。")
    expect(publish).to_be_enabled()
    expect(publish).to_have_accessible_description("按「發佈」會送出上面這則已儲存的回覆。")
    saved = member.http.get(f"/api/v1/scout/runs/{scout_seed.id('00000000-0000-4000-8000-000000000102')}/posts")
    first = saved.json()["data"]["list"][0]
    assert first["id"] == scout_seed.id(fixture_post(1))
    assert (first["outreach_status"], first["draft_text"]) == ("drafted", "謝謝分享！想請教無限城篇的場次資訊。")
    # An unsaved edit is not what 發佈 would send: it waits for the draft.
    reply.fill("改過的回覆")
    expect(publish).to_be_disabled()
    reply.fill("謝謝分享！想請教無限城篇的場次資訊。")
    # The draft survives a reload, and publishing sends it.
    page.reload()
    scout.select_run(2)
    expect(detail(page).get_by_label("回覆草稿")).to_have_value("謝謝分享！想請教無限城篇的場次資訊。")
    detail(page).get_by_role("button", name="發佈", exact=True).click()
    expect(detail(page).get_by_role("status")).to_have_text("已發佈回覆。")
    expect(scout.post(1)).to_contain_text("已發佈")
    expect(detail(page)).to_contain_text("已發佈這則回覆。")
    expect(detail(page).get_by_label("回覆草稿")).to_have_attribute("readonly", "")


def test_deleting_a_result_asks_first_and_can_be_called_off(page, member, scout_seed):
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    box = detail(page)
    box.get_by_role("button", name="刪除結果").click()
    expect(box.get_by_role("status")).to_have_text("刪除後無法復原。")
    box.get_by_role("button", name="不刪除").click()
    expect(box.get_by_role("button", name="刪除結果")).to_be_focused()
    expect(scout.posts_pager).to_contain_text("共 11 筆")
    assert member.http.get(f"/api/v1/scout/runs/{scout_seed.id('00000000-0000-4000-8000-000000000102')}"
                           ).json()["data"]["eligible_count"] == 11
    box.get_by_role("button", name="刪除結果").click()
    box.get_by_role("button", name="確認刪除結果？").click()
    expect(box.get_by_role("status")).to_have_text("已刪除結果。")
    expect(scout.posts_pager).to_contain_text("共 10 筆")
    expect(scout.post(1)).to_have_count(0)


def test_on_a_phone_tapping_a_result_brings_its_detail_into_view(page, member, scout_seed):
    page.set_viewport_size({"width": 360, "height": 740})
    scout = ScoutPage(page, scout_seed).open(member)
    scout.select_run(2)
    expect(scout.post(1)).to_have_attribute("aria-pressed", "true")
    text = scout.post(8).locator(".post-text").text_content()
    scout.post(8).click()
    heading = page.get_by_role("heading", name="貼文明細")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()
    expect(detail(page).locator(".post-body")).to_have_text(text)
    # Its actions answer where the person is.
    detail(page).get_by_role("button", name="略過", exact=True).click()
    expect(detail(page).get_by_role("status")).to_have_text("已略過這則結果。")
    expect(detail(page).get_by_role("status")).to_be_in_viewport()
