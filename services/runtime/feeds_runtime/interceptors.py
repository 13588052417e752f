"""Server interceptor: identity metadata into context variables, domain errors into statuses."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from feeds_runtime import context
from feeds_runtime.errors import ERROR_DOMAIN, DomainError

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


def _internal_status() -> grpc.Status:
    return rpc_status.to_status(status_pb2.Status(code=code_pb2.INTERNAL, message="internal error"))


class ServerInterceptor(grpc.ServerInterceptor):
    def intercept_service(self, continuation: Callable, handler_call_details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler  # health, reflection and streams pass through untouched
        method = handler_call_details.method
        inner = handler.unary_unary

        def unary(request: Any, rpc: grpc.ServicerContext) -> Any:
            metadata = dict(rpc.invocation_metadata())
            tokens = [var.set(metadata.get(key) or None) for key, var in _METADATA_VARS.items()]
            if context.request_id.get() is None:
                tokens.append(context.request_id.set(uuid.uuid4().hex))
            started = time.perf_counter()
            outcome = "OK"
            try:
                return inner(request, rpc)
            except DomainError as error:
                outcome = error.code.name
                rpc.abort_with_status(error_status(error))
            except Exception:
                if rpc.code() is not None:  # aborted deliberately inside the handler
                    raise
                outcome = "INTERNAL"
                log.exception("unhandled error", extra={"method": method})
                rpc.abort_with_status(_internal_status())
            finally:
                log.info(
                    "rpc",
                    extra={"method": method, "code": outcome, "ms": round((time.perf_counter() - started) * 1000, 2)},
                )
                for token in reversed(tokens):
                    token.var.reset(token)

        return grpc.unary_unary_rpc_method_handler(
            unary,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
