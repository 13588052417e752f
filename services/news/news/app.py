"""How the news service is assembled: its servicers, queues and migrations."""

from __future__ import annotations

from pathlib import Path

from feeds.news.v1 import events_pb2_grpc, feeds_pb2_grpc, identity_pb2_grpc, posts_pb2_grpc, subscriptions_pb2_grpc
from feeds_runtime.server import Registration
from feeds_runtime.service import ServiceDefinition
from news.cursor import Cursors
from news.feeds.service import FeedService
from news.feeds.servicer import FeedServicer
from news import codes
from news.models import events, outbox
from news.jobs import QUEUES
from news.events.servicer import NewsEventsServicer
from news.posts.service import PostService
from news.posts.servicer import PostServicer
from news.replicas.servicer import IdentityReplicaServicer
from news.settings import NewsSettings
from news.subscriptions.service import SubscriptionService
from news.subscriptions.servicer import SubscriptionServicer


def registrations(service: ServiceDefinition[NewsSettings]) -> list[Registration]:
    settings = service.settings
    database = service.database
    cursors = Cursors(settings.cursor_secret.get_secret_value().encode())
    enabled = settings.subscriptions_enabled
    subscriptions = SubscriptionServicer(database, SubscriptionService(cursors, enabled=enabled))
    feeds = FeedServicer(database, FeedService(cursors, subscriptions_enabled=enabled))
    posts = PostServicer(database, PostService())
    replicas = IdentityReplicaServicer(database)
    news_events = NewsEventsServicer(database)
    return [
        Registration("feeds.news.v1.SubscriptionService",
                     lambda server: subscriptions_pb2_grpc.add_SubscriptionServiceServicer_to_server(subscriptions, server)),
        Registration("feeds.news.v1.FeedService",
                     lambda server: feeds_pb2_grpc.add_FeedServiceServicer_to_server(feeds, server)),
        Registration("feeds.news.v1.PostService",
                     lambda server: posts_pb2_grpc.add_PostServiceServicer_to_server(posts, server)),
        Registration("feeds.news.v1.IdentityReplicaService",
                     lambda server: identity_pb2_grpc.add_IdentityReplicaServiceServicer_to_server(replicas, server)),
        Registration("feeds.news.v1.NewsEvents",
                     lambda server: events_pb2_grpc.add_NewsEventsServicer_to_server(news_events, server)),
    ]


SERVICE = ServiceDefinition(
    name="news",
    settings_class=NewsSettings,
    migrations_dir=Path(__file__).parent / "migrations",
    outbox=outbox,
    registrations=registrations,
    worker_module="news.worker",
    queues=QUEUES,
    invalid_input=codes.invalid_request,
    events=events,
)
