"""A consumer of the timeline's events, as a process of its own: it keeps its position in schema
`event_consumer` and records each event it handles there, in the same transaction.

    python event_consumer.py   (DATABASE_URL, REDIS_URL or REDIS_SENTINELS…, REDIS_NAMESPACE, TIMELINE_ADDRESS,
                                TENANT_ID)
"""

from __future__ import annotations

import os
import signal

from sqlalchemy import BigInteger, Column, Connection, Identity, String, Table, text

from devstack.tls import DEV_CA
from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.consumer import Consumer, grpc_source, positions_table
from feeds_runtime.db import make_engine, schema_metadata
from feeds_runtime.events import Event, stream_key
from feeds_runtime.redis_clients import connect
from feeds_runtime.settings import RedisSettings, load_settings

SCHEMA = "event_consumer"
metadata = schema_metadata(SCHEMA)
positions = positions_table(metadata)
# Every handling of an event, so a test sees a repeat as a second row.
received = Table("received", metadata, Column("id", BigInteger, Identity(), primary_key=True),
                 Column("position", BigInteger, nullable=False), Column("post_id", String, nullable=False))


def handle(connection: Connection, event: Event) -> None:
    connection.execute(received.insert().values(position=event.position, post_id=event.payload["post_id"]))


def main() -> None:
    engine = make_engine(os.environ["DATABASE_URL"], pool_size=2)
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}"))
        metadata.create_all(connection)
    stub = timeline_pb2_grpc.TimelineEventsStub(DEV_CA.channel(os.environ["TIMELINE_ADDRESS"]))
    source = grpc_source(stub.ListEvents, pb.ListEventsRequest, (("x-tenant-id", os.environ["TENANT_ID"]),))
    redis_settings = load_settings(RedisSettings)
    consumer = Consumer(engine, positions, "event-consumer", "timeline", source, handle,
                        redis_client=connect(redis_settings),
                        stream=stream_key(redis_settings.redis_namespace, "timeline"), page_size=5, poll_seconds=1.0)
    signal.signal(signal.SIGTERM, lambda *_: consumer.stop())
    consumer.run()


if __name__ == "__main__":
    main()
