"""Server interceptor: the caller authorized (feeds_runtime.callers) before any handler runs, identity
metadata into context variables, domain errors into statuses, the call's server span (under the
caller's trace) and its metrics and log line."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

import grpc
import redis.exceptions
import sqlalchemy.exc
from google.protobuf import any_pb2
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from feeds_runtime import context
from feeds_runtime.callers import Callers
from feeds_runtime.errors import ERROR_DOMAIN, DomainError, InvalidArgument
from feeds_runtime.observability import metrics, tracing

log = logging.getLogger("feeds.rpc")

_METADATA_VARS = {
    "x-request-id": context.request_id,
    "x-actor-id": context.actor_id,
    "x-tenant-id": context.tenant_id,
}


def error_status(error: DomainError) -> grpc.Status:
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=ERROR_DOMAIN, metadata=error.metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    return rpc_status.to_status(status_pb2.Status(code=error.code.value[0], message=error.message, details=[detail]))


def nul_field(message: Message, prefix: str = "") -> str | None:
    """The first string field (however nested) holding a NUL character: PostgreSQL text cannot
    store one, so such input is refused up front as the caller's mistake, never a database error."""
    for field, value in message.ListFields():
        name = f"{prefix}{field.name}"
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                for key, item in value.items():
                    if isinstance(key, str) and "\x00" in key or isinstance(item, str) and "\x00" in item:
                        return name
                    if isinstance(item, Message) and (found := nul_field(item, f"{name}.")):
                        return found
                continue
            for item in value if field.is_repeated else [value]:
                if found := nul_field(item, f"{name}."):
                    return found
        elif field.type == FieldDescriptor.TYPE_STRING:
            if any("\x00" in item for item in (value if field.is_repeated else [value])):
                return name
    return None


def default_invalid_input(message: str) -> DomainError:
    return InvalidArgument("invalid_request", message)


# A store that cannot be reached right now (PostgreSQL restarting or failing over, its pool
# exhausted, Redis down or failing over): the call did not happen and may be retried, so the caller
# hears UNAVAILABLE. SQLAlchemy wraps the driver's connection failures as OperationalError or
# InterfaceError, and a connection dropped mid-statement as DBAPIError with connection_invalidated
# set. A Redis master demoted by its Sentinels answers writes with READONLY (ReadOnlyError) to a
# client that still holds a connection to it.
_STORE_UNAVAILABLE = (
    sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError, sqlalchemy.exc.DisconnectionError,
    sqlalchemy.exc.TimeoutError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
    redis.exceptions.ReadOnlyError,
)


def store_unavailable(error: BaseException) -> bool:
    if isinstance(error, sqlalchemy.exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, _STORE_UNAVAILABLE)


def _internal_status() -> grpc.Status:
    return rpc_status.to_status(status_pb2.Status(code=code_pb2.INTERNAL, message="internal error"))


def _unavailable_status() -> grpc.Status:
    return rpc_status.to_status(status_pb2.Status(code=code_pb2.UNAVAILABLE, message="storage unavailable, retry"))


def _text_metadata(rpc: grpc.ServicerContext) -> dict[str, str]:
    # Text metadata only: the keys read here are ASCII, binary (-bin) values are bytes.
    return {key: value for key, value in rpc.invocation_metadata() if isinstance(value, str)}


class ServerInterceptor(grpc.ServerInterceptor):
    def __init__(self, callers: Callers, invalid_input: Callable[[str], DomainError] = default_invalid_input) -> None:
        self._callers = callers
        # Builds the context's own validation error (its reason code and envelope details).
        self._invalid_input = invalid_input

    def intercept_service(self, continuation: Callable, handler_call_details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(handler_call_details)
        if handler is None:
            return handler
        method = handler_call_details.method
        if handler.unary_unary is None:
            return self._guard_stream(method, handler)  # health's Watch, reflection
        inner = handler.unary_unary

        def unary(request: Any, rpc: grpc.ServicerContext) -> Any:
            metadata = _text_metadata(rpc)
            tokens = [var.set(metadata.get(key) or None) for key, var in _METADATA_VARS.items()]
            if context.request_id.get() is None:
                tokens.append(context.request_id.set(uuid.uuid4().hex))
            started = time.perf_counter()
            outcome = "OK"
            with tracing.rpc_span(method, metadata) as span:
                try:
                    self._callers.authorize(method, rpc, metadata)
                    if isinstance(request, Message) and (field := nul_field(request)):
                        raise self._invalid_input(f"{field}: must not contain NUL characters")
                    return inner(request, rpc)
                except DomainError as error:
                    outcome = error.code.name
                    rpc.abort_with_status(error_status(error))
                except Exception as error:
                    if rpc.code() is not None:  # type: ignore[attr-defined]  # aborted deliberately inside the handler
                        outcome = rpc.code().name  # type: ignore[attr-defined]
                        raise
                    if store_unavailable(error):
                        outcome = "UNAVAILABLE"
                        log.warning("storage unavailable", extra={"method": method, "error": type(error).__name__})
                        rpc.abort_with_status(_unavailable_status())
                    outcome = "INTERNAL"
                    log.exception("unhandled error", extra={"method": method})
                    rpc.abort_with_status(_internal_status())
                finally:
                    elapsed = time.perf_counter() - started
                    metrics.rpc_handled(method, outcome, elapsed)
                    tracing.rpc_outcome(span, outcome)
                    log.info("rpc", extra={"method": method, "code": outcome, "ms": round(elapsed * 1000, 2)})
                    for token in reversed(tokens):
                        token.var.reset(token)

        return grpc.unary_unary_rpc_method_handler(
            unary,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )

    def _guard_stream(self, method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        """A streaming handler that runs only for an authorized caller."""
        def guarded(behavior: Callable) -> Callable:
            def call(request: Any, rpc: grpc.ServicerContext) -> Any:
                try:
                    self._callers.authorize(method, rpc, _text_metadata(rpc))
                except DomainError as error:
                    rpc.abort_with_status(error_status(error))
                return behavior(request, rpc)
            return call

        serialization = {"request_deserializer": handler.request_deserializer,
                         "response_serializer": handler.response_serializer}
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(guarded(handler.unary_stream), **serialization)
        if handler.stream_unary is not None:
            return grpc.stream_unary_rpc_method_handler(guarded(handler.stream_unary), **serialization)
        assert handler.stream_stream is not None, "a handler has one behaviour"
        return grpc.stream_stream_rpc_method_handler(guarded(handler.stream_stream), **serialization)
