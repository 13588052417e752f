"""feeds.news.v1.NewsEvents: news' integration events after a position (feeds_runtime.events). The
events announce published posts, public facts of the context, so the read needs no actor."""

from __future__ import annotations

from feeds.news.v1 import events_pb2 as pb
from feeds.news.v1 import events_pb2_grpc
from feeds_runtime.db import Database
from feeds_runtime.events import serve_list_events
from news import codes
from news.models import events as events_table


class NewsEventsServicer(events_pb2_grpc.NewsEventsServicer):
    def __init__(self, database: Database) -> None:
        self._database = database

    def ListEvents(self, request: pb.ListEventsRequest, context) -> pb.ListEventsResponse:
        return serve_list_events(self._database, events_table, request, pb.ListEventsResponse, codes.invalid_request)
