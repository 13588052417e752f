"""How far a filtered home read goes ahead in its first batch. A viewer's policy hides about the same
share of its timeline from one page to the next, so the entries its last page examined per entry
kept size the next page's first batch: the page then reads in one statement rather than a small
batch and a second one sized from it (a statement's fixed cost, its planning above all, is worth
hundreds of rows). Only the batch size depends on it, never what a page returns; it is kept per
process, for the viewers read most recently."""

from __future__ import annotations

import math
import threading
import uuid
from collections import OrderedDict

# Room over the share the last page saw, so a page whose share drifts a little still fills in one batch.
_ROOM = 1.1


class ReadAhead:
    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._examined_per_kept: OrderedDict[tuple[uuid.UUID, uuid.UUID], float] = OrderedDict()
        self._lock = threading.Lock()

    def first_batch(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, wanted: int, bound: int) -> int:
        """Entries to read first for `wanted` to keep: `wanted` for a viewer not seen yet."""
        with self._lock:
            ratio = self._examined_per_kept.get((tenant_id, viewer_id))
        if ratio is None:
            return wanted
        if math.isinf(ratio):
            return bound
        return min(bound, max(wanted, math.ceil(wanted * ratio * _ROOM)))

    def learn(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, examined: int, kept: int) -> None:
        """What a page saw: `kept` of `examined` entries (none kept: the first batch is the bound)."""
        key = (tenant_id, viewer_id)
        with self._lock:
            self._examined_per_kept[key] = examined / kept if kept else math.inf
            self._examined_per_kept.move_to_end(key)
            if len(self._examined_per_kept) > self._capacity:
                self._examined_per_kept.popitem(last=False)
