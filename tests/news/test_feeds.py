"""UC-NWS-004 (docs/news.md) feeds through the real gateway: AC2, AC3 (A2), AC6 (A1), paging, signatures, guests."""

from __future__ import annotations

import base64
import uuid

from tests.news.test_subscriptions import problem


def test_ac2_subscription_feed_holds_published_posts_of_the_target_newest_first(news):
    # Given a member following an author
    member, author, stranger = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    # When the author publishes three posts, keeps a draft, and someone unfollowed publishes too
    published = [news.publish(author, f"post {n}") for n in range(3)]
    draft = news.request("POST", "/api/v1/news/posts", author, json={"title": "draft", "body": "not yet"})
    assert draft.status_code == 201
    news.publish(stranger, "not followed")
    # Then the feed holds exactly the published posts, newest first, signed by the author
    response = news.feed(member)
    assert response.status_code == 200
    body = response.json()
    assert body["isEmptySubscriptions"] is False
    assert [item["id"] for item in body["page"]["items"]] == published[::-1]
    stamps = [item["publishedAt"] for item in body["page"]["items"]]
    assert stamps == sorted(stamps, reverse=True)
    assert {item["author"]["id"] for item in body["page"]["items"]} == {str(author)}
    assert body["page"]["hasMore"] is False and body["page"]["nextCursor"] is None


