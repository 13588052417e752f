"""The timeline's integration events survive Redis: a consumer that was down while posts were
published and Redis lost everything catches up from its position on every event, none missing and
none repeated, reading TimelineEvents.ListEvents of the real server (worker and relay running)."""

from __future__ import annotations

import json
import signal
import sys
import uuid
from pathlib import Path

import grpc
import pytest
from sqlalchemy import text

from devstack.processes import wait_for
from feeds.timeline.v1 import timeline_pb2 as pb
from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.errors import error_info
from feeds_runtime.events import stream_key

from .conftest import TENANTS, Rpc, private_stack

CONSUMER = str(Path(__file__).parent / "event_consumer.py")


def received(engine) -> list[tuple[int, str]]:
    with engine.connect() as connection:
        if not connection.execute(text("SELECT to_regclass('event_consumer.received')")).scalar():
            return []
        return [tuple(row) for row in connection.execute(
            text("SELECT position, post_id FROM event_consumer.received ORDER BY id")).all()]


def head(engine) -> int:
    """The log's newest position."""
    with engine.connect() as connection:
        return connection.execute(text("SELECT coalesce(max(position), 0) FROM timeline.events")).scalar()


def sequenced(engine, post_ids: list[str]) -> bool:
    """Every one of these posts' events has its position in the log."""
    with engine.connect() as connection:
        return connection.execute(text("SELECT count(*) FROM timeline.events WHERE position IS NOT NULL "
                                       "AND payload->>'post_id' = ANY(:p)"), {"p": post_ids}).scalar() == len(post_ids)


def announced(client, stream: str) -> int:
    """The newest position the relay announced on the stream (it announces after numbering)."""
    newest = client.xrevrange(stream, count=1)
    return int(newest[0][1][b"position"]) if newest else 0


@pytest.fixture
def fresh_consumer(timeline_engine):
    with timeline_engine.begin() as connection:
        connection.execute(text("DROP SCHEMA IF EXISTS event_consumer CASCADE"))
    yield


def test_a_consumer_down_while_redis_lost_everything_catches_up_from_its_position(group, timeline_engine,
                                                                                  fresh_consumer):
    mine, other = TENANTS[0]["tenant_id"], TENANTS[1]["tenant_id"]
    stack, _, client, port = private_stack(group)
    stack.start()
    rpc = Rpc(stack.address)
    env = {**stack.platform.service_env("timeline"), "TIMELINE_ADDRESS": stack.address, "TENANT_ID": mine}

    def start_consumer():
        return group.start("consumer", [sys.executable, CONSUMER], env)

    # Given a consumer that has handled the tenant's first posts
    consumer = start_consumer()
    first = [rpc.publish(mine, uuid.uuid4(), f"first {n}").id for n in range(3)]
    wait_for(lambda: [post for _, post in received(timeline_engine)] == first, "first events handled", group, 30)
    # When the consumer is killed
    consumer.popen.send_signal(signal.SIGKILL)
    consumer.popen.wait()
    group.processes.remove(consumer)
    # while posts are published (another tenant's among them) and their events numbered
    later = []
    for n in range(12):
        later.append(rpc.publish(mine, uuid.uuid4(), f"later {n}").id)
        rpc.publish(other, uuid.uuid4(), f"other {n}")
    stream = stream_key(stack.platform.group.env["REDIS_NAMESPACE"], "timeline")
    wait_for(lambda: sequenced(timeline_engine, later), "events numbered", group, 30)
    wait_for(lambda: announced(client, stream) == head(timeline_engine), "events announced", group, 30)
    # and Redis loses everything, the notifications included
    client.flushall()
    assert not client.exists(stream)
    # Then the restarted consumer catches up from its position on every event of its tenant
    start_consumer()
    wait_for(lambda: len(received(timeline_engine)) >= len(first + later), "caught up", group, 30)
    # and goes on with new ones, so a repeat of anything before would be in the table by now
    last = rpc.publish(mine, uuid.uuid4(), "after the restart").id
    wait_for(lambda: received(timeline_engine)[-1:] and received(timeline_engine)[-1][1] == last,
             "new event handled", group, 30)
    rows = received(timeline_engine)
    assert [post for _, post in rows] == first + later + [last], "every event once, in publish order"
    positions = [position for position, _ in rows]
    assert positions == sorted(set(positions))


def test_list_events_is_scoped_to_the_tenant_and_refuses_bad_input(group, timeline_engine):
    mine, other = TENANTS[0]["tenant_id"], TENANTS[1]["tenant_id"]
    stack, _, _, _ = private_stack(group)
    stack.start()
    rpc = Rpc(stack.address)
    events = timeline_pb2_grpc.TimelineEventsStub(rpc.channel)
    author = uuid.uuid4()
    post = rpc.publish(mine, author, "announced")
    rpc.publish(other, uuid.uuid4(), "not yours")

    def mine_after(after: int, limit: int = 0) -> pb.ListEventsResponse:
        return events.ListEvents(pb.ListEventsRequest(after=after, limit=limit), metadata=rpc.metadata(mine), timeout=10)

    def payloads() -> list[dict]:
        return [json.loads(e.payload_json) for e in mine_after(0).events]

    wait_for(lambda: any(p["post_id"] == post.id for p in payloads()), "event readable", group, 30)
    payloads = payloads()
    assert {p["tenant_id"] for p in payloads} == {mine}
    [announced] = [p for p in payloads if p["post_id"] == post.id]
    assert announced == {"tenant_id": mine, "post_id": post.id, "author_id": str(author), "visibility": "public",
                         "published_at": announced["published_at"]}
    for bad in [pb.ListEventsRequest(after=-1), pb.ListEventsRequest(limit=1001)]:
        with pytest.raises(grpc.RpcError) as refused:
            events.ListEvents(bad, metadata=rpc.metadata(mine), timeout=10)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(refused.value).reason == "invalid_request"
    with pytest.raises(grpc.RpcError) as anonymous:
        events.ListEvents(pb.ListEventsRequest(), timeout=10)
    # A call without a tenant reads nothing
    assert anonymous.value.code() == grpc.StatusCode.UNAUTHENTICATED
