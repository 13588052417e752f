"""Bad input: every malformed field, cursor, limit and id (NUL characters included) is a 400 VALIDATION_ERROR
that changes nothing, through REST and in identity events over gRPC."""

from __future__ import annotations

import uuid

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from feeds.news.v1 import identity_pb2
from tests.news.test_subscriptions import problem


def snapshot(news) -> tuple:
    return (
        news.rows("SELECT * FROM news.author_subscriptions ORDER BY id"),
        news.rows("SELECT * FROM news.posts ORDER BY id"),
        news.scalar("SELECT count(*) FROM news.outbox"),
        news.rows("SELECT * FROM news.author_replicas ORDER BY user_id"),
        news.rows("SELECT * FROM news.company_replicas ORDER BY company_id"),
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
        # NUL characters, which PostgreSQL text cannot hold, in every kind of field
        ("POST", "/api/v1/news/posts", {"json": {"title": "a\x00b", "body": "b"}}),
        ("POST", "/api/v1/news/posts", {"json": {"title": "t", "body": "b\x00"}}),
        ("POST", "/api/v1/news/posts", {"json": {"title": "t", "body": "b", "categoryId": "\x00"}}),
        ("PUT", f"/api/v1/news/posts/{post_id}", {"json": {"title": "\x00", "body": "b"}}),
        ("PUT", f"/api/v1/news/posts/{post_id}", {"json": {"title": "t", "body": "x\x00y"}}),
        ("POST", "/api/v1/subscriptions", {"json": {"targetKind": "Author\x00", "targetUserId": str(author)}}),
        ("GET", "/api/v1/feed/subscriptions", {"params": {"cursor": "\x00"}}),
        ("GET", "/api/v1/feed/global", {"params": {"categoryId": f"{author}\x00"}}),
    ]
    for method, path, kwargs in requests:
        response = news.request(method, path, member, **kwargs)
        problem(response, 400, "VALIDATION_ERROR")
        assert "Traceback" not in response.text and "SELECT" not in response.text
    assert snapshot(news) == before
    assert news.scalar("SELECT deleted_at IS NULL FROM news.author_subscriptions WHERE id = :id", id=subscription_id)


def reason(error: grpc.RpcError) -> str:
    [detail] = rpc_status.from_call(error).details
    info = error_details_pb2.ErrorInfo()
    detail.Unpack(info)
    return info.reason


def test_identity_events_with_nul_characters_are_refused_and_enqueue_nothing(news):
    user, company = str(uuid.uuid4()), str(uuid.uuid4())
    news.wait_applied()
    before = snapshot(news)
    events = [
        {"user_upserted": identity_pb2.UserUpserted(user_id=user, display_name="Ann\x00", version=1)},
        {"user_upserted": identity_pb2.UserUpserted(user_id=user, avatar_url="https://x/\x00.png", version=1)},
        {"user_upserted": identity_pb2.UserUpserted(user_id=user + "\x00", version=1)},
        {"user_blocked": identity_pb2.UserBlocked(user_id="\x00" + user, version=1)},
        {"company_upserted": identity_pb2.CompanyUpserted(company_id=company, name="\x00Acme", version=1)},
        {"company_upserted": identity_pb2.CompanyUpserted(company_id=company, logo_url="\x00", version=1)},
        {"company_suspended": identity_pb2.CompanySuspended(company_id=company + "\x00", version=1)},
    ]
    for event in events:
        with pytest.raises(grpc.RpcError) as refused:
            news.ingest(**event)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert reason(refused.value) == "VALIDATION_ERROR"
    assert snapshot(news) == before
