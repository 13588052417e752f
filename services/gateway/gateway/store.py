"""The gateway's one Redis client (REDIS_URL or the Sentinel set's master), shared by what every replica must see alike: the rate
limits' counts, the host writes' seen signatures and the Idempotency-Key responses. Made in the
application's lifespan, so its connections belong to the event loop that serves the requests."""

from __future__ import annotations

import redis.asyncio

from feeds_runtime import redis_clients
from gateway.settings import GatewaySettings

# A call to Redis waits at most this long; then the rate limits let the request through uncounted,
# and a check that must not be skipped (a replayed signature, an idempotent write) answers 503.
REDIS_TIMEOUT_SECONDS = 1.0


def connect(settings: GatewaySettings) -> redis.asyncio.Redis | None:
    if not settings.redis_configured:
        return None
    return redis_clients.connect_async(settings, socket_timeout=REDIS_TIMEOUT_SECONDS,
                                       socket_connect_timeout=REDIS_TIMEOUT_SECONDS)


def key(settings: GatewaySettings, *parts: str) -> str:
    return ":".join((settings.redis_namespace, *parts))
