// The /scout workbench: create scans, page through runs and through one run's results, act on
// results. The run pager and the result pager keep separate state; all paging is the server's.
// The panels live in their own modules; the workbench holds what they share (the repository, the
// selected run, the jobs read, the runs being watched) and answers their events.

import {
  adoptTokenFromFragment, memberToken, onSessionExpired, renderSessionBar, sessionExpired, signInLink,
} from "../session.js";
import { Poller } from "./poller.js";
import { createLiveRepository, createMockRepository, TERMINAL_STATUSES } from "./repository.js";
import { ResultsPanel } from "./results.js";
import { RunDetail } from "./run-detail.js";
import { RunsPanel } from "./runs.js";
import { ScanForm } from "./scan-form.js";

const POLL_MS = Number(new URLSearchParams(window.location.search).get("poll")) || 2000;

const $ = (id) => document.getElementById(id);

class Workbench {
  constructor(repository) {
    this.repository = repository;
    this.selectedRun = null;
    this.jobs = new Map(); // job id → the last ScoutJob read for it
    this.knownRunIds = new Set();
    this.watchedRunIds = new Set(); // queued or running runs the page has seen
    this.runs = new RunsPanel(this);
    this.detail = new RunDetail(this);
    this.results = new ResultsPanel(this);
    this.form = new ScanForm(this);
    this.poller = new Poller(this, POLL_MS);
  }

  async start() {
    this.form.bind();
    $("refresh-runs").addEventListener("click", () => this.refreshRuns());
    $("refresh-runs-hint").addEventListener("click", async () => {
      await this.refreshRuns();
      $("runs-heading").focus(); // the hint and its button are gone
    });
    await this.runs.load(1, { selectFirst: true });
    this.poller.start();
  }

  stop() {
    this.poller.stop();
  }

  async refreshRuns() {
    $("new-runs-hint").hidden = true;
    await this.runs.load(1, { selectFirst: this.selectedRun === null });
  }

  newRunsFinished() {
    // With nothing selected there is nothing to keep in place: show the new first page.
    if (this.selectedRun === null) this.refreshRuns();
    else $("new-runs-hint").hidden = false;
  }

  noteRun(run) {
    this.knownRunIds.add(run.id);
    if (!TERMINAL_STATUSES.has(run.status)) this.watchedRunIds.add(run.id);
  }

  // A run was created from this page (the form, or "run again").
  async runCreated(run) {
    this.noteRun(run);
    this.form.add(run);
    if (this.selectedRun === null) await this.refreshRuns();
  }

  clearSelection() {
    this.selectedRun = null;
    this.detail.clear();
    this.results.clear();
    this.runs.render();
  }

  // Switching runs resets only the result pager to 1; the run pager stays where it is.
  async selectRun(run) {
    this.selectedRun = run;
    this.runs.render();
    this.detail.render(run);
    this.results.clear();
    await this.results.load(1);
  }

  // The selected run as its result page reported it: its row, its detail.
  runRead(run) {
    this.selectedRun = run;
    this.noteRun(run);
    this.runs.replace(run);
    this.detail.render(run);
  }

  async runDeleted(run) {
    this.knownRunIds.delete(run.id);
    this.watchedRunIds.delete(run.id);
    this.form.forget(run.id);
    const wasSelected = this.selectedRun && this.selectedRun.id === run.id;
    if (wasSelected) this.selectedRun = null;
    await this.runs.load(this.runs.pageNumber, { selectFirst: wasSelected });
    $("runs-message").textContent = "已刪除批次。";
    ($("runs").querySelector('button[aria-pressed="true"]') || $("runs-heading")).focus();
  }

  // Re-reads one run: its row, its line among the runs created here and, if selected, its detail
  // (or its results once it has finished).
  async refreshRun(runId) {
    let run;
    try {
      run = await this.repository.getRun(runId);
    } catch (error) {
      if (error.status === 404) this.watchedRunIds.delete(runId);
      return null;
    }
    this.form.follow(run);
    this.runs.replace(run);
    const selected = () => this.selectedRun && this.selectedRun.id === run.id;
    if (TERMINAL_STATUSES.has(run.status)) {
      this.watchedRunIds.delete(run.id);
      if (selected()) {
        this.selectedRun = run;
        await this.results.load(1);
      }
      return run;
    }
    if (selected()) {
      this.selectedRun = run;
      if (run.jobId) {
        try {
          this.jobs.set(run.jobId, await this.repository.getJob(run.jobId));
        } catch {
          // The run's own counts stand in until the next poll.
        }
      }
      if (selected()) this.detail.render(this.selectedRun);
    }
    return run;
  }
}

function showSignedOut() {
  $("scout").hidden = true;
  const panel = $("signed-out");
  const expired = sessionExpired();
  $("signed-out-heading").textContent = expired ? "登入已過期" : "請先登入";
  $("signed-out-text").textContent = expired
    ? "你的登入已過期，重新登入後即可繼續使用海巡工作台。" : "海巡工作台需要會員身分。";
  const link = signInLink(expired ? "重新登入" : "登入");
  $("signed-out-action").replaceChildren(...(link ? [link] : []));
  panel.hidden = false;
  renderSessionBar($("session"));
}

async function main() {
  adoptTokenFromFragment();
  renderSessionBar($("session"));
  const params = new URLSearchParams(window.location.search);
  let repository;
  if (params.get("repository") === "mock") {
    const fixtures = await (await fetch("/pages/assets/scout/fixtures.json")).json();
    repository = createMockRepository(fixtures);
  } else if (memberToken()) {
    repository = createLiveRepository();
  } else {
    showSignedOut();
    return;
  }
  $("scout").hidden = false;
  const workbench = new Workbench(repository);
  onSessionExpired(() => {
    workbench.stop();
    showSignedOut();
    $("signed-out-heading").focus();
  });
  await workbench.start();
}

main();
