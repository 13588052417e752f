"""Who is calling: members by JWT, host backends by HMAC request signature (docs/architecture.md)."""

from __future__ import annotations

import hmac
import time
import uuid
from dataclasses import dataclass

import jwt
import redis
from fastapi import Request

from feeds_runtime.signing import NONCE_HEADER, VERSIONS, is_nonce, sign
from gateway import store
from gateway.api_error import ApiError
from gateway.settings import GatewaySettings


class MemberAuth:
    """Verifies `Authorization: Bearer <jwt>`: HS256 with a shared secret, or RS256 via JWKS."""

    def __init__(self, settings: GatewaySettings) -> None:
        self._settings = settings
        self._jwks = jwt.PyJWKClient(settings.jwks_url, cache_keys=True) if settings.jwks_url else None

    def _key_and_algorithms(self, token: str):
        if self._jwks is not None:
            return self._jwks.get_signing_key_from_jwt(token).key, ["RS256"]
        if secret := self._settings.jwt_secret.get_secret_value():
            return secret, ["HS256"]
        raise ApiError(401, "", "member authentication is not configured")

    def member(self, request: Request, *, required: bool = True) -> uuid.UUID | None:
        if len(request.headers.getlist("authorization")) > 1:  # which one counts would be a guess
            raise ApiError(401, "", "send one Authorization header")
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if not header:
            if required:
                raise ApiError(401, "", "sign-in required")
            return None
        if scheme.lower() != "bearer" or not token:
            raise ApiError(401, "", "expected Authorization: Bearer <token>")
        try:
            key, algorithms = self._key_and_algorithms(token)
            claims = jwt.decode(
                token, key, algorithms=algorithms, audience=self._settings.jwt_audience,
                issuer=self._settings.jwt_issuer, options={"require": ["sub", "exp"]},
            )
            member_id = uuid.UUID(str(claims["sub"]))
        except (jwt.PyJWTError, ValueError):
            raise ApiError(401, "", "invalid or expired token") from None
        if self._outlives_limit(claims):
            raise ApiError(401, "", f"token lifetime exceeds {self._settings.jwt_max_lifetime_seconds} seconds")
        return member_id

    def _outlives_limit(self, claims: dict) -> bool:
        """Whether `exp` lies further than the maximum lifetime past now or past `iat`: a far `exp`
        would make a leaked token good for ever. PyJWT has already taken both with int(), which
        also accepts a numeric string, so they are read the same way here."""
        limit = self._settings.jwt_max_lifetime_seconds
        expires = int(claims["exp"])
        issued = int(claims["iat"]) if "iat" in claims else None
        return expires - time.time() > limit or (issued is not None and expires - issued > limit)

    def issue_dev_token(self, member_id: uuid.UUID, ttl_seconds: int = 3600) -> str:
        """Short-lived HS256 token for the dev sign-in form and for tests."""
        secret = self._settings.jwt_secret.get_secret_value()
        if not secret:
            raise ApiError(404, "", "dev sign-in is not available")
        now = int(time.time())
        claims = {"sub": str(member_id), "iat": now, "exp": now + ttl_seconds}
        if self._settings.jwt_audience:
            claims["aud"] = self._settings.jwt_audience
        if self._settings.jwt_issuer:
            claims["iss"] = self._settings.jwt_issuer
        return jwt.encode(claims, secret, algorithm="HS256")


async def member(request: Request) -> uuid.UUID:
    """Route dependency for member-only endpoints. As a dependency it runs before FastAPI validates
    the body and query, so a guest gets 401 whatever else is wrong with the request. The member's
    request counts against the member's quota of its kind (gateway.request_limits.rate)."""
    caller = request.app.state.member_auth.member(request)
    await request.app.state.rate_limits.count_member(request, str(caller))
    return caller


