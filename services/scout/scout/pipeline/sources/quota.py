"""The quota governor: one sliding-window budget per provider account, shared by every worker
through Redis, so the platform never sends a query its provider would refuse for volume.

Each admitted query is a member of a sorted set scored by Redis' own clock (one clock for every
worker); admission drops what left the window, counts the rest and adds the query only while the
count is under the limit, atomically in one script.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable

import redis

from scout.pipeline.sources.base import BudgetReached, FailureKind, SourceUnavailable

_ADMIT = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window_ms, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms - window_ms)
local used = redis.call('ZCARD', KEYS[1])
if used >= limit then
  return 0
end
redis.call('ZADD', KEYS[1], now_ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window_ms)
return 1
"""


def account_key(namespace: str, source: str, credential: str) -> str:
    """The budget's Redis key: per provider account, named by a fingerprint, never the credential."""
    fingerprint = hashlib.sha256(credential.encode()).hexdigest()[:16]
    return f"{namespace}:scout:quota:{source}:{fingerprint}"


class Budget:
    def __init__(self, client: redis.Redis, *, key: str, source: str, limit: int, window_seconds: float,
                 describe: str) -> None:
        self._client = client
        self._script = client.register_script(_ADMIT)
        self.key = key
        self.source = source
        self.limit = limit
        self.window_ms = int(window_seconds * 1000)
        self.describe = describe  # e.g. "1980 queries per 24 h"

    def admit(self) -> Callable[[], None]:
        """Take one query from the budget, or raise BudgetReached; returns the query's refund."""
        member = uuid.uuid4().hex
        try:
            admitted = self._script(keys=[self.key], args=[self.window_ms, self.limit, member])
        except redis.RedisError as error:
            raise SourceUnavailable(self.source, FailureKind.TRANSIENT,
                                    f"quota governor unreachable ({type(error).__name__})") from None
        if not admitted:
            raise BudgetReached(self.source, f"shared budget of {self.describe} reached")
        return lambda: self._refund(member)

    def _refund(self, member: str) -> None:
        try:
            self._client.zrem(self.key, member)
        except redis.RedisError:
            pass  # a query kept in the window errs on the safe side
