"""feeds.news.v1.PostService: proto ↔ domain; the writer is the metadata actor."""

from __future__ import annotations

from feeds.news.v1 import posts_pb2 as pb
from feeds.news.v1 import posts_pb2_grpc
from feeds_runtime.context import require_actor
from feeds_runtime.db import Database
from news.domain import Post
from news.posts.service import PostService
from news.wire import optional, timestamp, uuid_text


def post_message(post: Post) -> pb.Post:
    return pb.Post(
        id=str(post.id), author_user_id=uuid_text(post.author_user_id),
        author_company_id=uuid_text(post.author_company_id), category_id=uuid_text(post.category_id),
        title=post.title, body=post.body, status=post.status.value, published_at=timestamp(post.published_at),
        created_at=timestamp(post.created_at), updated_at=timestamp(post.updated_at),
    )


class PostServicer(posts_pb2_grpc.PostServiceServicer):
    def __init__(self, database: Database, service: PostService) -> None:
        self._database = database
        self._service = service

    def CreatePost(self, request: pb.CreatePostRequest, context) -> pb.CreatePostResponse:
        writer = require_actor()
        with self._database.transaction() as session:
            post = self._service.create(session, writer, request.title, request.body,
                                        optional(request, "category_id"), optional(request, "author_company_id"))
        return pb.CreatePostResponse(post=post_message(post))

    def UpdatePost(self, request: pb.UpdatePostRequest, context) -> pb.UpdatePostResponse:
        writer = require_actor()
        with self._database.transaction() as session:
            post = self._service.update(session, writer, request.post_id, request.title, request.body,
                                        optional(request, "category_id"))
        return pb.UpdatePostResponse(post=post_message(post))

    def PublishPost(self, request: pb.PublishPostRequest, context) -> pb.PublishPostResponse:
        writer = require_actor()
        with self._database.transaction() as session:
            post = self._service.publish(session, writer, request.post_id)
        return pb.PublishPostResponse(post=post_message(post))

    def UnpublishPost(self, request: pb.UnpublishPostRequest, context) -> pb.UnpublishPostResponse:
        writer = require_actor()
        with self._database.transaction() as session:
            post = self._service.unpublish(session, writer, request.post_id)
        return pb.UnpublishPostResponse(post=post_message(post))
