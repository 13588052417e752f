"""Requests per member and per host key, counted in Redis so that every gateway replica shares one
count (the limits library's sliding window counter). A counted response says where its caller stands
in the IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers); the request
past the quota is a 429 in the context's envelope with Retry-After.

A Redis outage lets requests through (logged, after gateway.store's timeout): the limits protect the
platform from floods, and turning every member and host away while Redis is down would be the
bigger outage."""

from __future__ import annotations

import logging
import math
import time

import limits
import redis.asyncio
from fastapi import Request
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError

from gateway.api_error import ApiError
from gateway.headers import add_response_headers
from gateway.settings import GatewaySettings

log = logging.getLogger("gateway.rate_limits")

_SCHEMES = {"redis": "async+redis", "rediss": "async+rediss", "unix": "async+redis+unix"}


class RateLimits:
    """The quota of each kind of caller ("member", "host"), each caller counted apart, on the
    gateway's Redis client (None: in this process's memory)."""

    def __init__(self, settings: GatewaySettings, client: redis.asyncio.Redis | None) -> None:
        self._enabled = settings.rate_limits_enabled
        self._quotas = {"member": limits.parse(settings.member_rate_limit),
                        "host": limits.parse(settings.host_rate_limit)}
        if client is not None and settings.redis_url:
            scheme, rest = settings.redis_url.split("://", 1)
            # limits documents `connection_pool` among the client options it passes on, but types
            # those options as scalars.
            storage: MemoryStorage | RedisStorage = RedisStorage(
                f"{_SCHEMES[scheme]}://{rest}", implementation="redispy",
                connection_pool=client.connection_pool,  # type: ignore[arg-type]
                wrap_exceptions=True, key_prefix=f"{settings.redis_namespace}:rate-limits")
        else:
            storage = MemoryStorage()
        self._limiter = SlidingWindowCounterRateLimiter(storage)

    async def count(self, request: Request, policy: str, caller: str) -> None:
        if not self._enabled:
            return
        quota = self._quotas[policy]
        try:
            allowed = await self._limiter.hit(quota, policy, caller)
            stats = await self._limiter.get_window_stats(quota, policy, caller)
        except StorageError as error:
            log.warning("rate limits not counted: Redis unavailable", extra={"error": type(error.storage_error).__name__})
            return
        window = quota.get_expiry()
        # Seconds until the count drops enough for one more request (the window when nothing is counted).
        wait = stats.reset_time - time.time()
        reset = max(1, math.ceil(wait)) if math.isfinite(wait) else window
        headers = {"RateLimit-Policy": f'"{policy}";q={quota.amount};w={window}',
                   "RateLimit": f'"{policy}";r={stats.remaining};t={reset}'}
        add_response_headers(request, headers)
        if not allowed:
            raise ApiError(429, "", f"more than {quota.amount} requests in {window} s; retry in {reset} s",
                           headers={**headers, "Retry-After": str(reset)})
