"""How the scout service is assembled: its servicers, queues and migrations."""

from __future__ import annotations

from pathlib import Path

from feeds_runtime.server import Registration
from feeds_runtime.service import ServiceDefinition
from scout.models import outbox
from scout.settings import ScoutSettings

QUEUES = ["scout.default"]


def registrations(service: ServiceDefinition) -> list[Registration]:
    return []


SERVICE = ServiceDefinition(
    name="scout",
    settings_class=ScoutSettings,
    migrations_dir=Path(__file__).parent / "migrations",
    outbox=outbox,
    registrations=registrations,
    worker_module="scout.worker",
    queues=QUEUES,
)
