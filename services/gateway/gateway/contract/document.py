"""/openapi.json: FastAPI's document of the routes (paths, parameters, request bodies, from the code
that reads them), completed with what FastAPI cannot see: each operation's responses in its
context's envelope (body types from gateway.contract.responses, schemas generated from the
TypedDicts the renderers return), the statuses every operation of a context shares, the error
codes each context's envelope can carry, and the security schemes (member JWT, host signature)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, RouteContext, iter_route_contexts
from pydantic import TypeAdapter

from gateway import envelopes
from gateway.auth import member, member_or_guest
from gateway.contract import codes, responses
from gateway.envelopes import Context
from gateway.errors import VALIDATION_CODE, generic_code

MEMBER = "memberJwt"
HOST = ("hostKeyId", "hostTimestamp", "hostNonce", "hostSignature")
# Existing clients sign v2 or v1, without a nonce; they keep being served.
HOST_WITHOUT_NONCE = ("hostKeyId", "hostTimestamp", "hostSignature")
SECURITY_SCHEMES = {
    MEMBER: {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
             "description": "A member's token: `sub` is the member id (a UUID), `exp` is required."},
    "hostKeyId": {"type": "apiKey", "in": "header", "name": "X-Activity-Key-Id",
                  "description": "The host key's id; the key decides the tenant."},
    "hostTimestamp": {"type": "apiKey", "in": "header", "name": "X-Activity-Timestamp",
                      "description": "Unix seconds, within the gateway's tolerance (300 s) of its clock."},
    "hostNonce": {"type": "apiKey", "in": "header", "name": "X-Activity-Nonce",
                  "description": "Drawn anew for each request: 32 to 128 characters of `A-Z a-z 0-9 - _`, at least "
                                 "128 random bits. A write whose nonce the gateway has seen within the window is "
                                 "refused (401), so a write is told from its replay by the nonce, not the clock."},
    "hostSignature": {"type": "apiKey", "in": "header", "name": "X-Activity-Signature",
                      "description": "`v3=` and the lowercase hex HMAC-SHA256, under the key's secret, of eight lines "
                                     "joined by `\\n`: the method, the path and the raw query exactly as sent, the "
                                     "timestamp, X-Activity-Viewer (empty when absent), the hex SHA-256 of the raw "
                                     "body, the Idempotency-Key header (empty when absent) and X-Activity-Nonce. "
                                     "`v2=` (the first seven lines) and `v1=` (the first six) keep verifying, without "
                                     "a nonce (docs/architecture.md, \"Host signing\")."},
}
# FastAPI's own answer to a malformed request, which the gateway never gives: it answers 400 in the
# context's envelope (gateway.errors).
_FASTAPI_VALIDATION = ("HTTPValidationError", "ValidationError")


def build(app: FastAPI) -> dict[str, Any]:
    document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    statuses: dict[Context, set[int]] = {context: set() for context in responses.ERROR_COMPONENTS}
    for route in iter_route_contexts(app.routes):
        if not isinstance(route.original_route, APIRoute) or not route.include_in_schema:
            continue
        path = route.path_format or ""
        context = envelopes.context_for_path(path)
        for method in route.methods or ():
            operation = document["paths"][path][method.lower()]
            _complete(operation, route, context)
            if context in statuses:
                statuses[context].update(int(status) for status in operation["responses"] if int(status) >= 400)
    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name in _FASTAPI_VALIDATION:
        schemas.pop(name, None)
    schemas.update(_body_schemas())
    schemas.update(_request_schemas())
    schemas.update(_error_schemas(statuses))
    components["securitySchemes"] = SECURITY_SCHEMES
    return document


def _security(route: RouteContext, context: Context) -> list[dict[str, list]] | None:
    if context is Context.TIMELINE:
        return [{name: [] for name in HOST}, {name: [] for name in HOST_WITHOUT_NONCE}]
    calls = {dependency.call for dependency in route.dependant.dependencies}
    if member in calls:
        return [{MEMBER: []}]
    if member_or_guest in calls:
        return [{}, {MEMBER: []}]  # a guest, or a member whose token must then be valid
    return None


def _complete(operation: dict[str, Any], route: RouteContext, context: Context) -> None:
    answers = operation["responses"]
    if "HTTPValidationError" in str(answers.get("422")):
        del answers["422"]
    if context is Context.GATEWAY:
        return
    # The size bounds hold before routing (gateway.request_limits.size), the services may be away.
    shared = [413, 431, 503, 504]
    if operation.get("parameters") or operation.get("requestBody"):
        shared.append(400)
    security = _security(route, context)
    if security:
        operation["security"] = security
        shared += [401, 429]  # an authenticated caller is counted (gateway.request_limits.rate)
    for status in shared:
        answers.setdefault(str(status), responses.error(context, status))
    operation["responses"] = dict(sorted(answers.items()))


def _body_schemas() -> dict[str, Any]:
    inputs: list[tuple[str, Literal["serialization"], TypeAdapter]] = [
        (name, "serialization", TypeAdapter(body_type)) for name, body_type in responses.BODIES.items()]
    keys, definitions = TypeAdapter.json_schemas(inputs, ref_template=responses.REF + "{model}")
    schemas = dict(definitions.get("$defs", {}))
    for (name, _), schema in keys.items():
        # A generic envelope comes back as a reference to pydantic's name for it: keep it under ours.
        generated = schema.get("$ref", "").removeprefix(responses.REF)
        schemas[name] = schemas.pop(generated) if generated else schema
        # Its title too: pydantic titles every instance of a generic envelope alike (`TimelineBody`),
        # and a client generator names its classes by title.
        schemas[name]["title"] = name
    return schemas


def _request_schemas() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, model in responses.REQUESTS.items():
        schema = model.model_json_schema(ref_template=responses.REF + "{model}")
        found.update(schema.pop("$defs", {}))
        found[name] = schema
    return found


def _error_schemas(statuses: dict[Context, set[int]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for context, body_type in ((Context.TIMELINE, envelopes.TimelineError), (Context.NEWS, envelopes.NewsProblem),
                               (Context.SCOUT, envelopes.ScoutError)):
        words = sorted({*codes.SERVICE_CODES[context], *codes.ROUTE_CODES[context], VALIDATION_CODE[context],
                        *(generic_code(context, status) for status in statuses[context])})
        schema = TypeAdapter(body_type).json_schema(ref_template=responses.REF + "{model}")
        found.update(schema.pop("$defs", {}))
        if context is Context.TIMELINE:
            found["TimelineErrorDetail"]["properties"]["code"]["enum"] = words
        elif context is Context.NEWS:
            schema["properties"]["code"]["enum"] = words
            schema["properties"]["status"]["enum"] = sorted(statuses[context])
        else:
            schema["properties"]["error"]["enum"] = words
            schema["properties"]["code"]["enum"] = codes.scout_numbers(statuses[context])
        found[responses.ERROR_COMPONENTS[context]] = schema
    return found
