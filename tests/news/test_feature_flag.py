"""Feature flag news.subscriptions.enabled off: subscription endpoints answer
NEWS_SUBSCRIPTIONS_DISABLED (404) while the global feed keeps working."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from devstack.processes import ProcessGroup
from tests.news.stack import NewsStack, start
from tests.news.test_subscriptions import problem


@pytest.fixture(scope="module")
def news_without_subscriptions(news, platform_env, database_url, tmp_path_factory) -> Iterator[NewsStack]:
    group = ProcessGroup(log_dir=tmp_path_factory.mktemp("news-flag-off-logs"), env=platform_env)
    try:
        stack = NewsStack(start(group, {"NEWS_SUBSCRIPTIONS_ENABLED": "false"}, kinds=("server",)), database_url)
        yield stack
        stack.close()
    finally:
        group.stop()


def test_subscription_endpoints_are_disabled_and_the_global_feed_works(news, news_without_subscriptions):
    off = news_without_subscriptions
    member, author, category = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    subscription_id = news.follow_author(member, author)
    post_id = news.publish(author, "flag off", category=category)

    for response in (
        off.subscribe(member, targetKind="Author", targetUserId=str(uuid.uuid4())),
        off.request("GET", "/api/v1/subscriptions", member),
        off.request("DELETE", f"/api/v1/subscriptions/{subscription_id}", member),
        off.feed(member),
    ):
        problem(response, 404, "NEWS_SUBSCRIPTIONS_DISABLED")
    assert news.scalar("SELECT count(*) FROM news.author_subscriptions WHERE subscriber_user_id = :m", m=member) == 1

    feed = off.request("GET", "/api/v1/feed/global", params={"categoryId": str(category)})
    assert feed.status_code == 200
    assert [item["id"] for item in feed.json()["page"]["items"]] == [post_id]
