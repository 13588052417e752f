"""The one way any process of the platform connects to Redis (settings.RedisSettings): to the server
at `REDIS_URL`, or to the master a Sentinel set names.

Under Sentinel the client's pool asks the Sentinels for the master whenever it opens a connection.
During a failover a call fails with `redis.ConnectionError` (the master gone, or no master agreed
yet: `MasterNotFoundError`), and a connection still open to a demoted master turns its
`READONLY` answer into a `ConnectionError` too, dropping the connection; the next connection goes
to the promoted replica. So callers handle a failover as they handle Redis being away for a moment:
the relay sends its batch again, Dramatiq's consumers reconnect, a request answers 503.
"""

from __future__ import annotations

from typing import Any

import redis
import redis.asyncio
import redis.asyncio.connection
import redis.asyncio.sentinel
import redis.connection
import redis.sentinel

from feeds_runtime.settings import RedisSettings

# What REDIS_URL may still say under Sentinel: how to talk to a data node, never where it is.
_ADDRESS_PARTS = ("host", "port", "path")


def connect(settings: RedisSettings, **options: Any) -> redis.Redis:
    """A client of the platform's Redis; `options` are redis-py's (timeouts)."""
    if (sentinel_set := settings.redis_sentinel_set) is None:
        return redis.Redis.from_url(_required_url(settings), **options)
    addresses, master = sentinel_set
    sentinel = redis.sentinel.Sentinel(addresses, sentinel_kwargs=_sentinel_options(settings, options),
                                       **_node_options(settings, redis.connection.parse_url, options))
    return sentinel.master_for(master)


def connect_async(settings: RedisSettings, **options: Any) -> redis.asyncio.Redis:
    """The asyncio client of the same Redis, for the gateway (make it in the event loop that uses it)."""
    if (sentinel_set := settings.redis_sentinel_set) is None:
        return redis.asyncio.Redis.from_url(_required_url(settings), **options)
    addresses, master = sentinel_set
    sentinel = redis.asyncio.sentinel.Sentinel(addresses, sentinel_kwargs=_sentinel_options(settings, options),
                                               **_node_options(settings, redis.asyncio.connection.parse_url, options))
    return sentinel.master_for(master)


def _required_url(settings: RedisSettings) -> str:
    if not settings.redis_url:
        raise RuntimeError("no Redis is configured (REDIS_URL or REDIS_SENTINELS)")
    return settings.redis_url


def _node_options(settings: RedisSettings, parse_url: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The data nodes' connection options: REDIS_URL's credentials, database and TLS, and `options`."""
    parsed = dict(parse_url(settings.redis_url)) if settings.redis_url else {}
    for part in _ADDRESS_PARTS:
        parsed.pop(part, None)
    # The Sentinel pool picks its own connection class; it only needs to know about TLS.
    if parsed.pop("connection_class", None) is not None:
        parsed["ssl"] = True
    return {**parsed, **options}


def _sentinel_options(settings: RedisSettings, options: dict[str, Any]) -> dict[str, Any]:
    """How to talk to the Sentinels themselves: the same timeouts and TLS, their own password."""
    sentinel = {key: value for key, value in options.items() if key.startswith("socket_")}
    if settings.redis_url and settings.redis_url.startswith("rediss://"):
        sentinel["ssl"] = True
    if settings.redis_sentinel_password is not None:
        sentinel["password"] = settings.redis_sentinel_password.get_secret_value()
    return sentinel
