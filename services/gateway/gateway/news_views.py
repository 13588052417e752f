"""feeds.news.v1 messages → the news context's camelCase JSON bodies."""

from __future__ import annotations

from typing import Any

from feeds.news.v1 import common_pb2, posts_pb2, subscriptions_pb2


def _or_none(value: str) -> str | None:
    return value or None


def feed_item(item: common_pb2.PostFeedItem) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": item.id,
        "title": item.title,
        "excerpt": item.excerpt,
        "categoryId": _or_none(item.category_id),
        "publishedAt": item.published_at,
        "author": None,
        "company": None,
    }
    if item.WhichOneof("signature") == "company":
        body["company"] = {"id": item.company.id, "name": _or_none(item.company.name),
                           "logoUrl": _or_none(item.company.logo_url)}
    else:
        body["author"] = {"id": item.author.id, "displayName": _or_none(item.author.display_name),
                          "avatarUrl": _or_none(item.author.avatar_url), "isBlocked": item.author.is_blocked}
    return body


def feed_page(page: common_pb2.FeedPage) -> dict[str, Any]:
    return {"items": [feed_item(item) for item in page.items], "nextCursor": _or_none(page.next_cursor),
            "hasMore": page.has_more}


def subscribed(response: subscriptions_pb2.SubscribeResponse) -> dict[str, Any]:
    return {"subscriptionId": response.subscription_id, "targetKind": response.target_kind, "target": response.target}


def subscription_list(response: subscriptions_pb2.ListSubscriptionsResponse) -> dict[str, Any]:
    return {
        "items": [
            {"subscriptionId": s.subscription_id, "targetKind": s.target_kind, "target": s.target,
             "createdAt": s.created_at}
            for s in response.items
        ],
        "nextCursor": _or_none(response.next_cursor),
        "hasMore": response.has_more,
    }


def post(message: posts_pb2.Post) -> dict[str, Any]:
    return {
        "id": message.id,
        "authorUserId": _or_none(message.author_user_id),
        "authorCompanyId": _or_none(message.author_company_id),
        "categoryId": _or_none(message.category_id),
        "title": message.title,
        "body": message.body,
        "status": message.status,
        "publishedAt": _or_none(message.published_at),
        "createdAt": message.created_at,
        "updatedAt": message.updated_at,
    }
