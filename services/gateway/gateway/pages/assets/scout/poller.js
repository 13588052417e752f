// Background progress: every queued or running run the page has seen is read again, so its row,
// its detail and the runs created here follow it; a run started elsewhere is noticed as the newest
// run. A run that finishes while the person reads another only raises the "new runs" hint.

import { TERMINAL_STATUSES } from "./repository.js";

export class Poller {
  constructor(workbench, intervalMs) {
    this.workbench = workbench;
    this.intervalMs = intervalMs;
    this.running = false;
  }

  start() {
    this.timer = setInterval(() => this.tick(), this.intervalMs);
  }

  stop() {
    clearInterval(this.timer);
  }

  // One poll at a time: a slow one is not overlapped by the next.
  async tick() {
    if (this.running) return;
    this.running = true;
    try {
      await this.poll();
    } catch {
      // The next tick tries again.
    } finally {
      this.running = false;
    }
  }

  async poll() {
    const workbench = this.workbench;
    let finishedElsewhere = false;
    for (const runId of [...workbench.watchedRunIds]) {
      const wasSelected = workbench.selectedRun && workbench.selectedRun.id === runId;
      const run = await workbench.refreshRun(runId);
      if (run && TERMINAL_STATUSES.has(run.status) && !wasSelected && !workbench.runs.has(runId)) finishedElsewhere = true;
    }
    const newest = await workbench.repository.listRuns({ page: 1, pageSize: 1 });
    const run = newest.items[0];
    if (run && !workbench.knownRunIds.has(run.id)) {
      workbench.knownRunIds.add(run.id);
      if (TERMINAL_STATUSES.has(run.status)) finishedElsewhere = true;
      else workbench.watchedRunIds.add(run.id);
    }
    if (finishedElsewhere) workbench.newRunsFinished();
  }
}
