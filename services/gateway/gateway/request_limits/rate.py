"""Requests per member and per host key, counted in Redis so that every gateway replica shares one
count (the limits library's sliding window counter). A member's request counts against the quota of
its kind: a read against `reads`, a generous one; a write against the quota of what it writes
(`posts`, `subscriptions`, `scans`, `suggestions`, and `writes` for the rest), each sized to what a
person does. A host key has one quota, `host`. A counted response says where its caller stands in
the IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers); the request
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

READS = frozenset({"GET", "HEAD", "OPTIONS"})
# The member writes with a quota of their own, by path (the path itself or below it); any other
# member write counts against `writes`.
WRITE_KINDS = (("/api/v1/news/posts", "posts"), ("/api/v1/subscriptions", "subscriptions"),
               ("/api/v1/scout/scan", "scans"), ("/api/v1/scout/suggestions", "suggestions"))


def member_policy(method: str, path: str) -> str:
    """The quota a member's request counts against."""
    if method in READS:
        return "reads"
    return next((kind for prefix, kind in WRITE_KINDS if path == prefix or path.startswith(prefix + "/")), "writes")


class RateLimits:
    """The quota of each policy (a member's reads and each kind of write, a host key's requests),
    each caller counted apart, on the gateway's Redis client (None: in this process's memory)."""

    def __init__(self, settings: GatewaySettings, client: redis.asyncio.Redis | None) -> None:
        self._enabled = settings.rate_limits_enabled
        self._quotas = {policy: limits.parse(quota) for policy, quota in (
            ("reads", settings.member_read_rate_limit), ("posts", settings.member_post_rate_limit),
            ("subscriptions", settings.member_subscription_rate_limit), ("scans", settings.member_scan_rate_limit),
            ("suggestions", settings.member_suggestion_rate_limit), ("writes", settings.member_write_rate_limit),
            ("host", settings.host_rate_limit))}
        if client is not None:
            # On the gateway's own pool (a Sentinel one follows a failover), so the URI names nothing
            # more. limits documents `connection_pool` among the client options it passes on, but
            # types those options as scalars.
            storage: MemoryStorage | RedisStorage = RedisStorage(
                "async+redis://", implementation="redispy",
                connection_pool=client.connection_pool,  # type: ignore[arg-type]
                wrap_exceptions=True, key_prefix=f"{settings.redis_namespace}:rate-limits")
        else:
            storage = MemoryStorage()
        self._limiter = SlidingWindowCounterRateLimiter(storage)

    async def count_member(self, request: Request, member: str) -> None:
        await self.count(request, member_policy(request.method, request.url.path), member)

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
            raise ApiError(429, "", f"the {policy} quota of {quota.amount} requests in {window} s is spent; "
                                    f"retry in {reset} s",
                           headers={**headers, "Retry-After": str(reset)})
