"""One gRPC channel per service, with a deadline on every call and automatic retry of UNAVAILABLE
for the idempotent reads each context declares (gRPC service config retry policy)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence

import grpc
from fastapi import Request
from grpc_health.v1 import health_pb2, health_pb2_grpc

from feeds_runtime.observability import tracing

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
    def __init__(self, name: str, address: str, deadline: float, idempotent_reads: Mapping[str, Sequence[str]]) -> None:
        self.name = name
        self.address = address
        self.deadline = deadline
        self.channel = grpc.aio.insecure_channel(
            address,
            options=[("grpc.service_config", service_config(idempotent_reads)), ("grpc.enable_retries", 1)],
        )

    async def serving(self) -> bool:
        try:
            response = await health_pb2_grpc.HealthStub(self.channel).Check(health_pb2.HealthCheckRequest(), timeout=1.0)
        except grpc.RpcError:
            return False
        return response.status == health_pb2.HealthCheckResponse.SERVING

    async def close(self) -> None:
        await self.channel.close()


def call_metadata(request: Request, *, actor: uuid.UUID | None = None, tenant: str | None = None) -> list[tuple[str, str]]:
    """Identity on the wire to a service: actor, tenant, the request id (from the caller or new) and
    the trace context of the REST request."""
    metadata = [("x-request-id", request.state.request_id), *tracing.call_metadata()]
    if actor is not None:
        metadata.append(("x-actor-id", str(actor)))
    if tenant is not None:
        metadata.append(("x-tenant-id", tenant))
    return metadata
