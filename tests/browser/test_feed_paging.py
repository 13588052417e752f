"""The /feed reader's paging, category filter and company subscriptions against the real news
service: "載入更多" follows the cursor past 20 posts, the category filter narrows and resets,
a company's signature subscribes, a quick tab switch never mixes two feeds, and keyboard focus
stays where the person acted."""

from __future__ import annotations

import uuid

import grpc
import pytest
from playwright.sync_api import expect

from devstack.tls import DEV_CA
from tests.browser.harness import wait_until_held
from tests.browser.test_feed_reader import ingest_identity, publish_post

pytestmark = pytest.mark.browser


def publish(author, title: str, *, category: str | None = None) -> str:
    body = {"title": title, "body": f"{title}的內文。"}
    if category:
        body["categoryId"] = category
    created = author.http.post("/api/v1/news/posts", json=body)
    assert created.status_code == 201, created.text
    post_id = created.json()["id"]
    assert author.http.post(f"/api/v1/news/posts/{post_id}/publish").status_code == 200
    return post_id


def publish_for_company(channel: grpc.Channel, writer, company: uuid.UUID, title: str) -> str:
    """Company-signed posts come only from internal authoring services, over gRPC."""
    from feeds.news.v1 import posts_pb2, posts_pb2_grpc

    stub = posts_pb2_grpc.PostServiceStub(channel)
    as_writer = [("x-actor-id", str(writer.id))]
    post = stub.CreatePost(posts_pb2.CreatePostRequest(title=title, body=f"{title}的內文。",
                                                       author_company_id=str(company)),
                           metadata=as_writer, timeout=10).post
    stub.PublishPost(posts_pb2.PublishPostRequest(post_id=post.id), metadata=as_writer, timeout=10)
    return post.id


def subscribe(member, kind: str, target: uuid.UUID) -> None:
    field = "targetUserId" if kind == "Author" else "targetCompanyId"
    response = member.http.post("/api/v1/subscriptions", json={"targetKind": kind, field: str(target)})
    assert response.status_code in (200, 201), response.text


# Records the URL of each response body the page has read, in a task queued once the read is done:
# by then the page's code that awaited the body has run (it continues in microtasks, which go first).
READ_BODIES_SCRIPT = """
window.readBodies = [];
const readJson = Response.prototype.json;
Response.prototype.json = function () {
  const url = this.url;
  return readJson.call(this).finally(() => setTimeout(() => window.readBodies.push(url)));
};
"""


def card_ids(page) -> list[str]:
    return page.locator("li.card").evaluate_all("els => els.map(e => e.dataset.postId)")


def focused_card(page) -> str | None:
    return page.evaluate("() => document.activeElement.closest('li.card')?.dataset.postId ?? null")


def test_more_follows_the_cursor_past_the_first_20_posts(page, member, new_member):
    author = new_member()
    subscribe(member, "Author", author.id)
    published = [publish(author, f"分頁新聞 {n:02d}") for n in range(1, 24)]
    newest_first = list(reversed(published))
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    cards = page.locator("li.card")
    expect(cards).to_have_count(20)
    assert card_ids(page) == newest_first[:20]
    more = page.get_by_role("button", name="載入更多")
    more.focus()
    page.keyboard.press("Enter")
    expect(cards).to_have_count(23)
    # The next page continues the first without repeating or skipping; no more pages.
    assert card_ids(page) == newest_first
    expect(more).to_be_hidden()
    # Focus moved to the first new post, not to the page body.
    assert focused_card(page) == newest_first[20]


