"""feeds.news.v1 messages → the news context's camelCase JSON bodies."""

from __future__ import annotations

from typing import Literal

from pydantic import with_config
from typing_extensions import TypedDict

from feeds.news.v1 import common_pb2, posts_pb2, subscriptions_pb2
from gateway.contract.fields import CLOSED, DateTime, Uuid

TargetKind = Literal["Author", "Company"]
PostStatus = Literal["Draft", "Published", "Unpublished"]
# The service's words, each narrowed to its literal (a word the document does not name fails loudly).
TARGET_KINDS: dict[str, TargetKind] = {"Author": "Author", "Company": "Company"}
POST_STATUSES: dict[str, PostStatus] = {"Draft": "Draft", "Published": "Published", "Unpublished": "Unpublished"}


def _or_none(value: str) -> str | None:
    return value or None


@with_config(CLOSED)
class NewsAuthor(TypedDict):
    id: Uuid
    displayName: str | None
    avatarUrl: str | None
    isBlocked: bool


@with_config(CLOSED)
class NewsCompany(TypedDict):
    id: Uuid
    name: str | None
    logoUrl: str | None


@with_config(CLOSED)
class NewsFeedItem(TypedDict):
    """A published post in a feed, signed by a member (`author`) or a company (`company`), never both."""

    id: Uuid
    title: str
    excerpt: str
    categoryId: Uuid | None
    publishedAt: DateTime | None  # None on a draft its writer reads
    author: NewsAuthor | None
    company: NewsCompany | None


@with_config(CLOSED)
class NewsPostDetail(NewsFeedItem):
    body: str


@with_config(CLOSED)
class NewsFeedPage(TypedDict):
    items: list[NewsFeedItem]
    nextCursor: str | None
    hasMore: bool


@with_config(CLOSED)
class NewsSubscriptionFeed(TypedDict):
    page: NewsFeedPage
    isEmptySubscriptions: bool


@with_config(CLOSED)
class NewsGlobalFeed(TypedDict):
    page: NewsFeedPage


@with_config(CLOSED)
class NewsSubscribed(TypedDict):
    subscriptionId: Uuid
    targetKind: TargetKind
    target: Uuid


@with_config(CLOSED)
class NewsSubscription(NewsSubscribed):
    createdAt: DateTime


@with_config(CLOSED)
class NewsSubscriptionList(TypedDict):
    items: list[NewsSubscription]
    nextCursor: str | None
    hasMore: bool


@with_config(CLOSED)
class NewsPost(TypedDict):
    id: Uuid
    authorUserId: Uuid | None
    authorCompanyId: Uuid | None
    categoryId: Uuid | None
    title: str
    body: str
    status: PostStatus
    publishedAt: DateTime | None
    createdAt: DateTime
    updatedAt: DateTime


def feed_item(item: common_pb2.PostFeedItem) -> NewsFeedItem:
    body: NewsFeedItem = {
        "id": item.id,
        "title": item.title,
        "excerpt": item.excerpt,
        "categoryId": _or_none(item.category_id),
        "publishedAt": _or_none(item.published_at),
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


def post_detail(item: common_pb2.PostFeedItem, body: str) -> NewsPostDetail:
    return {**feed_item(item), "body": body}


def feed_page(page: common_pb2.FeedPage) -> NewsFeedPage:
    return {"items": [feed_item(item) for item in page.items], "nextCursor": _or_none(page.next_cursor),
            "hasMore": page.has_more}


def subscribed(response: subscriptions_pb2.SubscribeResponse) -> NewsSubscribed:
    return {"subscriptionId": response.subscription_id, "targetKind": TARGET_KINDS[response.target_kind],
            "target": response.target}


def subscription_list(response: subscriptions_pb2.ListSubscriptionsResponse) -> NewsSubscriptionList:
    return {
        "items": [
            {"subscriptionId": s.subscription_id, "targetKind": TARGET_KINDS[s.target_kind], "target": s.target,
             "createdAt": s.created_at}
            for s in response.items
        ],
        "nextCursor": _or_none(response.next_cursor),
        "hasMore": response.has_more,
    }


def post(message: posts_pb2.Post) -> NewsPost:
    return {
        "id": message.id,
        "authorUserId": _or_none(message.author_user_id),
        "authorCompanyId": _or_none(message.author_company_id),
        "categoryId": _or_none(message.category_id),
        "title": message.title,
        "body": message.body,
        "status": POST_STATUSES[message.status],
        "publishedAt": _or_none(message.published_at),
        "createdAt": message.created_at,
        "updatedAt": message.updated_at,
    }


