"""The soak's report: per operation its count, p50 and p99; every answer that is not a success by
status; the backlogs when the load stopped and how long they took to drain; each process's resident
memory growth after warm-up; and the verdict against the bar (README.md, "Soak")."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from devstack.bench import percentile
from devstack.soak.load import Recorder
from devstack.soak.probes import Backlog

DRAIN_LIMIT_SECONDS = 30.0
RSS_GROWTH_LIMIT = 0.10


@dataclass
class Operation:
    count: int
    p50_ms: float
    p99_ms: float
    statuses: dict[str, int]


@dataclass
class Memory:
    pid: int
    warm_kib: int
    end_kib: int | None  # None: the process was gone (or replaced) at the end

    @property
    def growth(self) -> float | None:
        return None if self.end_kib is None else (self.end_kib - self.warm_kib) / self.warm_kib


@dataclass
class Report:
    settings: dict[str, float]
    started: int
    late_starts: int
    load_seconds: float
    operations: dict[str, Operation]
    crashes: dict[str, int]
    backlog_at_stop: Backlog
    # Seconds after the load stopped until every backlog read empty; None: not within DRAIN_LIMIT_SECONDS.
    drained_after_seconds: float | None
    memory: dict[str, Memory]
    scan_runs: dict[str, int]
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["passed"] = self.passed
        for label, memory in self.memory.items():
            data["memory"][label]["growth"] = memory.growth
        return data


def _is_error(status: str) -> bool:
    return not (status.isdigit() and status.startswith("2"))


def _no_answer(status: str) -> bool:
    """A timeout or a refused connection: the platform did not answer at all."""
    return not status.isdigit()


def build(settings: dict[str, float], recorder: Recorder, load_seconds: float, backlog_at_stop: Backlog,
          drained_after: float | None, warm: dict[str, tuple[int, int]], end: dict[str, tuple[int, int]],
          scan_runs: Counter[str]) -> Report:
    operations = {
        name: Operation(count=len(samples), p50_ms=round(percentile(samples, 50), 1),
                        p99_ms=round(percentile(samples, 99), 1), statuses=dict(recorder.statuses[name]))
        for name, samples in sorted(recorder.latencies.items())
    }
    memory = {label: Memory(pid=pid, warm_kib=kib, end_kib=end[label][1] if end.get(label, (None,))[0] == pid else None)
              for label, (pid, kib) in warm.items()}
    report = Report(settings=settings, started=recorder.started, late_starts=recorder.late_starts,
                    load_seconds=round(load_seconds, 1), operations=operations, crashes=dict(recorder.crashes),
                    backlog_at_stop=backlog_at_stop, drained_after_seconds=drained_after, memory=memory,
                    scan_runs=dict(scan_runs))
    report.failures = _failures(report)
    return report


def _failures(report: Report) -> list[str]:
    failures = []
    statuses: Counter[str] = Counter()
    for operation in report.operations.values():
        statuses.update(operation.statuses)
    server_errors = sum(n for status, n in statuses.items() if status.startswith("5"))
    if server_errors:
        failures.append(f"{server_errors} answers were 5xx")
    no_answer = sum(n for status, n in statuses.items() if _no_answer(status))
    if no_answer:
        failures.append(f"{no_answer} requests got no answer (timeout or connection error)")
    if report.crashes:
        failures.append(f"the soak's own code failed {sum(report.crashes.values())} times: {report.crashes}")
    if report.started == 0:
        failures.append("no operation started")
    if report.drained_after_seconds is None:
        failures.append(f"backlogs not empty within {DRAIN_LIMIT_SECONDS:.0f} s of the load's end")
    for label, memory in report.memory.items():
        if memory.growth is None:
            failures.append(f"{label} (pid {memory.pid}) was gone or replaced at the end")
        elif memory.growth > RSS_GROWTH_LIMIT:
            failures.append(f"{label} grew {memory.growth:.1%} in RSS after warm-up (limit {RSS_GROWTH_LIMIT:.0%})")
    return failures


def _counts(values: dict[str, int]) -> str:
    listed = ", ".join(f"{name} {n}" for name, n in sorted(values.items()) if n)
    return f"{sum(values.values())}" + (f" ({listed})" if listed else "")


def table(report: Report) -> str:
    s = report.settings
    lines = [f"soak: {report.started} operations in {report.load_seconds:.0f} s "
             f"(asked: {s['rate']:g}/s for {s['seconds']:g} s, at most {s['concurrency']:g} in flight; "
             f"{report.late_starts} started late for want of a free slot)", ""]
    lines.append(f"{'operation':<14} {'count':>7} {'p50 ms':>9} {'p99 ms':>9}  answers by status")
    for name, operation in report.operations.items():
        answers = ", ".join(f"{status} ×{n}" for status, n in sorted(operation.statuses.items()))
        lines.append(f"{name:<14} {operation.count:>7} {operation.p50_ms:>9.1f} {operation.p99_ms:>9.1f}  {answers}")
    errors: Counter[str] = Counter()
    for operation in report.operations.values():
        errors.update({status: n for status, n in operation.statuses.items() if _is_error(status)})
    lines.append("")
    lines.append("errors by status: " + (", ".join(f"{status} ×{n}" for status, n in sorted(errors.items()))
                                          or "none"))
    if report.crashes:
        lines.append(f"soak code failures: {report.crashes}")
    backlog = report.backlog_at_stop
    lines.append(f"backlog when the load stopped: queues {_counts(backlog.queued)}; outbox {_counts(backlog.outbox)}"
                 + (f"; unreadable: {', '.join(backlog.unreadable)}" if backlog.unreadable else ""))
    lines.append(f"drained to empty after {report.drained_after_seconds:.1f} s" if report.drained_after_seconds
                 is not None else f"NOT drained within {DRAIN_LIMIT_SECONDS:.0f} s")
    if report.scan_runs:
        lines.append(f"scan runs at the end: {_counts(report.scan_runs)}")
    lines.append("")
    lines.append(f"{'process':<20} {'pid':>8} {'warm MiB':>9} {'end MiB':>9} {'growth':>8}")
    for label, memory in report.memory.items():
        end = f"{memory.end_kib / 1024:>9.1f}" if memory.end_kib is not None else f"{'gone':>9}"
        growth = f"{memory.growth:>+8.1%}" if memory.growth is not None else f"{'—':>8}"
        lines.append(f"{label:<20} {memory.pid:>8} {memory.warm_kib / 1024:>9.1f} {end} {growth}")
    lines.append("")
    lines.append("PASS: 0 5xx, backlogs drained, no process grew over 10% in RSS after warm-up" if report.passed
                 else "FAIL: " + "; ".join(report.failures))
    return "\n".join(lines)
