"""REST routes of the news context: subscriptions, feeds and posts (camelCase bodies,
problem+json errors). Shape only here; every rule is the news service's."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr, WithJsonSchema
from pydantic.json_schema import JsonDict

from feeds.news.v1 import feeds_pb2, feeds_pb2_grpc, posts_pb2, posts_pb2_grpc, subscriptions_pb2, subscriptions_pb2_grpc
from gateway import envelopes, news_views
from gateway.bodies import StrictJsonRoute
from gateway.auth import member, member_or_guest
from gateway.clients import call_metadata
from gateway.contract import responses as answers
from gateway.contract.fields import NIL_UUID, NewsUuidPath, pattern, visible_text
from gateway.news_views import (
    NewsGlobalFeed,
    NewsPost,
    NewsPostDetail,
    NewsSubscribed,
    NewsSubscriptionFeed,
    NewsSubscriptionList,
)

router = APIRouter(tags=["news"], route_class=StrictJsonRoute)

# gRPC methods safe to retry on UNAVAILABLE: {"feeds.news.v1.Service": ["Method", …]}.
IDEMPOTENT_READS: dict[str, list[str]] = {
    "feeds.news.v1.FeedService": ["ListSubscriptionFeed", "ListGlobalFeed", "GetPost"],
    "feeds.news.v1.SubscriptionService": ["ListSubscriptions"],
}


NEWS_ID: JsonDict = {"type": "string", "format": "uuid", "not": {"const": NIL_UUID}}
ABSENT: JsonDict = {"type": "null"}


class SubscribeBody(BaseModel):
    """Exactly the id the kind names: an Author's targetUserId (never the member's own), or a Company's
    targetCompanyId; the other one absent or null."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"title": "SubscribeToAuthor", "required": ["targetKind", "targetUserId"],
         "properties": {"targetKind": {"const": "Author"}, "targetUserId": NEWS_ID, "targetCompanyId": ABSENT}},
        {"title": "SubscribeToCompany", "required": ["targetKind", "targetCompanyId"],
         "properties": {"targetKind": {"const": "Company"}, "targetCompanyId": NEWS_ID, "targetUserId": ABSENT}},
    ]})

    targetKind: StrictStr = Field(json_schema_extra={"enum": ["Author", "Company"]})
    targetUserId: StrictStr | None = None
    targetCompanyId: StrictStr | None = None


class NewsPostBody(BaseModel):
    """A member's post, signed by the member. There is no authorCompanyId: the gateway cannot tell
    who may post for a company, so company-signed posts come only from internal authoring services
    over gRPC (see feeds.news.v1.PostService)."""

    model_config = ConfigDict(extra="forbid")

    title: StrictStr = Field(json_schema_extra=pattern(visible_text, maxLength=200))
    body: StrictStr = Field(json_schema_extra=pattern(visible_text, maxLength=20_000))
    categoryId: StrictStr | None = Field(None, json_schema_extra=NEWS_ID)


# Page sizes as docs/news.md fixes them (the service checks them too).
SubscriptionsLimit = Query(None, ge=1, le=100, description="Subscriptions per page, 1..100; 50 when omitted.")
FeedLimit = Query(None, ge=1, le=30, description="Posts per page, 1..30; 20 when omitted.")
CategoryId = Annotated[str | None, WithJsonSchema(NEWS_ID),
                      Query(description="Only posts of this category.")]


def _channel(request: Request):
    return request.app.state.channels["news"]


def _subscriptions(request: Request):
    return subscriptions_pb2_grpc.SubscriptionServiceStub(_channel(request).channel)


def _feeds(request: Request):
    return feeds_pb2_grpc.FeedServiceStub(_channel(request).channel)


def _posts(request: Request):
    return posts_pb2_grpc.PostServiceStub(_channel(request).channel)


def _call(request: Request, actor=None) -> dict:
    return {"timeout": _channel(request).deadline, "metadata": call_metadata(request, actor=actor)}


@router.post("/api/v1/subscriptions", summary="Subscribe to an author or a company (201 created, 200 otherwise)",
             status_code=201, responses=answers.news(NewsSubscribed, 404, success=(200, 201)))
async def subscribe(request: Request, body: SubscribeBody, caller: uuid.UUID = Depends(member)) -> Response:
    message = subscriptions_pb2.SubscribeRequest(target_kind=body.targetKind)
    if body.targetUserId is not None:
        message.target_user_id = body.targetUserId
    if body.targetCompanyId is not None:
        message.target_company_id = body.targetCompanyId
    response = await _subscriptions(request).Subscribe(message, **_call(request, caller))
    return envelopes.news_body(news_views.subscribed(response), status=201 if response.created else 200)


@router.get("/api/v1/subscriptions", summary="The member's active subscriptions, newest first",
            responses=answers.news(NewsSubscriptionList, 404))
