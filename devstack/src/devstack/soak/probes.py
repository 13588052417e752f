"""What the soak reads off the running platform besides its answers: the resident memory of every
process (from /proc, Linux's own accounting) and the queue and outbox backlogs, as each service's
relay reports them on its metrics endpoint (the series deploy/README.md alerts on)."""

from __future__ import annotations

import urllib.request
from dataclasses import dataclass
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from devstack.platform import SERVICES, Platform
from devstack.processes import ProcessGroup
from feeds_runtime.observability.backlog import OUTBOX_PENDING, QUEUE_DEPTH

PROC = Path("/proc")


def _parent_of(pid: int) -> int | None:
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is parenthesised and may hold spaces; the parent pid follows it.
    return int(stat.rsplit(")", 1)[1].split()[1])


def _children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            parent = _parent_of(int(entry.name))
            if parent is not None:
                children.setdefault(parent, []).append(int(entry.name))
    return children


def _descendants(root: int, children: dict[int, list[int]]) -> list[int]:
    """`root`, then every process under it in pid order (a Dramatiq worker command forks its worker
    processes)."""
    found, pending = [], list(children.get(root, []))
    while pending:
        pid = pending.pop()
        found.append(pid)
        pending.extend(children.get(pid, []))
    return [root, *sorted(found)]


def _rss_kib(pid: int) -> int | None:
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def proportional_kib(pid: int) -> int | None:
    """The process's proportional set size: its resident pages, each shared page divided among the
    processes mapping it (a file mapped by several processes counts once in all)."""
    try:
        for line in (PROC / str(pid) / "smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def resident_memory(group: ProcessGroup) -> dict[str, tuple[int, int]]:
    """{label: (pid, resident KiB)} for every platform process and each process it forked; a forked
    one is labelled by the platform process's name and its rank under it (`timeline-worker/1`)."""
    sample: dict[str, tuple[int, int]] = {}
    children = _children()
    for process in group.processes:
        for rank, pid in enumerate(_descendants(process.popen.pid, children)):
            rss = _rss_kib(pid)
            if rss is not None:
                sample[process.name if rank == 0 else f"{process.name}/{rank}"] = (pid, rss)
    return sample


@dataclass(frozen=True)
class Backlog:
    queued: dict[str, int]  # Dramatiq queue (delay queues included) → messages waiting
    outbox: dict[str, int]  # service → outbox rows not yet acknowledged
    unreadable: list[str]  # relays whose metrics had no backlog series (their Redis or PostgreSQL unreadable)

    @property
    def empty(self) -> bool:
        return not self.unreadable and not any(self.queued.values()) and not any(self.outbox.values())


def _samples(url: str) -> list[tuple[str, dict[str, str], float]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
    except OSError:
        return []
    return [(sample.name, sample.labels, sample.value)
            for family in text_string_to_metric_families(text) if family.name in (QUEUE_DEPTH, OUTBOX_PENDING)
            for sample in family.samples]


def backlog(platform: Platform) -> Backlog:
    """Every service's backlog from its relay's metrics (`Ports.free(metrics=True)` gives each one)."""
    queued: dict[str, int] = {}
    outbox: dict[str, int] = {}
    unreadable = []
    for service in SERVICES:
        relay = f"{service}-relay"
        url = platform.metrics_url(relay)
        samples = _samples(url) if url else []
        if {name for name, _, _ in samples} != {QUEUE_DEPTH, OUTBOX_PENDING}:
            unreadable.append(relay)
        for name, labels, value in samples:
            if name == QUEUE_DEPTH:
                queued[labels["queue"]] = int(value)
            else:
                outbox[labels["service"]] = int(value)
    return Backlog(queued=queued, outbox=outbox, unreadable=unreadable)
