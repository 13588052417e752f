"""gRPC status + ErrorInfo → HTTP status and the context's envelope. No stack trace, SQL, token or
header ever reaches a response: only the domain code, the service's message and safe metadata."""

from __future__ import annotations

import logging

import grpc
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from feeds_runtime.errors import error_info
from gateway import envelopes, request_ids
from gateway.api_error import ApiError
from gateway.auth import member
from gateway.envelopes import Context
from gateway.headers import response_headers

log = logging.getLogger("gateway.errors")

HTTP_STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.UNAVAILABLE: 503,
    # A call cut short by the service (a server draining for shutdown cancels what is still running):
    # nothing was done that the client can see, and a retry reaches another replica.
    grpc.StatusCode.CANCELLED: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}

# What a 503 tells a client to wait before retrying: a service restarting, draining or failing over
# its database is back, or replaced by another replica, within about this long.
RETRY_AFTER_SECONDS = 1

# The code word each context uses for a malformed request and for the other generic failures.
VALIDATION_CODE = {Context.TIMELINE: "invalid_request", Context.NEWS: "VALIDATION_ERROR",
                   Context.SCOUT: "invalid_argument", Context.GATEWAY: "invalid_request"}
GENERIC_CODE = {
    401: {Context.NEWS: "UNAUTHORIZED", Context.TIMELINE: "invalid_signature"},
    404: {Context.NEWS: "NOT_FOUND"},
    413: {Context.NEWS: "PAYLOAD_TOO_LARGE"},
    429: {Context.NEWS: "RATE_LIMITED"},
    431: {Context.NEWS: "HEADERS_TOO_LARGE"},
    500: {Context.NEWS: "INTERNAL"},
    503: {Context.NEWS: "SERVICE_UNAVAILABLE"},
    504: {Context.NEWS: "TIMEOUT"},
}
_GENERIC_DEFAULT = {401: "unauthenticated", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large",
                    429: "rate_limited", 431: "headers_too_large", 500: "internal", 503: "unavailable", 504: "timeout"}


def generic_code(context: Context, status: int) -> str:
    return GENERIC_CODE.get(status, {}).get(context) or _GENERIC_DEFAULT.get(status, "error")


# What a 429 from a service (a member's scans all running) tells the client to wait: about as long
# as a scan takes to finish.
BUSY_RETRY_AFTER_SECONDS = 30

# Reasons whose HTTP status is not their gRPC status' usual one: a service's own record of an
# Idempotency-Key used for another request is the 422 the IETF draft gives it, as at the gateway.
REASON_STATUS = {"idempotency_conflict": 422}


# A service refusing the gateway itself (its certificate's identity not allowed, or not for the
# tenant): the platform's configuration is wrong, nothing the client can change.
REFUSED_GATEWAY = frozenset({"caller_not_allowed", "tenant_not_granted"})


def from_rpc_error(error: grpc.RpcError) -> ApiError:
    code = error.code()
    status = HTTP_STATUS.get(code, 500)
    info = error_info(error)
    if info is not None and info.reason in REFUSED_GATEWAY:
        log.error("a service refused the gateway's identity", extra={"grpc_code": code.name, "reason": info.reason})
        return ApiError(500, "", "internal error")
    if info is not None and status != 500:
        status = REASON_STATUS.get(info.reason, status)
    if status == 500 or info is None:
        if status == 500:
            log.error("upstream failure", extra={"grpc_code": code.name})
        return ApiError(status, "", "internal error" if status == 500 else f"upstream {code.name.lower()}")
    scout_code = info.metadata.get("scout_code")
    return ApiError(status, info.reason, error.details() or info.reason,
                    scout_code=int(scout_code) if scout_code else None,
                    headers={"Retry-After": str(BUSY_RETRY_AFTER_SECONDS)} if status == 429 else None)


def authenticate_first(request: Request) -> None:
    """A body FastAPI cannot even parse is refused before route dependencies run; a guest on a
    member route still hears 401 first, whatever else is wrong with the request."""
    dependant = getattr(request.scope.get("route"), "dependant", None)
    if dependant is not None and any(dependency.call is member for dependency in dependant.dependencies):
        request.app.state.member_auth.member(request)


HTTP_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(request: Request) -> str:
    """Every method some route serves at the request's path, asking the router as it routes: the
    405 Starlette raises names only the methods of the first route whose path matched (so GET
    /posts/{id} would hide DELETE /posts/{id})."""
    routes = request.app.router.routes
    return ", ".join(method for method in HTTP_METHODS
                     if any(route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes))


def install(app: FastAPI) -> None:
    def render(request: Request, error: ApiError):
        context = envelopes.context_for_path(request.url.path)
        response = envelopes.error(context, error.status, error.code or generic_code(context, error.status),
                                   error.message, scout_code=error.scout_code)
        response.headers.update(error.headers)
        if error.status == 503:
            response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError):
        return render(request, error)

    @app.exception_handler(grpc.RpcError)
    async def _rpc_error(request: Request, error: grpc.RpcError):
        return render(request, from_rpc_error(error))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError):
        context = envelopes.context_for_path(request.url.path)
        try:
            authenticate_first(request)
        except ApiError as unauthenticated:
            return render(request, unauthenticated)
        first = error.errors()[0] if error.errors() else {}
        if first.get("type") == "json_invalid":  # a body bodies.loads refused, its message naming the field
            return render(request, ApiError(400, VALIDATION_CODE[context], first.get("ctx", {}).get("error", "")))
        loc = tuple(first.get("loc", ()))
        # The first part says where (body, query, path, header); a field may be named `body` itself.
        where = ".".join(str(part) for part in (loc[1:] if loc[:1] in (("body",), ("query",), ("path",), ("header",))
                                                else loc))
        message = f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "invalid request")
        return render(request, ApiError(400, VALIDATION_CODE[context], message))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException):
        context = envelopes.context_for_path(request.url.path)
        headers = {"Allow": allowed_methods(request)} if error.status_code == 405 else None
        return render(request, ApiError(error.status_code, generic_code(context, error.status_code), str(error.detail),
                                        headers=headers))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception):
        log.exception("unhandled gateway error")
        # This handler answers outside the middleware stack, so it adds the headers every response
        # carries, and the request id the middleware left on the request's state.
        headers = response_headers(request.url.path)
        if rid := getattr(request.state, "request_id", None):
            headers[request_ids.HEADER] = rid
        return render(request, ApiError(500, "", "internal error", headers=headers))