async def member_or_guest(request: Request) -> uuid.UUID | None:
    """Route dependency for endpoints open to guests; a token, when sent, must still be valid (and
    the member's request counts as on member-only endpoints)."""
    caller = request.app.state.member_auth.member(request, required=False)
    if caller is not None:
        await request.app.state.rate_limits.count_member(request, str(caller))
    return caller


# The headers a host signature consists of (the nonce in v3); each may be sent once.
SIGNATURE_HEADERS = ("x-activity-key-id", "x-activity-timestamp", "x-activity-viewer", "x-activity-signature",
                     NONCE_HEADER.lower())
# Requests that change something: their signatures are good for one request only.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class HostCall:
    tenant_id: str
    viewer_id: str  # empty where the call names none


class HostSignature:
    """Checks X-Activity-* headers against the exact bytes sent: path and query are never decoded or
    re-encoded, so a re-encoded cursor or a reordered query fails like any other tampering. A write is
    accepted once: a captured request sent again inside the tolerance window is refused, recognised
    by its nonce in v3 (so identical writes in one second, each with its own nonce, all pass) and by
    its signature in v1 and v2."""

    def __init__(self, settings: GatewaySettings) -> None:
        self._settings = settings
        self._keys = {key.key_id: key for key in settings.host_keys}
        self._tolerance = settings.signature_tolerance_seconds

    async def verify(self, request: Request) -> HostCall:
        refused = ApiError(401, "invalid_signature", "request signature is missing, stale or wrong")
        headers = request.headers
        if any(len(headers.getlist(name)) > 1 for name in SIGNATURE_HEADERS):
            raise refused
        key = self._keys.get(headers.get("x-activity-key-id", ""))
        timestamp = headers.get("x-activity-timestamp", "")
        signature = headers.get("x-activity-signature", "")
        viewer = headers.get("x-activity-viewer", "")
        # At most 12 digits (unix seconds until the year 33658): int() and the clock arithmetic stay bounded.
        if key is None or not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= 12) \
                or abs(time.time() - int(timestamp)) > self._tolerance:
            raise refused
        version = signature.partition("=")[0]
        nonce = headers.get(NONCE_HEADER, "")
        if version not in VERSIONS or (version == "v3" and not is_nonce(nonce)):
            raise refused
        raw_path = request.scope.get("raw_path", request.url.path.encode()).decode("latin-1").split("?", 1)[0]
        raw_query = request.scope.get("query_string", b"").decode("latin-1")
        expected = sign(key.secret, request.method, raw_path, raw_query, timestamp, viewer, await request.body(),
                        version=version, idempotency_key=headers.get("idempotency-key", ""),
                        nonce=nonce if version == "v3" else "")
        if not hmac.compare_digest(expected, signature):
            raise refused
        if request.method in WRITES:
            # A signature is remembered while its timestamp is in the window; a nonce, which a later
            # timestamp could carry again, also for a whole window from its first use.
            left = int(timestamp) + self._tolerance - int(time.time())
            if version == "v3":
                await self._first_sight(request, ("host-nonces", key.key_id, nonce), max(left, self._tolerance))
            else:
                await self._first_sight(request, ("host-signatures", key.key_id, signature), left)
        await request.app.state.rate_limits.count(request, "host", key.key_id)
        return HostCall(tenant_id=key.tenant_id, viewer_id=viewer)

    async def _first_sight(self, request: Request, seen: tuple[str, ...], seconds: int) -> None:
        """Remember the write (its key's nonce, or its signature) for `seconds`; refuse it when it is
        already remembered. Without Redis (dev only) nothing is kept."""
        client = request.app.state.redis
        if client is None:
            return
        try:
            first = await client.set(store.key(self._settings, *seen), b"1", nx=True, ex=max(1, seconds + 1))
        except redis.RedisError:
            raise ApiError(503, "", "the replay check is unavailable; retry") from None
        if not first:
            raise ApiError(401, "invalid_signature", "this signed request was received before; sign each request anew")
