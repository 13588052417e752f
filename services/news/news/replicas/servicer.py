"""feeds.news.v1.IdentityReplicaService: an identity event in, an outbox row for news.identity out."""

from __future__ import annotations

from google.protobuf.json_format import MessageToDict

from feeds.news.v1 import identity_pb2 as pb
from feeds.news.v1 import identity_pb2_grpc
from feeds_runtime.db import Database
from news.codes import invalid
from news import jobs
from news.replicas import events

_ACTORS = {
    "user_upserted": jobs.USER_UPSERTED,
    "user_blocked": jobs.USER_BLOCKED,
    "company_upserted": jobs.COMPANY_UPSERTED,
    "company_suspended": jobs.COMPANY_SUSPENDED,
}


class IdentityReplicaServicer(identity_pb2_grpc.IdentityReplicaServiceServicer):
    def __init__(self, database: Database) -> None:
        self._database = database

    def IngestIdentityEvent(self, request: pb.IngestIdentityEventRequest, context) -> pb.IngestIdentityEventResponse:
        kind = request.WhichOneof("event")
        if kind is None:
            raise invalid("event", "one of user_upserted, user_blocked, company_upserted, company_suspended")
        event = MessageToDict(getattr(request, kind), preserving_proto_field_name=True,
                              always_print_fields_with_no_presence=True)
        with self._database.transaction() as session:
            events.enqueue(session, _ACTORS[kind], event)
        return pb.IngestIdentityEventResponse()
