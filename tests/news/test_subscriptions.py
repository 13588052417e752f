"""UC-NWS-004 (docs/news.md) subscribe / unsubscribe through the real gateway (AC1, AC4, AC5, AC7, A3)."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor


def problem(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status and body["code"] == code, body


def subscription_rows(news, subscriber: uuid.UUID) -> list:
    return news.rows(
        "SELECT id, deleted_at, created_at FROM news.author_subscriptions WHERE subscriber_user_id = :s",
        s=subscriber,
    )


def test_ac1_target_must_match_its_kind_and_never_be_the_subscriber(news):
    # Given a member
    member = uuid.uuid4()
    other = str(uuid.uuid4())
    # When the target contradicts its kind, names both ids, is unknown or is the member
    cases = [
        ({"targetKind": "Company"}, "NEWS_SUBSCRIPTION_TARGET_INVALID"),
        ({"targetKind": "Company", "targetUserId": other}, "NEWS_SUBSCRIPTION_TARGET_INVALID"),
        ({"targetKind": "Author", "targetUserId": other, "targetCompanyId": other}, "NEWS_SUBSCRIPTION_TARGET_INVALID"),
        ({"targetKind": "Author", "targetUserId": str(uuid.UUID(int=0))}, "NEWS_SUBSCRIPTION_TARGET_INVALID"),
        ({"targetKind": "Group", "targetUserId": other}, "NEWS_SUBSCRIPTION_TARGET_INVALID"),
        ({"targetKind": "Author", "targetUserId": str(member)}, "NEWS_SUBSCRIPTION_SELF"),
    ]
    for body, code in cases:
        # Then each is a 400 with its code and nothing is stored
        problem(news.subscribe(member, **body), 400, code)
    assert subscription_rows(news, member) == []


def test_valid_subscription_is_created_once_active(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    response = news.subscribe(member, targetKind="Author", targetUserId=str(author))
    assert response.status_code == 201
    body = response.json()
    assert body["targetKind"] == "Author" and body["target"] == str(author)
    [row] = subscription_rows(news, member)
    assert str(row.id) == body["subscriptionId"] and row.deleted_at is None
    listed = news.request("GET", "/api/v1/subscriptions", member).json()
    assert [item["subscriptionId"] for item in listed["items"]] == [body["subscriptionId"]]


def test_ac4_resubscribe_reactivates_the_same_row_keeping_created_at(news):
    member, company = uuid.uuid4(), uuid.uuid4()
    first = news.subscribe(member, targetKind="Company", targetCompanyId=str(company))
    assert first.status_code == 201
    subscription_id = first.json()["subscriptionId"]
    [(_, _, created_at)] = subscription_rows(news, member)

    # When the member unsubscribes and subscribes again
    assert news.request("DELETE", f"/api/v1/subscriptions/{subscription_id}", member).status_code == 204
    [(_, deleted_at, _)] = subscription_rows(news, member)
    assert deleted_at is not None
    again = news.subscribe(member, targetKind="Company", targetCompanyId=str(company))

    # Then the same row is active again, created_at untouched, and the answer is 200
    assert again.status_code == 200
    assert again.json()["subscriptionId"] == subscription_id
    assert subscription_rows(news, member) == [(uuid.UUID(subscription_id), None, created_at)]


def test_ac5_duplicate_subscribe_is_an_idempotent_200(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    first = news.subscribe(member, targetKind="Author", targetUserId=str(author))
    second = news.subscribe(member, targetKind="Author", targetUserId=str(author))
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json() == second.json()
    assert len(subscription_rows(news, member)) == 1


def test_twenty_concurrent_identical_subscribes_make_one_row(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    with ThreadPoolExecutor(20) as pool:
        responses = list(pool.map(lambda _: news.subscribe(member, targetKind="Author", targetUserId=str(author)),
                                  range(20)))
    assert sorted(r.status_code for r in responses) == [200] * 19 + [201]
    assert len({r.json()["subscriptionId"] for r in responses}) == 1
    assert len(subscription_rows(news, member)) == 1


def test_ac7_guests_get_401_and_another_members_subscription_403(news):
    owner, stranger, author = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    subscription_id = news.follow_author(owner, author)
    # Guests
    problem(news.subscribe(None, targetKind="Author", targetUserId=str(author)), 401, "UNAUTHORIZED")
    problem(news.feed(None), 401, "UNAUTHORIZED")
    problem(news.request("DELETE", f"/api/v1/subscriptions/{subscription_id}"), 401, "UNAUTHORIZED")
    problem(news.request("GET", "/api/v1/subscriptions"), 401, "UNAUTHORIZED")
    problem(news.request("GET", "/api/v1/feed/subscriptions", headers={"Authorization": "Bearer nonsense"}),
            401, "UNAUTHORIZED")
    # A guest is a guest before anything else about the request is checked: bad bodies, queries and ids
    # still answer 401, and a bad token is refused even where guests are welcome
    guest_mistakes = [
        ("POST", "/api/v1/subscriptions", {"json": {"targetKind": 7, "unknown": True}}),
        ("POST", "/api/v1/subscriptions", {"json": ["Author"]}),
        ("POST", "/api/v1/subscriptions", {}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"limit": "ten", "categoryId": "x"}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"limit": 2**40}}),
        ("GET", "/api/v1/subscriptions", {"params": {"limit": "many"}}),
        ("DELETE", "/api/v1/subscriptions/not-a-uuid", {}),
        ("POST", "/api/v1/news/posts", {"json": {"title": 1}}),
        ("PUT", f"/api/v1/news/posts/{uuid.uuid4()}", {"json": {}}),
        ("POST", "/api/v1/news/posts/not-a-uuid/publish", {}),
        ("GET", "/api/v1/feed/global", {"params": {"limit": "ten"}, "headers": {"Authorization": "Bearer nonsense"}}),
    ]
    for method, path, kwargs in guest_mistakes:
        problem(news.request(method, path, **kwargs), 401, "UNAUTHORIZED")
    # Another member cannot unsubscribe the owner, and the owner's row stays active
    problem(news.request("DELETE", f"/api/v1/subscriptions/{subscription_id}", stranger),
            403, "NEWS_SUBSCRIPTION_FORBIDDEN")
    assert [row.deleted_at for row in subscription_rows(news, owner)] == [None]


def test_unsubscribe_unknown_is_404_and_repeat_is_idempotent(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    problem(news.request("DELETE", f"/api/v1/subscriptions/{uuid.uuid4()}", member), 404, "NEWS_SUBSCRIPTION_NOT_FOUND")
    subscription_id = news.follow_author(member, author)
    assert news.request("DELETE", f"/api/v1/subscriptions/{subscription_id}", member).status_code == 204
    [(_, deleted_at, _)] = subscription_rows(news, member)
    assert news.request("DELETE", f"/api/v1/subscriptions/{subscription_id}", member).status_code == 204
    assert subscription_rows(news, member)[0].deleted_at == deleted_at
    assert news.request("GET", "/api/v1/subscriptions", member).json()["items"] == []