def test_the_category_filter_narrows_the_feed_and_resets(page, member, new_member):
    author = new_member()
    subscribe(member, "Author", author.id)
    books, food = str(uuid.uuid4()), str(uuid.uuid4())
    first_book = publish(author, "書展開幕", category=books)
    other = publish(author, "夜市美食", category=food)
    second_book = publish(author, "新書發表會", category=books)
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    expect(page.locator("li.card")).to_have_count(3)
    card = page.locator(f'li.card[data-post-id="{second_book}"]')
    only = card.get_by_role("button", name="只看這個分類（與「新書發表會」同分類的動態）")
    only.focus()
    page.keyboard.press("Enter")
    expect(page.locator("li.card")).to_have_count(2)
    assert card_ids(page) == [second_book, first_book]
    chip = page.locator("#category-filter")
    expect(chip).to_be_visible()
    expect(chip.locator(".chip-label")).to_have_text("分類")
    expect(chip).to_contain_text("與「新書發表會」同分類")
    clear = page.get_by_role("button", name="清除分類篩選")
    expect(clear).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("li.card")).to_have_count(3)
    assert set(card_ids(page)) == {first_book, other, second_book}
    expect(chip).to_be_hidden()
    expect(page.locator("#feed-heading")).to_be_focused()


def test_subscribing_to_a_company_from_its_signature(page, platform, news_engine, member, new_member):
    from feeds.news.v1 import identity_pb2

    writer = new_member()
    company = uuid.uuid4()
    ingest_identity(platform, news_engine, company_upserted=identity_pb2.CompanyUpserted(
        company_id=str(company), name="山海出版社", version=1))
    with DEV_CA.channel(platform.grpc_address("news")) as channel:
        post_id = publish_for_company(channel, writer, company, "山海出版社年度書單")
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    page.get_by_role("button", name="全站", exact=True).click()
    card = page.locator(f'li.card[data-post-id="{post_id}"]')
    expect(card.locator(".signature").first).to_contain_text("山海出版社")
    key = f"Company:{company}"
    button = card.locator(f'button[data-target="{key}"]')
    expect(button).to_have_text("追蹤")
    expect(button).to_have_attribute("aria-label", "追蹤山海出版社")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_text("取消追蹤")
    expect(page.locator("#feed-message")).to_have_text("已追蹤山海出版社。")
    # Focus stays on the (re-rendered) button of the same company.
    assert page.evaluate("() => document.activeElement.dataset.target") == key
    items = member.http.get("/api/v1/subscriptions").json()["items"]
    assert [(s["targetKind"], s["target"]) for s in items] == [("Company", str(company))]

    page.get_by_role("button", name="追蹤中", exact=True).click()
    expect(page.locator("li.card")).to_have_count(1)
    expect(card).to_contain_text("山海出版社年度書單")
    card.locator(f'button[data-target="{key}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#feed-message")).to_have_text("已取消追蹤山海出版社。")
    expect(card.locator(f'button[data-target="{key}"]')).to_have_text("追蹤")
    assert page.evaluate("() => document.activeElement.dataset.target") == key
    assert member.http.get("/api/v1/subscriptions").json()["items"] == []


def test_a_late_response_of_the_previous_tab_is_dropped(page, member, new_member):
    author = new_member()
    subscribe(member, "Author", author.id)
    post_id = publish_post(author, "慢回應測試：只該出現一次", "內文。")
    held = []
    page.route(lambda url: "/api/v1/feed/subscriptions" in url, lambda route: held.append(route))
    page.add_init_script(READ_BODIES_SCRIPT)
    member.sign_in(page)
    page.goto(f"{member.base_url}/feed")
    # The subscription feed's first page is in flight when the person switches to the global feed.
    wait_until_held(page, held, "the subscription feed")
    page.get_by_role("button", name="全站", exact=True).click()
    expect(page.locator(f'li.card[data-post-id="{post_id}"]')).to_have_count(1)
    global_ids = card_ids(page)
    held[0].continue_()
    page.wait_for_function("() => window.readBodies.some(url => url.includes('/api/v1/feed/subscriptions'))")
    assert card_ids(page) == global_ids
    expect(page.locator(f'li.card[data-post-id="{post_id}"]')).to_have_count(1)
    expect(page.get_by_role("button", name="全站", exact=True)).to_have_attribute("aria-pressed", "true")
