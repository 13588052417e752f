"""feeds.news.v1.SubscriptionService: proto ↔ domain; the subscriber is the metadata actor."""

from __future__ import annotations

from feeds.news.v1 import subscriptions_pb2 as pb
from feeds.news.v1 import subscriptions_pb2_grpc
from feeds_runtime.context import require_actor
from feeds_runtime.db import Database
from news.subscriptions.service import SubscriptionService
from news.wire import optional, timestamp


class SubscriptionServicer(subscriptions_pb2_grpc.SubscriptionServiceServicer):
    def __init__(self, database: Database, service: SubscriptionService) -> None:
        self._database = database
        self._service = service

    def Subscribe(self, request: pb.SubscribeRequest, context) -> pb.SubscribeResponse:
        subscriber = require_actor()
        with self._database.transaction() as session:
            result = self._service.subscribe(
                session, subscriber, request.target_kind,
                optional(request, "target_user_id"), optional(request, "target_company_id"),
            )
        return pb.SubscribeResponse(
            subscription_id=str(result.subscription_id), target_kind=result.target.kind.value,
            target=str(result.target.id), created=result.created,
        )

    def Unsubscribe(self, request: pb.UnsubscribeRequest, context) -> pb.UnsubscribeResponse:
        subscriber = require_actor()
        with self._database.transaction() as session:
            self._service.unsubscribe(session, subscriber, request.subscription_id)
        return pb.UnsubscribeResponse()

    def ListSubscriptions(self, request: pb.ListSubscriptionsRequest, context) -> pb.ListSubscriptionsResponse:
        subscriber = require_actor()
        limit = request.limit if request.HasField("limit") else None
        with self._database.read() as session:  # one statement
            page = self._service.list_active(session, subscriber, request.cursor, limit)
        return pb.ListSubscriptionsResponse(
            items=[
                pb.Subscription(subscription_id=str(s.id), target_kind=s.target.kind.value, target=str(s.target.id),
                                created_at=timestamp(s.created_at))
                for s in page.items
            ],
            next_cursor=page.next_cursor,
            has_more=page.has_more,
        )
