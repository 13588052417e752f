"""How the timeline service is assembled: its servicers, queues and migrations."""

from __future__ import annotations

from pathlib import Path

from feeds_runtime.server import Registration
from feeds_runtime.service import ServiceDefinition
from timeline.models import outbox
from timeline.settings import TimelineSettings

QUEUES = ["timeline.default"]


def registrations(service: ServiceDefinition) -> list[Registration]:
    return []


SERVICE = ServiceDefinition(
    name="timeline",
    settings_class=TimelineSettings,
    migrations_dir=Path(__file__).parent / "migrations",
    outbox=outbox,
    registrations=registrations,
    worker_module="timeline.worker",
    queues=QUEUES,
)
