"""`Idempotency-Key` on the writes that create something (a host's publish, a member's scan), as the
IETF httpapi idempotency-key draft has it. The first request with a key runs and its response (a
success or a client error) is kept for GATEWAY_IDEMPOTENCY_EXPIRY_SECONDS; a retry with the same key
and the same request gets that response again (status and body); the same key with another request
is a 422; a retry while the first is still running is a 409. Keys are the caller's own: a host
tenant's for one acting user, or a member's. Kept in Redis, so every replica answers alike; when
Redis cannot be reached such a write is a 503 rather than a second post or scan. The routes also
pass the key to the service, whose own record of it answers once this one has lapsed or kept nothing
(a 5xx whose commit is unknown)."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable

import redis
import redis.asyncio
from fastapi import Request, Response

from feeds_runtime.idempotency import KEY_RULE, MAX_KEY_CHARS, valid_key
from gateway import envelopes, store
from gateway.api_error import ApiError
from gateway.errors import VALIDATION_CODE
from gateway.settings import GatewaySettings

log = logging.getLogger("gateway.idempotency")

# A key stays claimed this long by a request that never finishes (its gateway died): far longer than
# a request may take (the gRPC deadline), short enough for the client's retry to go through.
PENDING_SECONDS = 120


# The header as the OpenAPI document states it: what `valid_key` accepts, with no space at either end
# (HTTP trims them).
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "maxLength": MAX_KEY_CHARS, "pattern": "^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$"},
    "description": "A retry with the same key and request answers as the first did (kept GATEWAY_IDEMPOTENCY_EXPIRY_SECONDS, 24 h by default); the same key "
                   "with another request is a 422, while the first still runs a 409. Past that, the service's own record of the key "
                   "answers the same post or run, and another request under it is a 422.",
}


class Idempotency:
    def __init__(self, settings: GatewaySettings, client: redis.asyncio.Redis | None) -> None:
        self._settings = settings
        self._client = client

    async def run(self, request: Request, caller: str, handler: Callable[[], Awaitable[Response]]) -> Response:
        keys = request.headers.getlist("idempotency-key")
        if not keys:
            return await handler()
        if len(keys) > 1 or not valid_key(keys[0]):
            context = envelopes.context_for_path(request.url.path)
            raise ApiError(400, VALIDATION_CODE[context],
                           f"Idempotency-Key must be one header of {KEY_RULE}")
        if self._client is None:  # dev without Redis: only the services' own checks
            return await handler()
        fingerprint = hashlib.sha256("\n".join([request.method, request.url.path, request.url.query]).encode()
                                     + b"\n" + await request.body()).hexdigest()
        slot = store.key(self._settings, "idempotency", caller, hashlib.sha256(keys[0].encode()).hexdigest())
        try:
            claimed = await self._client.set(slot, json.dumps({"fingerprint": fingerprint}), nx=True,
                                             ex=PENDING_SECONDS)
            earlier = None if claimed else await self._client.get(slot)
        except redis.RedisError:
            raise ApiError(503, "", "the Idempotency-Key store is unavailable; retry") from None
        if not claimed:
            return self._answer_retry(earlier, fingerprint)
        try:
            response = await handler()
        except BaseException:
            await self._release(slot)
            raise
        if response.status_code >= 500:  # nothing was done: the client's retry runs again
            await self._release(slot)
            return response
        record = {"fingerprint": fingerprint, "status": response.status_code, "media_type": response.media_type,
                  "body": base64.b64encode(bytes(response.body)).decode()}
        try:
            await self._client.set(slot, json.dumps(record), ex=self._settings.idempotency_expiry_seconds)
        except redis.RedisError:
            log.warning("an Idempotency-Key response was not kept; a retry within two minutes hears 409")
        return response

    @staticmethod
    def _answer_retry(earlier: bytes | str | None, fingerprint: str) -> Response:
        if earlier is None:  # released or expired a moment ago: the client's next retry runs
            raise ApiError(409, "idempotency_in_progress", "a request with this Idempotency-Key is being processed; retry")
        record = json.loads(earlier)
        if record["fingerprint"] != fingerprint:
            raise ApiError(422, "idempotency_conflict", "this Idempotency-Key was used for a different request")
        if "status" not in record:
            raise ApiError(409, "idempotency_in_progress", "a request with this Idempotency-Key is being processed; retry")
        return Response(base64.b64decode(record["body"]), status_code=record["status"], media_type=record["media_type"])

    async def _release(self, slot: str) -> None:
        try:
            await self._client.delete(slot)  # type: ignore[union-attr]
        except redis.RedisError:
            log.warning("an Idempotency-Key claim was not released; it lapses in two minutes")
