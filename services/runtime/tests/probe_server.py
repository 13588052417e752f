"""A gRPC server built with the shared bootstrap and a raw-bytes servicer, for runtime tests:
`Slow` sleeps for the given number of milliseconds, `Fail` raises a domain error, `Crash` a bug."""

from __future__ import annotations

import logging
import time

import grpc

from feeds_runtime import context
from feeds_runtime.errors import NotFound
from feeds_runtime.logs import configure_logging
from feeds_runtime.server import Registration, ServiceServer
from feeds_runtime.settings import GrpcTlsSettings, ServiceSettings, load_settings
from pydantic_settings import SettingsConfigDict

SERVICE = "probe.v1.Probe"
log = logging.getLogger("probe")


class ProbeSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="PROBE_", extra="ignore")


def slow(request: bytes, rpc) -> bytes:
    log.info("slow call started")
    time.sleep(int(request.decode()) / 1000)
    return b"done"


def fail(request: bytes, rpc) -> bytes:
    log.info("failing on purpose")
    raise NotFound("probe_not_found", "no such probe", probe_id="p-1")


def crash(request: bytes, rpc) -> bytes:
    raise RuntimeError("secret internals")


def whoami(request: bytes, rpc) -> bytes:
    return f"{context.actor_id.get()}|{context.tenant_id.get()}|{context.request_id.get()}".encode()


def add(server: grpc.Server) -> None:
    handlers = {
        name: grpc.unary_unary_rpc_method_handler(fn)
        for name, fn in {"Slow": slow, "Fail": fail, "Crash": crash, "WhoAmI": whoami}.items()
    }
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, handlers)])


if __name__ == "__main__":
    settings = load_settings(ProbeSettings)
    configure_logging("probe", settings.log_level)
    ServiceServer(settings, load_settings(GrpcTlsSettings), [Registration(SERVICE, add)],
                  ready=lambda: True).serve_forever()
