"""feeds.news.v1.FeedService: proto ↔ domain. Guests (no x-actor-id) read the global feed and posts. Every read
is one statement, run in autocommit; the feeds tolerate lag, so they run on a replica when the service
has one (`Database.replica_read()`), the member's own writes seen all the same."""

from __future__ import annotations

from feeds.news.v1 import common_pb2, feeds_pb2_grpc
from feeds.news.v1 import feeds_pb2 as pb
from feeds_runtime.context import optional_actor, require_actor
from feeds_runtime.db import Database
from news.domain import FeedItem
from news.feeds.service import FeedPage, FeedService
from news.wire import optional, timestamp, uuid_text


def feed_item(row: FeedItem) -> common_pb2.PostFeedItem:
    # Signatures are filled in place rather than built and copied: a page has up to thirty items.
    item = common_pb2.PostFeedItem(
        id=str(row.id), title=row.title, excerpt=row.excerpt, category_id=uuid_text(row.category_id),
        published_at=timestamp(row.published_at),
    )
    if row.author_company_id is not None:
        company = item.company
        company.id, company.name, company.logo_url = (
            str(row.author_company_id), row.company_name or "", row.logo_url or "")
    else:
        author = item.author
        author.SetInParent()  # present even when every field is empty, as a copied signature was
        author.id, author.display_name, author.avatar_url = (
            uuid_text(row.author_user_id), row.display_name or "", row.avatar_url or "")
        author.is_blocked = row.author_status == "Blocked"
    return item


def feed_page(page: FeedPage) -> common_pb2.FeedPage:
    return common_pb2.FeedPage(items=[feed_item(row) for row in page.items], next_cursor=page.next_cursor,
                               has_more=page.has_more)


class FeedServicer(feeds_pb2_grpc.FeedServiceServicer):
    def __init__(self, database: Database, service: FeedService) -> None:
        self._database = database
        self._service = service

    def ListSubscriptionFeed(self, request: pb.ListSubscriptionFeedRequest, context) -> pb.ListSubscriptionFeedResponse:
        subscriber = require_actor()
        limit = request.limit if request.HasField("limit") else None
        # One statement, and a second only for an empty page (does the subscriber follow anything):
        # in autocommit that answer may be a moment newer than the page, which is true either way.
        page, empty = self._database.replica_read(lambda connection: self._service.subscription_feed(
            connection, subscriber, request.cursor, limit, optional(request, "category_id")))
        return pb.ListSubscriptionFeedResponse(page=feed_page(page), is_empty_subscriptions=empty)

    def ListGlobalFeed(self, request: pb.ListGlobalFeedRequest, context) -> pb.ListGlobalFeedResponse:
        limit = request.limit if request.HasField("limit") else None
        page = self._database.replica_read(lambda connection: self._service.global_feed(
            connection, request.cursor, limit, optional(request, "category_id")))
        return pb.ListGlobalFeedResponse(page=feed_page(page))

    def GetPost(self, request: pb.GetPostRequest, context) -> pb.GetPostResponse:
        viewer = optional_actor()
        with self._database.read() as session:
            found = self._service.post(session, viewer, request.post_id)
        return pb.GetPostResponse(post=feed_item(found.item), body=found.body)
