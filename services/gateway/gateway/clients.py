"""One gRPC channel per service, with a deadline on every call and automatic retry of UNAVAILABLE
for the idempotent reads each context declares (gRPC service config retry policy). The channel speaks
mTLS with the gateway's certificate (feeds_runtime.tls) and is opened anew when the certificate files
change, the old one closing once its calls are done, so a rotated certificate needs no restart."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Mapping, Sequence

import grpc
from fastapi import Request
from grpc_health.v1 import health_pb2, health_pb2_grpc

from feeds_runtime.observability import tracing
from feeds_runtime.tls import TlsFiles, channel_credentials

log = logging.getLogger("gateway.clients")

# How often, at most, a call looks whether the certificate files changed.
RELOAD_CHECK_SECONDS = 1.0

READ_RETRY_POLICY = {
    "maxAttempts": 4,
    "initialBackoff": "0.05s",
    "maxBackoff": "0.5s",
    "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE"],
}


def service_config(idempotent_reads: Mapping[str, Sequence[str]]) -> str:
    names = [{"service": service, "method": method} for service, methods in idempotent_reads.items() for method in methods]
    if not names:
        return json.dumps({})
    return json.dumps({"methodConfig": [{"name": names, "retryPolicy": READ_RETRY_POLICY}]})


class ServiceChannel:
    def __init__(self, name: str, address: str, deadline: float, idempotent_reads: Mapping[str, Sequence[str]],
                 tls: TlsFiles | None) -> None:
        self.name = name
        self.address = address
        self.deadline = deadline
        self._options = [("grpc.service_config", service_config(idempotent_reads)), ("grpc.enable_retries", 1)]
        self._tls = tls
        self._stamp = tls.stamp() if tls else None
        self._checked = time.monotonic()
        self._channel = self._open()
        self._closing: set[asyncio.Task] = set()

    def _open(self) -> grpc.aio.Channel:
        if self._tls is None:  # a mesh's plaintext, or dev without certificates
            return grpc.aio.insecure_channel(self.address, options=self._options)
        return grpc.aio.secure_channel(self.address, channel_credentials(self._tls), options=self._options)

    @property
    def channel(self) -> grpc.aio.Channel:
        if self._tls is not None and time.monotonic() - self._checked >= RELOAD_CHECK_SECONDS:
            self._checked = time.monotonic()
            if (stamp := self._tls.stamp()) != self._stamp:
                try:
                    fresh = self._open()
                except (OSError, ValueError):
                    log.warning("gRPC certificate files changed but cannot be read yet", exc_info=True)
                    return self._channel
                self._stamp, retired, self._channel = stamp, self._channel, fresh
                closing = asyncio.get_running_loop().create_task(retired.close(grace=self.deadline))
                self._closing.add(closing)
                closing.add_done_callback(self._closing.discard)
                log.info("gRPC certificate reloaded", extra={"service": self.name})
        return self._channel

    async def serving(self) -> bool:
        try:
            response = await health_pb2_grpc.HealthStub(self.channel).Check(health_pb2.HealthCheckRequest(), timeout=1.0)
        except grpc.RpcError:
            return False
        return response.status == health_pb2.HealthCheckResponse.SERVING

    async def close(self) -> None:
        await asyncio.gather(self._channel.close(), *self._closing)


def call_metadata(request: Request, *, actor: uuid.UUID | None = None, tenant: str | None = None) -> list[tuple[str, str]]:
    """Identity on the wire to a service: actor, tenant, the request id (from the caller or new) and
    the trace context of the REST request."""
    metadata = [("x-request-id", request.state.request_id), *tracing.call_metadata()]
    if actor is not None:
        metadata.append(("x-actor-id", str(actor)))
    if tenant is not None:
        metadata.append(("x-tenant-id", tenant))
    return metadata