async def list_subscriptions(
    request: Request, cursor: str = "", limit: int | None = SubscriptionsLimit, caller: uuid.UUID = Depends(member)
) -> Response:
    message = subscriptions_pb2.ListSubscriptionsRequest(cursor=cursor, limit=limit)
    response = await _subscriptions(request).ListSubscriptions(message, **_call(request, caller))
    return envelopes.news_body(news_views.subscription_list(response))


@router.delete("/api/v1/subscriptions/{subscription_id}", status_code=204, summary="Unsubscribe (idempotent)",
               responses=answers.news(None, 403, 404, success=(204,)))
async def unsubscribe(request: Request, subscription_id: NewsUuidPath, caller: uuid.UUID = Depends(member)) -> Response:
    message = subscriptions_pb2.UnsubscribeRequest(subscription_id=subscription_id)
    await _subscriptions(request).Unsubscribe(message, **_call(request, caller))
    return envelopes.news_body(None, status=204)


@router.get("/api/v1/feed/subscriptions", summary="Published posts of the member's subscriptions",
            responses=answers.news(NewsSubscriptionFeed, 404))
async def subscription_feed(
    request: Request, cursor: str = "", limit: int | None = FeedLimit, categoryId: CategoryId = None,
    caller: uuid.UUID = Depends(member),
) -> Response:
    message = feeds_pb2.ListSubscriptionFeedRequest(cursor=cursor, limit=limit, category_id=categoryId)
    response = await _feeds(request).ListSubscriptionFeed(message, **_call(request, caller))
    feed: NewsSubscriptionFeed = {"page": news_views.feed_page(response.page),
                                  "isEmptySubscriptions": response.is_empty_subscriptions}
    return envelopes.news_body(feed)


@router.get("/api/v1/feed/global", summary="All published posts, open to guests", responses=answers.news(NewsGlobalFeed))
async def global_feed(
    request: Request, cursor: str = "", limit: int | None = FeedLimit, categoryId: CategoryId = None,
    caller: uuid.UUID | None = Depends(member_or_guest),
) -> Response:
    message = feeds_pb2.ListGlobalFeedRequest(cursor=cursor, limit=limit, category_id=categoryId)
    response = await _feeds(request).ListGlobalFeed(message, **_call(request, caller))
    feed: NewsGlobalFeed = {"page": news_views.feed_page(response.page)}
    return envelopes.news_body(feed)


@router.get("/api/v1/news/posts/{post_id}", summary="One published post, open to guests",
            responses=answers.news(NewsPostDetail, 404))
async def get_post(request: Request, post_id: NewsUuidPath, caller: uuid.UUID | None = Depends(member_or_guest)) -> Response:
    response = await _feeds(request).GetPost(feeds_pb2.GetPostRequest(post_id=post_id), **_call(request, caller))
    return envelopes.news_body(news_views.post_detail(response.post, response.body))


@router.post("/api/v1/news/posts", summary="Write a draft post signed by the member", status_code=201,
             responses=answers.news(NewsPost, success=(201,)))
async def create_post(request: Request, body: NewsPostBody, caller: uuid.UUID = Depends(member)) -> Response:
    message = posts_pb2.CreatePostRequest(title=body.title, body=body.body, category_id=body.categoryId)
    response = await _posts(request).CreatePost(message, **_call(request, caller))
    return envelopes.news_body(news_views.post(response.post), status=201)


@router.put("/api/v1/news/posts/{post_id}", summary="Replace a post's title, body and category",
            responses=answers.news(NewsPost, 403, 404))
async def update_post(request: Request, post_id: NewsUuidPath, body: NewsPostBody, caller: uuid.UUID = Depends(member)) -> Response:
    message = posts_pb2.UpdatePostRequest(post_id=post_id, title=body.title, body=body.body, category_id=body.categoryId)
    response = await _posts(request).UpdatePost(message, **_call(request, caller))
    return envelopes.news_body(news_views.post(response.post))


@router.post("/api/v1/news/posts/{post_id}/publish", summary="Publish a post (idempotent)",
             responses=answers.news(NewsPost, 403, 404))
async def publish_post(request: Request, post_id: NewsUuidPath, caller: uuid.UUID = Depends(member)) -> Response:
    response = await _posts(request).PublishPost(posts_pb2.PublishPostRequest(post_id=post_id), **_call(request, caller))
    return envelopes.news_body(news_views.post(response.post))


@router.post("/api/v1/news/posts/{post_id}/unpublish", summary="Unpublish a post (idempotent)",
             responses=answers.news(NewsPost, 403, 404))
async def unpublish_post(request: Request, post_id: NewsUuidPath, caller: uuid.UUID = Depends(member)) -> Response:
    message = posts_pb2.UnpublishPostRequest(post_id=post_id)
    response = await _posts(request).UnpublishPost(message, **_call(request, caller))
    return envelopes.news_body(news_views.post(response.post))
