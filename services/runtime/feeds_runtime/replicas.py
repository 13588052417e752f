"""Read replicas with read-your-writes, as GitLab's database load balancing does it
(docs/architecture.md, "Read replicas").

A read that tolerates lag (`Database.replica_read`) runs on a streaming replica of the service's
database, unless the caller has written something that replica has not replayed yet:

- when a member's transaction commits a write, the WAL position after its commit record
  (`pg_current_wal_insert_lsn()`, read on the same connection) is recorded for that member in Redis
  (`WritePositions`), so every process of the service knows it, for twice the lag bound;
- a read by that member takes a replica only if the replica's `pg_last_wal_replay_lsn()` is at or
  past that position, else the primary. Replay positions only grow, so one probed a moment ago
  (each replica is probed at most every `PROBE_INTERVAL`, by the reading thread that finds it due) is
  a safe lower bound.

How far behind a replica is comes from the primary: each probe also reads the primary's WAL
position, and the replica's lag is the time since the primary was at the position the replica has
replayed (a standby cut off from its primary does not know how far behind it falls, and
pg_stat_wal_receiver hides its state from an unprivileged role). A replica that does not answer, or
is further behind than the lag bound (or not known to be within it), serves no reads until a later
probe says otherwise; a read whose replica connection fails runs again on the primary within the
same call.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import redis
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from feeds_runtime.observability import metrics

log = logging.getLogger("feeds.replicas")

# How stale a usable replica's probed state may be; and how long one that failed a probe or a read
# rests before it is probed again.
PROBE_INTERVAL = 0.1
RETRY_INTERVAL = 1.0

# Positions are bytes into the WAL (pg_lsn minus 0/0).
_REPLAYED = text("SELECT pg_is_in_recovery(), COALESCE((pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint, 0)")
_PRIMARY_POSITION = text("SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint")
WROTE = text("SELECT pg_current_xact_id_if_assigned() IS NOT NULL")
WRITE_POSITION = "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint"


class WritePositions:
    """Each writer's last write position, in Redis. Stored as fixed-width hex so the script keeps the
    highest of two racing writes by comparing strings."""

    _KEEP_HIGHEST = """
    local current = redis.call('GET', KEYS[1])
    if (not current) or current < ARGV[1] then
      redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    else
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
    end
    """

    def __init__(self, client: redis.Redis, prefix: str, ttl_seconds: float) -> None:
        self._client = client
        self._prefix = prefix
        self._ttl_ms = int(ttl_seconds * 1000)
        self._keep_highest = client.register_script(self._KEEP_HIGHEST)

    def record(self, writer: str, position: int) -> None:
        self._keep_highest(keys=[self._prefix + writer], args=[f"{position:016x}", self._ttl_ms])

    def get(self, writer: str) -> int | None:
        value = self._client.get(self._prefix + writer)
        return None if value is None else int(value, 16)


@dataclass
class Replica:
    name: str  # host:port, for metrics and logs
    engine: Engine  # autocommit
    replay: int = -1
    usable: bool = False
    checked: float = float("-inf")
    # The primary's position at each probe, (monotonic time, position), oldest first.
    primary_positions: deque[tuple[float, int]] = field(default_factory=deque)
    _probing: threading.Lock = field(default_factory=threading.Lock)

    def lag_seconds(self, now: float) -> float | None:
        """Time since the primary was last at or before the replayed position; None when the kept
        positions do not go back that far."""
        replayed_at = None
        for at, position in self.primary_positions:
            if position > self.replay:
                break
            replayed_at = at
        if replayed_at is None:
            return None
        # Between probes the primary's moves are unseen: the lag is overstated by up to their interval.
        return 0.0 if self.primary_positions[-1][1] <= self.replay else now - replayed_at


@dataclass(frozen=True)
class Choice:
    replica: Replica | None
    reason: str = ""  # why the primary, when no replica


class ReplicaSet:
    """The service's replicas, their probed state and the writers' positions."""

    def __init__(self, primary: Engine, engines: Sequence[Engine], positions: WritePositions, application: str, *,
                 max_lag_seconds: float) -> None:
        self._primary = primary.execution_options(isolation_level="AUTOCOMMIT")
        self._replicas = [
            Replica(f"{engine.url.host}:{engine.url.port}", engine.execution_options(isolation_level="AUTOCOMMIT"))
            for engine in engines
        ]
        self.positions = positions
        self.application = application
        self._max_lag = max_lag_seconds

    def choose(self, writer: str | None) -> Choice:
        """A replica for a read by `writer` (None: a read that shows no one's own writes)."""
        usable = [replica for replica in self._replicas if self._probed(replica).usable]
        if not usable:
            return Choice(None, "no_replica_usable")
        position = None
        if writer is not None:
            try:
                position = self.positions.get(writer)
            except redis.RedisError:
                return Choice(None, "positions_unavailable")
        if position is not None:
            usable = [replica for replica in usable if replica.replay >= position]
            if not usable:
                return Choice(None, "write_not_replayed")
        return Choice(random.choice(usable))

    def failed(self, replica: Replica, error: Exception) -> None:
        """A read on the replica failed on its connection: rest it until a probe finds it back, with
        fresh connections (the pooled ones are as dead as the one that failed)."""
        replica.usable, replica.checked = False, time.monotonic()
        replica.engine.dispose()
        self._gauge(metrics.DB_REPLICA_USABLE, replica, 0)
        log.warning("replica read failed, the primary answers", extra={"replica": replica.name, "error": str(error)})

    def record_write(self, writer: str, position: int) -> None:
        try:
            self.positions.record(writer, position)
        except redis.RedisError as error:
            if metrics.enabled():
                metrics.DB_WRITE_POSITIONS_UNRECORDED.labels(self.application).inc()
            log.warning("write position not recorded", extra={"error": str(error)})

    def dispose(self) -> None:
        for replica in self._replicas:
            replica.engine.dispose()

    def _probed(self, replica: Replica) -> Replica:
        """The replica, probed first if its state is due and no other thread is probing it (that one's
        result is as good; until then the last one stands)."""
        due = replica.checked + (PROBE_INTERVAL if replica.usable else RETRY_INTERVAL)
        if time.monotonic() < due or not replica._probing.acquire(blocking=False):
            return replica
        try:
            self._probe(replica)
        finally:
            replica._probing.release()
        return replica

    def _probe(self, replica: Replica) -> None:
        now = time.monotonic()
        try:
            with self._primary.connect() as connection:
                replica.primary_positions.append((now, connection.execute(_PRIMARY_POSITION).scalar_one()))
        except DBAPIError as error:
            # No new position: the kept ones still bound the lag, which grows until the primary is back.
            log.warning("primary position not read", extra={"error": str(error.orig)})
        # Enough history to tell a lag of the bound from a longer one.
        while len(replica.primary_positions) > 1 and replica.primary_positions[1][0] < now - self._max_lag:
            replica.primary_positions.popleft()
        try:
            with replica.engine.connect() as connection:
                standby, replay = connection.execute(_REPLAYED).one()
        except DBAPIError as error:
            replica.usable = False
            log.warning("replica probe failed", extra={"replica": replica.name, "error": str(error.orig)})
        else:
            replica.replay = replay if standby else -1
            lag = replica.lag_seconds(time.monotonic())
            replica.usable = bool(standby) and lag is not None and lag <= self._max_lag
            if lag is not None:
                self._gauge(metrics.DB_REPLICA_LAG, replica, lag)
            if replica.primary_positions:
                self._gauge(metrics.DB_REPLICA_LAG_BYTES, replica, max(0, replica.primary_positions[-1][1] - replay))
        replica.checked = time.monotonic()
        self._gauge(metrics.DB_REPLICA_USABLE, replica, int(replica.usable))

    def _gauge(self, gauge, replica: Replica, value: float) -> None:
        if metrics.enabled():
            gauge.labels(self.application, replica.name).set(value)


def count_read(application: str, target: str, fallback_reason: str = "") -> None:
    if not metrics.enabled():
        return
    metrics.DB_READS.labels(application, target).inc()
    if fallback_reason:
        metrics.DB_REPLICA_FALLBACKS.labels(application, fallback_reason).inc()
