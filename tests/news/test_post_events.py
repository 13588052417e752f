"""Publishing a post announces PostPublished on the news.post-published.v1 stream, through the
outbox and the worker."""

from __future__ import annotations

import time
import uuid

import redis

from news.posts.published import stream_key


def test_publishing_emits_post_published(news, redis_url, redis_namespace):
    author, category = uuid.uuid4(), uuid.uuid4()
    post_id = news.publish(author, "announced", category=category)
    news.wait_applied()
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    deadline = time.monotonic() + 10
    while True:
        events = [fields for _, fields in client.xrange(stream_key(redis_namespace)) if fields["post_id"] == post_id]
        if events or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert len(events) == 1
    assert events[0]["author_user_id"] == str(author) and events[0]["category_id"] == str(category)
    # Publishing again is a no-op: no second event
    assert news.request("POST", f"/api/v1/news/posts/{post_id}/publish", author).json()["status"] == "Published"
    news.wait_applied()
    assert len([f for _, f in client.xrange(stream_key(redis_namespace)) if f["post_id"] == post_id]) == 1
