"""Publishing a post records PostPublished (news.post-published.v1) in the news event log, in the
publish transaction; consumers read it through NewsEvents.ListEvents from a position, and the relay
announces the new position on the Redis stream."""

from __future__ import annotations

import json
import uuid

import grpc
import pytest
import redis

from devstack.processes import wait_for
from feeds.news.v1 import events_pb2, events_pb2_grpc
from feeds_runtime.errors import error_info
from feeds_runtime.events import stream_key


def events_of(news, post_id: str) -> list[tuple[int, dict]]:
    stub = events_pb2_grpc.NewsEventsStub(news._channel)
    found, after = [], 0
    while True:
        page = stub.ListEvents(events_pb2.ListEventsRequest(after=after, limit=1000), timeout=10)
        found += [(e.position, json.loads(e.payload_json)) for e in page.events if e.type == "news.post-published.v1"]
        if len(page.events) < 1000:
            return [(position, payload) for position, payload in found if payload["post_id"] == post_id]
        after = page.next_after


def test_publishing_records_post_published_in_the_event_log(news, redis_url, redis_namespace):
    author, category = uuid.uuid4(), uuid.uuid4()
    post_id = news.publish(author, "announced", category=category)
    wait_for(lambda: events_of(news, post_id), "PostPublished readable", news.platform.group, 60)
    [(position, payload)] = events_of(news, post_id)
    published_at = news.scalar("SELECT published_at FROM news.posts WHERE id = :p", p=post_id)
    assert payload == {"post_id": post_id, "author_user_id": str(author), "author_company_id": "",
                       "category_id": str(category), "published_at": published_at.isoformat()}
    # The stream only announces positions; the event is in the log. The relay announces the new head
    # once the numbering has committed, so the position is readable a moment before it is announced.
    client = redis.Redis.from_url(redis_url, decode_responses=True)

    def announced() -> list[int]:
        return [int(fields["position"]) for _, fields in client.xrange(stream_key(redis_namespace, "news"))]
    wait_for(lambda: max(announced(), default=0) >= position, "the position announced", news.platform.group, 60)
    # Publishing again is a no-op: no second event, numbered or not
    assert news.request("POST", f"/api/v1/news/posts/{post_id}/publish", author).json()["status"] == "Published"
    assert news.scalar("SELECT count(*) FROM news.events WHERE payload->>'post_id' = :p", p=post_id) == 1


def test_list_events_refuses_bad_positions(news):
    stub = events_pb2_grpc.NewsEventsStub(news._channel)
    for bad in [events_pb2.ListEventsRequest(after=-5), events_pb2.ListEventsRequest(limit=5000)]:
        with pytest.raises(grpc.RpcError) as refused:
            stub.ListEvents(bad, timeout=10)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(refused.value).reason == "VALIDATION_ERROR"
