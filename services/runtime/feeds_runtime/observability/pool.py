"""Database pool use per process: connections checked out, threads waiting for one, pool size."""

from __future__ import annotations

from typing import Any

from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

from feeds_runtime.observability import metrics


class _MeteredQueuePool(QueuePool):
    """SQLAlchemy's queue pool, updating the pool gauges on every checkout and return. A subclass per
    pool name, because SQLAlchemy recreates a pool (after a disconnect) from its class alone."""

    pool_name = "default"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_use = metrics.DB_POOL_IN_USE.labels(self.pool_name)
        self._waiting = metrics.DB_POOL_WAITING.labels(self.pool_name)
        metrics.DB_POOL_SIZE.labels(self.pool_name).set(self.size())

    def _do_get(self) -> ConnectionPoolEntry:
        self._waiting.inc()
        try:
            return super()._do_get()
        finally:
            self._waiting.dec()
            self._in_use.set(self.checkedout())

    def _do_return_conn(self, record: ConnectionPoolEntry) -> None:
        super()._do_return_conn(record)
        self._in_use.set(self.checkedout())


def metered_pool_class(name: str) -> type[QueuePool]:
    """The pool class for `create_engine(poolclass=…)`: metered under `name`, or SQLAlchemy's own
    when metrics are off."""
    if not metrics.enabled():
        return QueuePool
    return type(f"MeteredQueuePool[{name}]", (_MeteredQueuePool,), {"pool_name": name})
