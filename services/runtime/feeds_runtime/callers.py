"""Who calls a service, and for which tenants (docs/architecture.md, "Service calls").

A caller is the identity its client certificate names (the subject's common name: `gateway`), which
the TLS handshake has already checked against the platform's CA. Where a service mesh provides mTLS
instead (GRPC_MESH_MTLS), the calls arrive in plaintext from the local sidecar and the caller is the
workload the sidecar names in `x-forwarded-client-cert` (the last path segment of its URI, the
Kubernetes service account: `spiffe://cluster.local/ns/feeds/sa/gateway` is `gateway`).

Each service is told which callers it serves and for which tenants (`<PREFIX>_GRPC_CALLERS`): "*" for
every tenant (the gateway, which acts for every host), or a list of tenant ids. A call without an
identity is UNAUTHENTICATED; from a caller not listed, or naming a tenant (`x-tenant-id`) not granted
to it, PERMISSION_DENIED; each refusal carries its ErrorInfo, is logged and is counted."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import grpc

from feeds_runtime.errors import DomainError, PermissionDenied, Unauthenticated
from feeds_runtime.observability import metrics
from feeds_runtime.settings import Grant

log = logging.getLogger("feeds.callers")

FORWARDED_CLIENT_CERT = "x-forwarded-client-cert"


def mesh_identity(forwarded: str) -> str | None:
    """The workload an Envoy sidecar names in x-forwarded-client-cert: the URI of the last element
    (the hop nearest this service), to its last path segment."""
    last = forwarded.rsplit(",", 1)[-1]
    for part in last.split(";"):
        key, _, value = part.partition("=")
        if key.strip().lower() == "uri" and value.strip('"'):
            return value.strip('"').rstrip("/").rsplit("/", 1)[-1] or None
    return None


class Callers:
    def __init__(self, grants: Mapping[str, Grant], *, from_mesh: bool) -> None:
        self._grants = dict(grants)
        self._from_mesh = from_mesh

    def identity(self, rpc: grpc.ServicerContext, metadata: Mapping[str, str]) -> str | None:
        if self._from_mesh:
            return mesh_identity(metadata.get(FORWARDED_CLIENT_CERT, ""))
        names = rpc.auth_context().get("x509_common_name")
        return names[0].decode("utf-8", "replace") if isinstance(names, list) and names else None

    def authorize(self, method: str, rpc: grpc.ServicerContext, metadata: Mapping[str, str]) -> None:
        """Raises the refusal (a DomainError) unless the caller may make this call."""
        caller = self.identity(rpc, metadata)
        tenant = metadata.get("x-tenant-id") or ""
        refusal: DomainError | None = None
        if caller is None:
            refusal = Unauthenticated("unauthenticated", "the call names no caller: a client certificate of the "
                                                         "platform's CA is required")
        elif (granted := self._grants.get(caller)) is None:
            refusal = PermissionDenied("caller_not_allowed", f"caller {caller} may not call this service")
        elif tenant and granted != "*" and tenant not in granted:
            refusal = PermissionDenied("tenant_not_granted", f"caller {caller} may not act for tenant {tenant}")
        if refusal is not None:
            log.warning("call refused", extra={"method": method, "reason": refusal.reason, "caller": caller,
                                               "tenant": tenant or None})
            metrics.rpc_refused(method, refusal.reason, caller or "")
            raise refusal
