// The run list: one server page of runs (created_at DESC, id DESC), its pager, and the rows'
// status chips, which follow their runs while they are queued or running.

import { element, timeElement } from "../format.js";
import { keepFocus } from "../focus.js";
import { RUNS_PAGE_SIZE } from "./repository.js";
import { hasShortfall, reasonTexts, statusClass, statusText } from "./text.js";
import { attempt, Pager } from "./ui.js";

const $ = (id) => document.getElementById(id);

export class RunsPanel {
  constructor(workbench) {
    this.workbench = workbench;
    this.page = null; // the Page<ScoutRun> shown
    this.pager = new Pager($("runs-pager"), "批次", (page) => this.load(page));
  }

  get pageNumber() {
    return this.page ? this.page.page : 1;
  }

  // Loads a page of runs (past the end: the new last page); answers it, or null on failure.
  async load(pageNumber, { selectFirst = false } = {}) {
    const message = $("runs-message");
    message.textContent = "";
    const repository = this.workbench.repository;
    let result = await attempt(message, () => repository.listRuns({ page: pageNumber, pageSize: RUNS_PAGE_SIZE }));
    if (result && result.items.length === 0 && result.totalPages > 0 && pageNumber > result.totalPages) {
      result = await attempt(message, () => repository.listRuns({ page: result.totalPages, pageSize: RUNS_PAGE_SIZE }));
    }
    if (!result) return null;
    this.page = result;
    for (const run of result.items) this.workbench.noteRun(run);
    this.render();
    if (selectFirst) {
      if (result.items.length > 0) await this.workbench.selectRun(result.items[0]);
      else this.workbench.clearSelection();
    }
    return result;
  }

  render() {
    if (!this.page) return;
    keepFocus($("runs-panel"), () => {
      const list = $("runs");
      list.replaceChildren();
      if (this.page.total === 0) {
        list.append(element("li", { class: "empty", text: "還沒有海巡批次。在上方輸入話題開始第一次海巡。" }));
      }
      for (const run of this.page.items) list.append(this.row(run));
      this.pager.show(this.page);
    }, $("runs-heading"));
  }

  has(runId) {
    return Boolean(this.page && this.page.items.some((run) => run.id === runId));
  }

  // A run read again replaces its row in place: the order (by creation) cannot change.
  replace(run) {
    if (!this.page) return;
    const index = this.page.items.findIndex((item) => item.id === run.id);
    // Unchanged: no re-render, so a row being clicked or focused stays the same node.
    if (index < 0 || JSON.stringify(this.page.items[index]) === JSON.stringify(run)) return;
    this.page.items[index] = run;
    this.render();
  }

  row(run) {
    const selected = this.workbench.selectedRun && this.workbench.selectedRun.id === run.id;
    const meta = element("span", { class: "row-meta" },
      element("span", { class: statusClass(run), text: statusText(run) }),
      element("span", { text: `目標／實得：${run.targetCount}／${run.eligibleCount}` }),
      element("span", { text: `待處理：${run.pendingCount}` }),
      run.createdAt ? timeElement(run.createdAt, "建立：") : null);
    const button = element("button", {
      type: "button", class: "row", "aria-pressed": selected ? "true" : "false", "data-run-id": run.id,
      onclick: () => this.workbench.selectRun(run),
    }, element("span", { class: "row-title", text: run.themeLabel || run.intent || "（未命名話題）" }), meta);
    const item = element("li", {}, button);
    if (hasShortfall(run)) {
      const reasons = reasonTexts(run);
      item.append(element("p", { class: "shortfall",
        text: reasons.length > 0 ? `不足 ${run.shortfallCount} 筆：${reasons.join("；")}` : `不足 ${run.shortfallCount} 筆` }));
    }
    return item;
  }
}
