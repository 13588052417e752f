"""Bad input: every malformed field, cursor, limit and id is a 400 VALIDATION_ERROR that changes nothing."""

from __future__ import annotations

import uuid

from tests.news.test_subscriptions import problem


def snapshot(news) -> tuple:
    return (
        news.rows("SELECT * FROM news.author_subscriptions ORDER BY id"),
        news.rows("SELECT * FROM news.posts ORDER BY id"),
        news.scalar("SELECT count(*) FROM news.outbox"),
    )


def test_malformed_requests_are_validation_errors_and_change_nothing(news):
    member, author = uuid.uuid4(), uuid.uuid4()
    subscription_id = news.follow_author(member, author)
    post_id = news.publish(member, "mine")
    before = snapshot(news)
    requests = [
        ("GET", "/api/v1/feed/subscriptions", {"params": {"limit": 0}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"limit": 31}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"limit": "ten"}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"limit": 2**40}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"categoryId": str(uuid.UUID(int=0))}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"categoryId": "not-a-uuid"}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"cursor": "%%%"}}),
        ("GET", "/api/v1/feed/global", {"params": {"limit": -1}}),
        ("GET", "/api/v1/feed/global", {"params": {"categoryId": "x"}}),
        ("GET", "/api/v1/subscriptions", {"params": {"limit": 101}}),
        ("DELETE", f"/api/v1/subscriptions/{uuid.UUID(int=0)}", {}),
        ("DELETE", "/api/v1/subscriptions/not-a-uuid", {}),
        ("GET", "/api/v1/news/posts/not-a-uuid", {}),
        ("POST", "/api/v1/subscriptions", {"json": {"targetKind": "Author", "targetUserId": "nope"}}),
        ("POST", "/api/v1/subscriptions", {"json": {"targetKind": "Company", "targetCompanyId": 42}}),
        ("POST", "/api/v1/subscriptions", {"json": {"targetUserId": str(author)}}),
        ("POST", "/api/v1/subscriptions", {"json": {"targetKind": "Author", "targetUserId": str(author), "x": 1}}),
        ("POST", "/api/v1/subscriptions", {"content": b"{not json", "headers": {"content-type": "application/json"}}),
        ("POST", "/api/v1/subscriptions", {"json": ["Author"]}),
        ("POST", "/api/v1/news/posts", {"json": {"title": " ", "body": "b"}}),
        ("POST", "/api/v1/news/posts", {"json": {"title": "t" * 201, "body": "b"}}),
        ("POST", "/api/v1/news/posts", {"json": {"title": "t", "body": "b", "categoryId": "bad"}}),
        ("PUT", f"/api/v1/news/posts/{post_id}", {"json": {"title": "t", "body": ""}}),
        ("POST", "/api/v1/news/posts/not-a-uuid/publish", {}),
    ]
    for method, path, kwargs in requests:
        response = news.request(method, path, member, **kwargs)
        problem(response, 400, "VALIDATION_ERROR")
        assert "Traceback" not in response.text and "SELECT" not in response.text
    assert snapshot(news) == before
    assert news.scalar("SELECT deleted_at IS NULL FROM news.author_subscriptions WHERE id = :id", id=subscription_id)