def test_unpublished_posts_and_unfollowed_sources_leave_the_feed(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    subscription_id = news.follow_author(member, author)
    kept, withdrawn = news.publish(author, "kept"), news.publish(author, "withdrawn")
    assert news.request("POST", f"/api/v1/news/posts/{withdrawn}/unpublish", author).status_code == 200
    assert news.feed_ids(member) == [kept]
    assert news.request("DELETE", f"/api/v1/subscriptions/{subscription_id}", member).status_code == 204
    body = news.feed(member).json()
    assert body == {"page": {"items": [], "nextCursor": None, "hasMore": False}, "isEmptySubscriptions": True}


def test_ac3_suspended_company_posts_leave_the_feed_and_return_when_lifted(news):
    # Given a member following a company that has published a post, and an author
    member, writer, company, author = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    subscription_id = news.follow_company(member, company)
    news.follow_author(member, author)
    company_post = news.publish(writer, "company news", company=company)
    author_post = news.publish(author, "author news")
    news.ingest(company_upserted={"company_id": str(company), "name": "Acme", "logo_url": "https://x/l.png",
                                  "version": 1})
    news.wait_applied()
    items = news.feed(member).json()["page"]["items"]
    assert [item["id"] for item in items] == [author_post, company_post]
    assert items[1]["company"] == {"id": str(company), "name": "Acme", "logoUrl": "https://x/l.png"}
    assert items[1]["author"] is None

    # When identity suspends the company
    news.ingest(company_suspended={"company_id": str(company), "version": 2})
    news.wait_applied()
    # Then its posts are gone from the feed, the subscription stays active
    assert news.feed_ids(member) == [author_post]
    assert news.scalar("SELECT deleted_at IS NULL FROM news.author_subscriptions WHERE id = :id", id=subscription_id)
    assert company_post not in [i["id"] for i in news.request("GET", "/api/v1/feed/global").json()["page"]["items"]]
    # and from a direct read, for guests and members alike; its writer still reads it, as a draft
    problem(news.request("GET", f"/api/v1/news/posts/{company_post}"), 404, "NEWS_POST_NOT_FOUND")
    problem(news.request("GET", f"/api/v1/news/posts/{company_post}", member), 404, "NEWS_POST_NOT_FOUND")
    assert news.request("GET", f"/api/v1/news/posts/{company_post}", writer).status_code == 200

    # When the suspension is lifted, the posts return
    news.ingest(company_upserted={"company_id": str(company), "name": "Acme", "version": 3, "suspended": False})
    news.wait_applied()
    assert news.feed_ids(member) == [author_post, company_post]
    assert news.request("GET", f"/api/v1/news/posts/{company_post}").json()["id"] == company_post


def test_ac6_member_without_subscriptions_gets_an_empty_page(news):
    response = news.feed(uuid.uuid4())
    assert response.status_code == 200
    assert response.json() == {"page": {"items": [], "nextCursor": None, "hasMore": False},
                               "isEmptySubscriptions": True}


def test_pages_follow_the_keyset_without_gaps_or_repeats(news):
    member, author, company, writer = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    news.follow_company(member, company)
    posts = [news.publish(author if n % 2 else writer, f"p{n}", company=None if n % 2 else company) for n in range(7)]
    seen, cursor, pages = [], None, 0
    while True:
        params = {"limit": 3} | ({"cursor": cursor} if cursor else {})
        page = news.feed(member, **params).json()["page"]
        seen += [item["id"] for item in page["items"]]
        pages += 1
        if not page["hasMore"]:
            assert page["nextCursor"] is None
            break
        cursor = page["nextCursor"]
    assert pages == 3 and seen == posts[::-1]


def test_category_filter_keeps_only_that_category(news):
    member, author, category = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    in_category = news.publish(author, "in", category=category)
    news.publish(author, "out")
    assert news.feed_ids(member, categoryId=str(category)) == [in_category]
    global_items = news.request("GET", "/api/v1/feed/global", params={"categoryId": str(category)}).json()
    assert [item["id"] for item in global_items["page"]["items"]] == [in_category]
    assert global_items["page"]["items"][0]["categoryId"] == str(category)


def test_tampered_or_foreign_cursors_are_rejected(news):
    member, author, category = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    for n in range(3):
        news.publish(author, f"p{n}", category=category)
    cursor = news.feed(member, limit=1).json()["page"]["nextCursor"]
    raw = bytearray(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    raw[5] ^= 1
    tampered = base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()
    global_cursor = news.request("GET", "/api/v1/feed/global",
                                 params={"limit": 1, "categoryId": str(category)}).json()["page"]["nextCursor"]
    for bad in (tampered, cursor[:-2], "not a cursor", global_cursor, "A" * 500):
        problem(news.feed(member, cursor=bad), 400, "VALIDATION_ERROR")
    problem(news.request("GET", "/api/v1/feed/global", params={"cursor": cursor}), 400, "VALIDATION_ERROR")


def test_a_cursor_is_bound_to_its_subscriber_and_category_filter(news):
    # Given two members following the same author, whose posts are all in one category
    member, other, author, category = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    news.follow_author(other, author)
    for n in range(3):
        news.publish(author, f"p{n}", category=category)
    mine = news.feed(member, limit=1).json()["page"]["nextCursor"]
    mine_filtered = news.feed(member, limit=1, categoryId=str(category)).json()["page"]["nextCursor"]
    global_filtered = news.request("GET", "/api/v1/feed/global",
                                   params={"limit": 1, "categoryId": str(category)}).json()["page"]["nextCursor"]
    assert news.feed_ids(member, limit=1, cursor=mine) == news.feed_ids(other, limit=2)[1:]
    # When the cursor is replayed by another member, or with another (or no) category filter
    replays = [
        (other, {"cursor": mine}),
        (other, {"cursor": mine_filtered, "categoryId": str(category)}),
        (member, {"cursor": mine, "categoryId": str(category)}),
        (member, {"cursor": mine_filtered}),
        (member, {"cursor": mine_filtered, "categoryId": str(uuid.uuid4())}),
    ]
    # Then each is a VALIDATION_ERROR, not a page
    for caller, params in replays:
        problem(news.feed(caller, **params), 400, "VALIDATION_ERROR")
    problem(news.request("GET", "/api/v1/feed/global", params={"cursor": global_filtered}), 400, "VALIDATION_ERROR")
    problem(news.request("GET", "/api/v1/feed/global",
                         params={"cursor": global_filtered, "categoryId": str(uuid.uuid4())}), 400, "VALIDATION_ERROR")
    assert news.request("GET", "/api/v1/feed/global",
                        params={"cursor": global_filtered, "categoryId": str(category)}).status_code == 200


def test_a_subscription_list_cursor_is_bound_to_its_subscriber(news):
    member, other = uuid.uuid4(), uuid.uuid4()
    for _ in range(2):
        news.follow_author(member, uuid.uuid4())
    cursor = news.request("GET", "/api/v1/subscriptions", member, params={"limit": 1}).json()["nextCursor"]
    assert news.request("GET", "/api/v1/subscriptions", member, params={"cursor": cursor}).status_code == 200
    problem(news.request("GET", "/api/v1/subscriptions", other, params={"cursor": cursor}), 400, "VALIDATION_ERROR")


def test_guests_read_the_global_feed_and_a_published_post(news):
    author, category = uuid.uuid4(), uuid.uuid4()
    post_id = news.publish(author, "open to all", category=category)
    draft = news.request("POST", "/api/v1/news/posts", author, json={"title": "draft", "body": "hidden"}).json()["id"]
    feed = news.request("GET", "/api/v1/feed/global", params={"categoryId": str(category)})
    assert feed.status_code == 200
    assert [item["id"] for item in feed.json()["page"]["items"]] == [post_id]
    post = news.request("GET", f"/api/v1/news/posts/{post_id}")
    assert post.status_code == 200 and post.json()["body"] == "open to all body"
    problem(news.request("GET", f"/api/v1/news/posts/{draft}"), 404, "NEWS_POST_NOT_FOUND")
    assert news.request("GET", f"/api/v1/news/posts/{draft}", author).status_code == 200


def test_blocked_author_stays_in_the_feed_flagged(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    post_id = news.publish(author, "still here")
    news.ingest(user_upserted={"user_id": str(author), "display_name": "Ann", "avatar_url": "https://x/a.png",
                               "version": 1})
    news.ingest(user_blocked={"user_id": str(author), "version": 2})
    news.wait_applied()
    [item] = news.feed(member).json()["page"]["items"]
    assert item["id"] == post_id
    assert item["author"] == {"id": str(author), "displayName": "Ann", "avatarUrl": "https://x/a.png",
                              "isBlocked": True}


def test_replica_events_out_of_order_converge_to_the_newest_state(news):
    member, author, company, writer = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    news.follow_company(member, company)
    news.publish(author, "a")
    company_post = news.publish(writer, "c", company=company)
    # Newest first, then older ones and repeats
    news.ingest(user_upserted={"user_id": str(author), "display_name": "Newest", "version": 3})
    news.ingest(company_suspended={"company_id": str(company), "version": 2})
    news.wait_applied()
    news.ingest(user_blocked={"user_id": str(author), "version": 2})
    news.ingest(user_upserted={"user_id": str(author), "display_name": "Oldest", "blocked": True, "version": 1})
    news.ingest(user_upserted={"user_id": str(author), "display_name": "Newest", "version": 3})
    news.ingest(company_upserted={"company_id": str(company), "name": "Old name", "version": 1})
    news.wait_applied()
    # The author keeps version 3 (active, "Newest"); the company keeps its v2 suspension and takes the
    # v1 profile, the only one it has seen.
    [item] = news.feed(member).json()["page"]["items"]
    assert item["author"]["displayName"] == "Newest" and item["author"]["isBlocked"] is False
    assert news.rows("SELECT name, status FROM news.company_replicas WHERE company_id = :c", c=company) == [
        ("Old name", "Suspended")]
    assert company_post not in news.feed_ids(member)


def test_missing_replicas_never_block_a_feed(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    news.follow_author(member, author)
    news.publish(author, "unknown author")
    [item] = news.feed(member).json()["page"]["items"]
    assert item["author"] == {"id": str(author), "displayName": None, "avatarUrl": None, "isBlocked": False}
