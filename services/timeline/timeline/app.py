"""How the timeline service is assembled: its servicers, queues and migrations."""

from __future__ import annotations

from pathlib import Path

from feeds.timeline.v1 import timeline_pb2_grpc
from feeds_runtime.server import Registration
from feeds_runtime.service import ServiceDefinition
from timeline.jobs import BULK_QUEUE, QUEUES
from timeline.models import events, outbox
from timeline.settings import TimelineSettings


def registrations(service: ServiceDefinition) -> list[Registration]:
    from timeline.servicer import (
        TimelineAdminServicer,
        TimelineEventsServicer,
        TimelinePolicyServicer,
        TimelineServicer,
    )

    return [
        Registration(
            name="feeds.timeline.v1.TimelineService",
            add=lambda server: timeline_pb2_grpc.add_TimelineServiceServicer_to_server(
                TimelineServicer(service.database, service.settings), server),
        ),
        Registration(
            name="feeds.timeline.v1.TimelinePolicy",
            add=lambda server: timeline_pb2_grpc.add_TimelinePolicyServicer_to_server(
                TimelinePolicyServicer(service.database), server),
        ),
        Registration(
            name="feeds.timeline.v1.TimelineAdmin",
            add=lambda server: timeline_pb2_grpc.add_TimelineAdminServicer_to_server(
                TimelineAdminServicer(service.database, service.settings), server),
        ),
        Registration(
            name="feeds.timeline.v1.TimelineEvents",
            add=lambda server: timeline_pb2_grpc.add_TimelineEventsServicer_to_server(
                TimelineEventsServicer(service.database), server),
        ),
    ]


SERVICE = ServiceDefinition(
    name="timeline",
    settings_class=TimelineSettings,
    migrations_dir=Path(__file__).parent / "migrations",
    outbox=outbox,
    registrations=registrations,
    worker_module="timeline.worker",
    queues=QUEUES,
    bulk_queues=[BULK_QUEUE],
    # Statements the driver has prepared keep one generic plan. Left to choose, PostgreSQL plans a
    # statement on the partitioned timeline_entries anew at every call: it prices the generic plan
    # as if it read all partitions, though it prunes all but the viewer's when it runs.
    session_settings={"plan_cache_mode": "force_generic_plan"},
    events=events,
)
