"""Typed domain errors. Each knows its gRPC status; one interceptor turns them into a status
with a `google.rpc.ErrorInfo` whose `reason` is the domain code. Business code raises, never aborts.
A caller reads the ErrorInfo back with `error_info` (docs/architecture.md, "Errors")."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

ERROR_DOMAIN = "feeds"


class DomainError(Exception):
    code: grpc.StatusCode = grpc.StatusCode.UNKNOWN

    def __init__(self, reason: str, message: str, **metadata: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        # ErrorInfo metadata is a string map; only safe, client-facing details go here.
        self.metadata = {key: str(value) for key, value in metadata.items()}


class InvalidArgument(DomainError):
    code = grpc.StatusCode.INVALID_ARGUMENT


class Unauthenticated(DomainError):
    code = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(DomainError):
    code = grpc.StatusCode.PERMISSION_DENIED


class NotFound(DomainError):
    code = grpc.StatusCode.NOT_FOUND


class AlreadyExists(DomainError):
    code = grpc.StatusCode.ALREADY_EXISTS


class Conflict(DomainError):
    """The request clashes with the resource's current state (a 409 at the edge)."""

    code = grpc.StatusCode.ABORTED


class FailedPrecondition(DomainError):
    code = grpc.StatusCode.FAILED_PRECONDITION


class ResourceExhausted(DomainError):
    """The caller has as much of something going as it may (a 429 at the edge)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class Unavailable(DomainError):
    code = grpc.StatusCode.UNAVAILABLE


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo detail of a failed call, None when the status carries none."""
    status = rpc_status.from_call(error)
    if status is None:
        return None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    return None
