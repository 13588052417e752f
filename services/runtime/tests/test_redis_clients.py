"""The platform's Redis clients under Sentinel, against a real master, replica and three Sentinels:
they follow a failover to the promoted replica, and every error in between is a ConnectionError
(what the relay retries, Dramatiq's consumers reconnect on and the interceptors answer UNAVAILABLE
to), never a READONLY answer from a demoted master."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
import redis.asyncio

from devstack.processes import wait_for
from devstack.sentinel import SentinelSet
from feeds_runtime import redis_clients
from feeds_runtime.interceptors import store_unavailable
from feeds_runtime.settings import RedisSettings

TIMEOUTS = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0}


def settings_of(sentinels: SentinelSet, **extra) -> RedisSettings:
    return RedisSettings(redis_sentinels=sentinels.sentinels, redis_sentinel_master=sentinels.master_name,
                         redis_url=None, **extra)


def writes(client: redis.Redis, key: str) -> bool:
    try:
        client.incr(key)
    except redis.ConnectionError:
        return False
    return True


def test_the_client_follows_a_killed_master_to_the_promoted_replica(sentinel_set):
    client = redis_clients.connect(settings_of(sentinel_set), **TIMEOUTS)
    # Given a write on the master, replicated
    client.set("before", "1")
    client.wait(1, 5000)
    # When the master's process dies
    old = sentinel_set.kill_master()
    # Then, until the Sentinels promote the replica, a call fails with a ConnectionError
    with pytest.raises(redis.ConnectionError) as raised:
        client.get("before")
    assert store_unavailable(raised.value)
    new = sentinel_set.wait_for_failover(30)
    assert new != old
    # and then it lands on the new master, which holds what was written before
    wait_for(lambda: writes(client, "after"), "a write on the promoted replica", timeout=30)
    assert client.get("before") == b"1"
    assert client.connection_pool.get_master_address() == new
    # And the old master comes back as a replica of the new one
    sentinel_set.restart_old_master()
    assert sentinel_set.master_address() == new


def test_a_demoted_master_answers_no_write_the_client_takes_for_done(sentinel_set):
    client = redis_clients.connect(settings_of(sentinel_set), **TIMEOUTS)
    client.set("key", "1")
    old = sentinel_set.master_address()
    # Given a connection open to the master, and a plain one straight to it
    direct = redis.Redis(*old, **TIMEOUTS)
    direct.ping()
    # When the Sentinels move the master while it lives on (a switch-over), it is demoted to a replica
    redis.Redis(*sentinel_set.sentinels[0]).sentinel_failover(sentinel_set.master_name)
    wait_for(lambda: sentinel_set.master_address() != old, "the switch-over", timeout=30)
    wait_for(lambda: direct.info("replication")["role"] == "slave", "the old master demoted", timeout=30)
    # Then the plain client's write is refused as READONLY, which the interceptors answer UNAVAILABLE
    with pytest.raises(redis.exceptions.ReadOnlyError) as raised:
        direct.set("key", "2")
    assert store_unavailable(raised.value)
    # while the Sentinel client drops its stale connection and writes on the new master
    wait_for(lambda: writes(client, "key"), "a write on the new master", timeout=30)
    assert client.get("key") == b"2"


def test_the_asyncio_client_follows_a_failover_too(sentinel_set):
    async def drill() -> bytes | None:
        client = redis_clients.connect_async(settings_of(sentinel_set), **TIMEOUTS)
        await client.set("key", "1")
        await client.wait(1, 5000)
        sentinel_set.kill_master()
        with pytest.raises(redis.ConnectionError):
            await client.get("key")
        await asyncio.to_thread(sentinel_set.wait_for_failover, 30)
        for _ in range(300):
            try:
                await client.incr("key")
                break
            except redis.ConnectionError:
                await asyncio.sleep(0.1)
        value = await client.get("key")
        await client.aclose()
        return value

    # In a thread of its own: the browser tests' synchronous Playwright keeps an event loop
    # running in the main thread for the rest of the session.
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, drill()).result() == b"2"


def test_a_plain_redis_url_is_used_as_it_is(redis_url):
    client = redis_clients.connect(RedisSettings(redis_url=redis_url))
    assert client.connection_pool.connection_kwargs["host"] == "127.0.0.1" and client.ping()
