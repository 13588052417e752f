"""How the scout service is assembled: its servicers, queues and migrations."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from feeds.scout.v1 import scout_pb2_grpc
from feeds_runtime.server import Registration, ServiceServer
from feeds_runtime.service import ServiceDefinition
from feeds_runtime.settings import GrpcTlsSettings
from scout import codes
from scout.jobs import QUEUES
from scout.models import outbox
from scout.settings import ScoutSettings


def registrations(service: ServiceDefinition[ScoutSettings]) -> list[Registration]:
    from scout.servicer import JobServicer, ScoutServicer

    scout_servicer = ScoutServicer(service.database, service.settings)
    job_servicer = JobServicer(service.database)
    return [
        Registration(name="feeds.scout.v1.ScoutService",
                     add=lambda server: scout_pb2_grpc.add_ScoutServiceServicer_to_server(scout_servicer, server)),
        Registration(name="feeds.scout.v1.JobService",
                     add=lambda server: scout_pb2_grpc.add_JobServiceServicer_to_server(job_servicer, server)),
    ]


@dataclass
class ScoutServiceDefinition(ServiceDefinition[ScoutSettings]):
    def build_server(self, tls: GrpcTlsSettings) -> ServiceServer:
        """The gRPC server, plus the watchdog that fails runs whose job cannot be scheduled and,
        with the Threads source, its token's care (self-check and refresh); both stop when the
        server starts draining. The segmentation, gloss and pinyin dictionaries and the lexicons are
        mapped first (built first when the cache has none), so no request waits for them past its
        deadline."""
        from scout.pipeline import aliases, glosses, romanize
        from scout.pipeline.sources.threads_token import ThreadsToken
        from scout.pipeline.text import load_dictionary
        from scout.scan import watchdog

        load_dictionary()
        glosses.load()
        romanize.load()
        aliases.load()
        server = super().build_server(tls)
        server.on_drain(watchdog.start(self.database, self.settings, self.redis).set)
        if "threads" in self.settings.source_names:
            care = ThreadsToken(self.settings, self.database, self.redis)
            server.on_drain(care.start().set)
        return server


SERVICE = ScoutServiceDefinition(
    name="scout",
    settings_class=ScoutSettings,
    migrations_dir=Path(__file__).parent / "migrations",
    outbox=outbox,
    registrations=registrations,
    worker_module="scout.worker",
    queues=QUEUES,
    invalid_input=codes.invalid_text,
)
