"""How the news service is assembled: its servicers, queues and migrations."""

from __future__ import annotations

from pathlib import Path

from feeds_runtime.server import Registration
from feeds_runtime.service import ServiceDefinition
from news.models import outbox
from news.settings import NewsSettings

QUEUES = ["news.default"]


def registrations(service: ServiceDefinition) -> list[Registration]:
    return []


SERVICE = ServiceDefinition(
    name="news",
    settings_class=NewsSettings,
    migrations_dir=Path(__file__).parent / "migrations",
    outbox=outbox,
    registrations=registrations,
    worker_module="news.worker",
    queues=QUEUES,
)
