"""The /feed reader against the real news service: guests read the global feed; a member signs in
(the dev sign-in form), sees the call to action while subscribed to nobody, subscribes to an author from
the global feed, reads the author's post in the subscription feed and unsubscribes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from devstack.tls import DEV_CA
from tests.news.stack import wait_identity_applied

pytestmark = pytest.mark.browser


def publish_post(author, title: str, body: str) -> str:
    created = author.http.post("/api/v1/news/posts", json={"title": title, "body": body})
    assert created.status_code == 201, created.text
    post_id = created.json()["id"]
    published = author.http.post(f"/api/v1/news/posts/{post_id}/publish")
    assert published.status_code == 200, published.text
    return post_id


def sign_in_with_the_dev_form(page, member, next_page: str) -> None:
    page.goto(f"{member.base_url}/dev/sign-in?next={next_page}")
    page.get_by_label("會員 ID（UUID）").fill(str(member.id))
    page.get_by_role("button", name="登入").click()
    page.wait_for_url(f"**{next_page}")


def test_guest_reads_the_global_feed_without_subscription_controls(page, platform, new_member):
    author = new_member()
    post_id = publish_post(author, "公開新聞：新竹科學園區擴建", "園區第三期擴建今日動工。")
    page.goto(f"{platform.gateway_url}/feed")
    card = page.locator(f'li.card[data-post-id="{post_id}"]')
    expect(card).to_contain_text("公開新聞：新竹科學園區擴建")
    expect(card.locator("time")).to_contain_text("發布時間：")
    expect(page.get_by_role("button", name="追蹤中", exact=True)).to_be_hidden()
    expect(card.get_by_role("button", name="追蹤", exact=False)).to_have_count(0)
    expect(page.locator("#session").get_by_role("link", name="登入")).to_be_visible()


def test_empty_subscriptions_show_the_call_to_action(page, member):
    sign_in_with_the_dev_form(page, member, "/feed")
    cta = page.locator("#empty-subscriptions")
    expect(cta).to_be_visible()
    expect(cta).to_contain_text("你還沒有追蹤任何作者或公司")
    expect(page.get_by_role("button", name="追蹤中", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("li.card")).to_have_count(0)


def test_subscribe_read_the_authors_post_then_unsubscribe(page, member, new_member):
    author = new_member()
    post_id = publish_post(author, "作者的新聞：台南老街修復完成", "修復後的老街週末開放參觀。")
    sign_in_with_the_dev_form(page, member, "/feed")
    expect(page.locator("#empty-subscriptions")).to_be_visible()
    page.get_by_role("button", name="瀏覽全站動態，追蹤作者或公司").click()
    expect(page.get_by_role("button", name="全站", exact=True)).to_have_attribute("aria-pressed", "true")
    card = page.locator(f'li.card[data-post-id="{post_id}"]')
    subscribe = card.locator(f'button[data-target="Author:{author.id}"]')
    expect(subscribe).to_have_text("追蹤")
    subscribe.click()
    expect(subscribe).to_have_text("取消追蹤")
    expect(page.locator("#feed-message")).to_contain_text("已追蹤")
    assert [s["target"] for s in member.http.get("/api/v1/subscriptions").json()["items"]] == [str(author.id)]

    page.get_by_role("button", name="追蹤中", exact=True).click()
    expect(page.locator("#empty-subscriptions")).to_be_hidden()
    expect(page.locator("li.card")).to_have_count(1)
    expect(card).to_contain_text("作者的新聞：台南老街修復完成")
    card.get_by_role("button", name="取消追蹤", exact=False).click()
    expect(page.locator("#feed-message")).to_contain_text("已取消追蹤")
    page.reload()
    expect(page.locator("#empty-subscriptions")).to_be_visible()
    expect(page.locator("li.card")).to_have_count(0)
    assert member.http.get("/api/v1/subscriptions").json()["items"] == []


def test_feed_is_keyboard_reachable_and_fits_360_pixels(page, member, new_member):
    author = new_member()
    publish_post(author, "窄螢幕測試：很長很長的標題" * 4, "內文" * 80)
    member.sign_in(page)
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{member.base_url}/feed")
    page.get_by_role("button", name="全站", exact=True).click()
    expect(page.locator("li.card").first).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.target || ''").startswith("Author:"):
            break
    else:
        pytest.fail("no subscribe button reachable by keyboard")
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"


def ingest_identity(platform, news_engine, **event) -> None:
    """An identity event through news' ingest API, as identity sends it, once the news worker has
    applied it (its job acknowledged)."""
    from feeds.news.v1 import identity_pb2, identity_pb2_grpc

    with DEV_CA.channel(platform.grpc_address("news")) as channel:
        identity_pb2_grpc.IdentityReplicaServiceStub(channel).IngestIdentityEvent(
            identity_pb2.IngestIdentityEventRequest(**event), timeout=10)
    wait_identity_applied(news_engine, platform.group)


def test_a_blocked_authors_post_stays_and_is_marked(page, platform, news_engine, member, new_member):
    from feeds.news.v1 import identity_pb2

    author = new_member()
    post_id = publish_post(author, "被封鎖作者的舊文", "內容仍保留在動態中。")
    # Given the identity replica says the author is blocked (news' ingest API, as identity would).
    ingest_identity(platform, news_engine, user_upserted=identity_pb2.UserUpserted(
        user_id=str(author.id), display_name="林小美", blocked=True, version=1))
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    page.get_by_role("button", name="全站", exact=True).click()
    card = page.locator(f'li.card[data-post-id="{post_id}"]')
    expect(card.locator(".signature").first).to_contain_text("林小美")
    expect(card.locator(".blocked")).to_have_text("已封鎖的作者")
