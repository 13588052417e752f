// The selected run: its counts, search terms, shortfall or failure, the job's step while it is
// queued or running, and its actions (cancel, run again, delete with a confirmation).

import { element, formatTime } from "../format.js";
import { keepFocus } from "../focus.js";
import { TERMINAL_STATUSES } from "./repository.js";
import { errorText, failureText, hasShortfall, progressText, reasonTexts, sourceFailureTexts, statusText } from "./text.js";
import { attempt, pair } from "./ui.js";

const $ = (id) => document.getElementById(id);

export class RunDetail {
  constructor(workbench) {
    this.workbench = workbench;
    this.confirmingDelete = null; // id of the run whose delete asks for confirmation
  }

  clear() {
    this.confirmingDelete = null;
    this.shown = null;
    $("run-detail").replaceChildren(element("p", { class: "empty", text: "沒有可顯示的批次。" }));
  }

  render(run) {
    if (this.confirmingDelete && this.confirmingDelete !== run.id) this.confirmingDelete = null;
    const job = run.jobId ? this.workbench.jobs.get(run.jobId) : null;
    // The same run, job and question as shown: no re-render (a button being pressed stays put).
    const shown = JSON.stringify([run, job, this.confirmingDelete]);
    if (shown === this.shown && $("run-detail").isConnected && $("run-detail").childElementCount > 0) return;
    this.shown = shown;
    const active = !TERMINAL_STATUSES.has(run.status);
    // While the run is active its job's counts are the latest read (they are final on the run).
    const live = active && job ? job : run;
    const children = [
      element("h3", { class: "run-title", text: run.themeLabel || run.intent || "（未命名話題）" }),
      element("dl", { class: "counts" },
        ...pair("狀態", statusText(run)),
        ...pair("搜尋詞", run.legacy ? "（舊版結果，沒有記錄搜尋詞）" : run.terms.join("、") || "—"),
        ...pair("目標／實得", `${run.targetCount}／${run.eligibleCount}`),
        ...pair("待處理", String(run.pendingCount)),
        ...pair("已檢視候選", String(live.searchedCount)),
        ...pair("重複排除", String(live.duplicateCount)),
        ...pair("低關聯排除", String(live.irrelevantCount)),
        ...pair("建立時間", run.createdAt ? formatTime(run.createdAt) : "—")),
    ];
    if (hasShortfall(run)) {
      const reasons = reasonTexts(run);
      const note = element("div", { class: "shortfall", role: "note" });
      note.append(element("p", { text: `完成但不足：還差 ${run.shortfallCount} 筆。${reasons.length > 0 ? "原因：" : ""}` }));
      if (reasons.length > 0) note.append(element("ul", {}, ...reasons.map((text) => element("li", { text }))));
      children.push(note);
    }
    if (active) {
      const eligible = job ? job.eligibleCount : run.eligibleCount;
      const step = job && job.cancelRequested ? "已要求取消，目前階段結束後停止" : job ? progressText(job) : "準備來源";
      children.push(element("p", { class: "progress", "data-testid": "run-progress" },
        `${statusText(run)}：${step}（合格 ${eligible}／目標 ${run.targetCount}）。完成後才會顯示結果。`));
    }
    if (run.status === "failed") {
      children.push(element("p", { class: "error failure" }, `失敗原因：${failureText(run)}沒有發佈任何結果。`));
    }
    const sources = sourceFailureTexts(run);
    if (sources.length > 0 && !active) {
      const note = element("div", { class: "source-failures", role: "note" });
      note.append(element("p", { text: "搜尋來源狀況：" }),
        element("ul", {}, ...sources.map((text) => element("li", { text }))));
      children.push(note);
    }
    children.push(this.actions(run, job, active));
    keepFocus($("run-panel"), () => $("run-detail").replaceChildren(...children), $("run-heading"));
  }

  actions(run, job, active) {
    const box = element("div", { class: "actions" });
    if (active && run.jobId) {
      // aria-disabled, not disabled: a requested cancel keeps the button (and keyboard focus) in place.
      const requested = Boolean(job && job.cancelRequested);
      box.append(element("button", { type: "button", class: "secondary", "data-action": "cancel",
        "aria-disabled": requested ? "true" : null, text: requested ? "已要求取消" : "取消任務",
        onclick: () => { if (!requested) this.cancel(run); } }));
    }
    if (!active && !run.legacy) {
      box.append(element("button", { type: "button", class: "secondary", "data-action": "rerun",
        text: "再執行一次", title: "以相同的話題、搜尋詞與目標數建立新的批次", onclick: () => this.rerun(run) }));
    }
    if (this.confirmingDelete === run.id) {
      box.append(
        element("button", { type: "button", class: "danger", "data-action": "delete-run", text: "確認刪除批次？",
          onclick: () => this.delete(run) }),
        element("button", { type: "button", class: "secondary", "data-action": "keep-run", text: "不刪除",
          onclick: () => { this.confirmingDelete = null; this.render(this.workbench.selectedRun); this.focusAction("delete-run"); } }));
    } else {
      box.append(element("button", { type: "button", class: "danger", "data-action": "delete-run", text: "刪除批次",
        onclick: () => { this.confirmingDelete = run.id; this.render(this.workbench.selectedRun); } }));
    }
    return box;
  }

  focusAction(action) {
    $("run-detail").querySelector(`[data-action="${action}"]`)?.focus();
  }

  async delete(run) {
    this.confirmingDelete = null;
    const message = $("run-message");
    try {
      await this.workbench.repository.deleteRun(run.id);
    } catch (error) {
      if (error.status !== 401) message.textContent = errorText(error);
      if (this.workbench.selectedRun) this.render(this.workbench.selectedRun);
      return;
    }
    await this.workbench.runDeleted(run);
  }

  // A queued job is cancelled at once; a running one stops at its next stage boundary.
  async cancel(run) {
    const message = $("run-message");
    const job = await attempt(message, () => this.workbench.repository.cancelJob(run.jobId));
    if (!job) return;
    this.workbench.jobs.set(job.id, job);
    await this.workbench.refreshRun(run.id);
    message.textContent = job.status === "cancelled" ? "已取消任務。" : "已要求取消任務，目前階段結束後停止。";
  }

  // The same brief again: a new run (docs/scout.md flow A: the same theme always gets a new run id).
  async rerun(run) {
    const message = $("run-message");
    const brief = { intent: run.intent, terms: run.terms, mode: run.mode || "topic", target_count: run.targetCount,
      theme_key: run.themeKey, theme_label: run.themeLabel };
    const created = await attempt(message, () => this.workbench.repository.createScan(brief));
    if (!created) return;
    this.workbench.runCreated(created.run);
    message.textContent = "已用相同設定建立新的海巡批次，正在等待執行。";
  }
}
