"""Per-call identity, set by the server interceptor from gRPC metadata and read by services."""

from __future__ import annotations

import uuid
from contextvars import ContextVar

from feeds_runtime.errors import InvalidArgument, Unauthenticated

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
actor_id: ContextVar[str | None] = ContextVar("actor_id", default=None)
tenant_id: ContextVar[str | None] = ContextVar("tenant_id", default=None)


def _uuid(value: str | None, what: str) -> uuid.UUID | None:
    if value is None or value == "":
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        raise InvalidArgument("invalid_request", f"{what} must be a UUID") from None


def optional_actor() -> uuid.UUID | None:
    """The calling member, or None for a guest."""
    return _uuid(actor_id.get(), "x-actor-id")


def require_actor() -> uuid.UUID:
    actor = optional_actor()
    if actor is None:
        raise Unauthenticated("unauthenticated", "this call needs x-actor-id")
    return actor


def require_tenant() -> uuid.UUID:
    tenant = _uuid(tenant_id.get(), "x-tenant-id")
    if tenant is None:
        raise Unauthenticated("unauthenticated", "this call needs x-tenant-id")
    return tenant


def writer_key() -> str | None:
    """Whose writes the call's reads must show (read-your-writes, feeds_runtime.replicas): the calling
    member within its tenant, as the metadata names them; none for a guest or a call of no member."""
    actor = actor_id.get()
    if not actor:
        return None
    return f"{tenant_id.get() or ''}/{actor}"
