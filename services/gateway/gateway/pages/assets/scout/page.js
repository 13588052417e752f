// The /scout workbench: create scans, page through runs and through one run's results, act on
// results. The run pager and the result pager keep separate state; all paging is the server's.

import { adoptTokenFromFragment, memberToken, renderSessionBar } from "../session.js";
import { element, formatTime, timeElement } from "../format.js";
import { keepFocus } from "../focus.js";
import {
  createLiveRepository, createMockRepository, POSTS_PAGE_SIZE, RUNS_PAGE_SIZE, TERMINAL_STATUSES,
} from "./repository.js";

const POLL_MS = Number(new URLSearchParams(window.location.search).get("poll")) || 2000;

export const STATUS_TEXT = {
  queued: "等待中", running: "執行中", succeeded: "已完成", failed: "失敗", cancelled: "已取消",
};
export const SHORTFALL_TEXT = {
  source_exhausted: "已用完可用的搜尋階段，來源沒有更多候選",
  duplicate_exhausted: "大量候選與本批次或先前結果重複",
  relevance_exhausted: "大量候選未通過話題核心或分類門檻",
  source_unavailable: "有搜尋來源暫時無法使用，已由其他來源完成",
  limit_reached: "已達本次安全檢視上限",
  results_deleted: "已刪除部分結果，低於目標數",
};
const OUTREACH_TEXT = {
  new: "未處理", drafted: "已草擬", skipped: "已略過", queued: "排入發佈", published: "已發佈",
};
const ACTION_TEXT = { draft: "草擬", skip: "略過", publish: "發佈" };
// The service's brief limits (services/scout/scout/brief.py).
const MAX_INTENT_CHARS = 500;
const MAX_TERMS = 10;
const MAX_TERM_CHARS = 100;
const ERROR_TEXT = {
  400: "輸入無法接受，請檢查話題、搜尋詞與目標數。",
  401: "登入已失效，請重新登入。",
  404: "找不到這個批次或貼文，可能已被刪除。",
  409: "目前狀態不允許這個操作。",
  503: "海巡服務或搜尋來源暫時無法使用，請稍後再試。",
};

function statusText(run) {
  if (run.status === "succeeded" && run.shortfallCount > 0) return "完成但不足";
  return STATUS_TEXT[run.status] || "未知狀態";
}

function hasShortfall(run) {
  return run.status === "succeeded" && run.shortfallCount > 0;
}

function reasonTexts(run) {
  const texts = run.shortfallReasons.map((code) => SHORTFALL_TEXT[code] || "其他原因");
  return [...new Set(texts)];
}

function errorText(error) {
  return ERROR_TEXT[error.status] || "發生錯誤，請稍後再試。";
}

const $ = (id) => document.getElementById(id);

class Workbench {
  constructor(repository) {
    this.repository = repository;
    this.runs = null; // current Page<ScoutRun>
    this.runsPage = 1;
    this.selectedRun = null;
    this.posts = null; // current Page<ScoutPost> of the selected run
    this.postsPage = 1;
    this.selectedPostId = null;
    this.knownRunIds = new Set();
    this.watchedRunIds = new Set(); // queued or running runs the page has seen
    this.createdRuns = new Map(); // runs created from this page, newest first
    this.jobs = new Map(); // job id → the last ScoutJob read for it
    this.confirmingDeleteRunId = null;
  }

  async start() {
    this.bindForm();
    $("refresh-runs").addEventListener("click", () => this.refreshRuns());
    $("refresh-runs-hint").addEventListener("click", async () => {
      await this.refreshRuns();
      $("runs-heading").focus(); // the hint and its button are gone
    });
    await this.loadRuns(1, { selectFirst: true });
    this.poller = setInterval(() => this.poll().catch(() => {}), POLL_MS);
  }

  // ---- runs ---------------------------------------------------------------------------------

  async loadRuns(page, { selectFirst = false } = {}) {
    $("runs-message").textContent = "";
    let result;
    try {
      result = await this.repository.listRuns({ page, pageSize: RUNS_PAGE_SIZE });
    } catch (error) {
      $("runs-message").textContent = errorText(error);
      return;
    }
    // Past the end (after a delete): fall back to the new last valid page.
    if (result.items.length === 0 && result.totalPages > 0 && page > result.totalPages) {
      try {
        result = await this.repository.listRuns({ page: result.totalPages, pageSize: RUNS_PAGE_SIZE });
      } catch (error) {
        $("runs-message").textContent = errorText(error);
        return;
      }
    }
    this.runs = result;
    this.runsPage = result.page;
    for (const run of result.items) this.noteRun(run);
    this.renderRuns();
    if (selectFirst) {
      if (result.items.length > 0) await this.selectRun(result.items[0]);
      else this.clearSelection();
    }
  }

  async refreshRuns() {
    $("new-runs-hint").hidden = true;
    await this.loadRuns(1, { selectFirst: this.selectedRun === null });
  }

  noteRun(run) {
    this.knownRunIds.add(run.id);
    if (!TERMINAL_STATUSES.has(run.status)) this.watchedRunIds.add(run.id);
  }

  renderRuns() {
    keepFocus($("runs-panel"), () => {
      const list = $("runs");
      list.replaceChildren();
      if (this.runs.total === 0) {
        list.append(element("li", { class: "empty", text: "還沒有海巡批次。在上方輸入話題開始第一次海巡。" }));
      }
      for (const run of this.runs.items) list.append(this.runRow(run));
      renderPager($("runs-pager"), this.runs, "批次", (page) => this.loadRuns(page));
    }, $("runs-heading"));
  }

  runRow(run) {
    const selected = this.selectedRun && this.selectedRun.id === run.id;
    const meta = element("span", { class: "row-meta" },
      element("span", { class: `status status-${run.status}`, text: statusText(run) }),
      element("span", { text: `目標／實得：${run.targetCount}／${run.eligibleCount}` }),
      element("span", { text: `待處理：${run.pendingCount}` }),
      run.createdAt ? timeElement(run.createdAt, "建立：") : null);
    const button = element("button", {
      type: "button", class: "row", "aria-pressed": selected ? "true" : "false", "data-run-id": run.id,
      onclick: () => this.selectRun(run),
    }, element("span", { class: "row-title", text: run.themeLabel || run.intent || "（未命名話題）" }), meta);
    const item = element("li", {}, button);
    if (hasShortfall(run)) {
      const reasons = reasonTexts(run);
      item.append(element("p", { class: "shortfall",
        text: reasons.length > 0 ? `不足 ${run.shortfallCount} 筆：${reasons.join("；")}` : `不足 ${run.shortfallCount} 筆` }));
    }
    return item;
  }

  // ---- the selected run ---------------------------------------------------------------------

  clearSelection() {
    this.selectedRun = null;
    this.posts = null;
    this.selectedPostId = null;
    $("run-detail").replaceChildren(element("p", { class: "empty", text: "沒有可顯示的批次。" }));
    $("posts").replaceChildren();
    $("posts-pager").replaceChildren();
    $("post-detail").hidden = true;
    this.renderRuns();
  }

  // Switching runs resets only the result pager to 1; the run pager stays where it is.
  async selectRun(run) {
    if (!this.selectedRun || this.selectedRun.id !== run.id) this.confirmingDeleteRunId = null;
    this.selectedRun = run;
    if (this.runs) this.renderRuns();
    await this.loadPosts(1);
  }

  // While results are being replaced the list is aria-busy, for assistive technology (and tests).
  async loadPosts(page, options = {}) {
    const list = $("posts");
    this.postLoads = (this.postLoads ?? 0) + 1;
    list.setAttribute("aria-busy", "true");
    try {
      await this.fetchPosts(page, options);
    } finally {
      this.postLoads -= 1;
      if (this.postLoads === 0) list.removeAttribute("aria-busy");
    }
  }

  // `keepPostId`: after an action the acted-on result stays selected if it is still on the page.
  async fetchPosts(page, { keepPostId = null } = {}) {
    const run = this.selectedRun;
    $("run-message").textContent = "";
    let result;
    try {
      result = await this.repository.listRunPosts(run.id, { page, pageSize: POSTS_PAGE_SIZE });
    } catch (error) {
      $("run-message").textContent = errorText(error);
      if (error.status === 404) this.renderRunDetail(run);
      return;
    }
    if (!this.selectedRun || this.selectedRun.id !== run.id) return; // another run was chosen meanwhile
    if (result.items.length === 0 && result.totalPages > 0 && page > result.totalPages) {
      try {
        result = await this.repository.listRunPosts(run.id, { page: result.totalPages, pageSize: POSTS_PAGE_SIZE });
      } catch (error) {
        $("run-message").textContent = errorText(error);
        return;
      }
      if (!this.selectedRun || this.selectedRun.id !== run.id) return;
    }
    this.selectedRun = result.run;
    this.noteRun(result.run);
    this.replaceRunRow(result.run);
    this.posts = result;
    this.postsPage = result.page;
    // A new page starts with its first result selected.
    const kept = keepPostId && result.items.find((item) => item.id === keepPostId);
    this.selectedPostId = kept ? kept.id : result.items.length > 0 ? result.items[0].id : null;
    this.renderRunDetail(result.run);
    this.renderPosts();
  }

  replaceRunRow(run) {
    if (!this.runs) return;
    const index = this.runs.items.findIndex((item) => item.id === run.id);
    if (index >= 0) {
      this.runs.items[index] = run;
      this.renderRuns();
    }
  }

  // The detail of a run; while it is queued or running, its job's progress (the last one read).
  renderRunDetail(run) {
    const job = run.jobId ? this.jobs.get(run.jobId) : null;
    const active = !TERMINAL_STATUSES.has(run.status);
    // While the run is active its job's counts are the latest read (they are final on the run).
    const live = active && job ? job : run;
    const counts = element("dl", { class: "counts" },
      ...pair("狀態", statusText(run)),
      ...pair("目標／實得", `${run.targetCount}／${run.eligibleCount}`),
      ...pair("待處理", String(run.pendingCount)),
      ...pair("已檢視候選", String(live.searchedCount)),
      ...pair("重複排除", String(live.duplicateCount)),
      ...pair("低關聯排除", String(live.irrelevantCount)),
      ...pair("建立時間", run.createdAt ? formatTime(run.createdAt) : "—"));
    const heading = element("h3", { class: "run-title", text: run.themeLabel || run.intent });
    const children = [heading, counts];
    if (hasShortfall(run)) {
      const reasons = reasonTexts(run);
      const note = element("div", { class: "shortfall", role: "note" });
      if (reasons.length > 0) {
        note.append(element("p", { text: `完成但不足：還差 ${run.shortfallCount} 筆。原因：` }),
          element("ul", {}, ...reasons.map((text) => element("li", { text }))));
      } else {
        note.append(element("p", { text: `完成但不足：還差 ${run.shortfallCount} 筆。` }));
      }
      children.push(note);
    }
    if (active) {
      const eligible = job ? job.eligibleCount : run.eligibleCount;
      const stage = job && job.cancelRequested ? "已要求取消，目前階段結束後停止" : (job && jobProgressText(job)) || "準備來源";
      children.push(element("p", { class: "progress", role: "status", "data-testid": "run-progress" },
        `${statusText(run)}：${stage}（合格 ${eligible}／目標 ${run.targetCount}）。完成後才會顯示結果。`));
    }
    if (run.status === "failed") {
      children.push(element("p", { class: "error", text: "這個批次失敗，沒有發佈任何結果。" }));
    }
    const actions = element("div", { class: "actions" });
    if (active && run.jobId) {
      // aria-disabled, not disabled: a requested cancel keeps the button (and keyboard focus) in place.
      const requested = Boolean(job && job.cancelRequested);
      actions.append(element("button", { type: "button", class: "secondary", "data-action": "cancel",
        "aria-disabled": requested ? "true" : null, text: requested ? "已要求取消" : "取消任務",
        onclick: () => { if (!requested) this.cancelRun(run); } }));
    }
    const confirming = this.confirmingDeleteRunId === run.id;
    actions.append(element("button", { type: "button", class: "danger", "data-action": "delete-run",
      text: confirming ? "確認刪除批次？" : "刪除批次",
      onclick: () => this.confirmDeleteRun(run) }));
    children.push(actions);
    keepFocus($("run-panel"), () => $("run-detail").replaceChildren(...children), $("run-heading"));
  }

  renderPosts() {
    keepFocus($("run-panel"), () => this.renderPostList(), $("run-heading"));
  }

  renderPostList() {
    const list = $("posts");
    list.replaceChildren();
    const run = this.selectedRun;
    if (!TERMINAL_STATUSES.has(run.status)) {
      $("posts-pager").replaceChildren();
      $("post-detail").hidden = true;
      return;
    }
    if (this.posts.total === 0) {
      list.append(element("li", { class: "empty", text: "這個批次沒有結果。" }));
    }
    for (const post of this.posts.items) {
      const selected = post.id === this.selectedPostId;
      list.append(element("li", {}, element("button", {
        type: "button", class: "row", "aria-pressed": selected ? "true" : "false", "data-post-id": post.id,
        onclick: () => { this.selectedPostId = post.id; this.renderPosts(); },
      },
      element("span", { class: "row-title post-text", text: post.text }),
      element("span", { class: "row-meta" },
        element("span", { text: `@${post.author}` }),
        element("span", { text: `分數：${post.score.toFixed(2)}` }),
        element("span", { text: OUTREACH_TEXT[post.status] || "" }),
        postedLabel(post)),
      element("span", { class: "reason", text: `符合原因：${post.matchReason}` }))));
    }
    renderPager($("posts-pager"), this.posts, "結果", (page) => this.loadPosts(page));
    this.renderPostDetail();
  }

  renderPostDetail() {
    const detail = $("post-detail");
    const post = this.posts && this.posts.items.find((item) => item.id === this.selectedPostId);
    if (!post) {
      detail.hidden = true;
      return;
    }
    const actions = element("div", { class: "actions" });
    for (const action of ["draft", "skip", "publish"]) {
      actions.append(element("button", { type: "button", text: ACTION_TEXT[action], "data-action": action,
        onclick: () => this.actOnPost(post, action) }));
    }
    actions.append(element("button", { type: "button", class: "danger", text: "刪除結果", "data-action": "delete-post",
      onclick: () => this.deletePost(post) }));
    detail.replaceChildren(
      element("h3", { text: "貼文明細" }),
      element("p", { class: "post-body", text: post.text }),
      element("dl", { class: "counts" },
        ...pair("作者", `@${post.author}`),
        ...pair("分數", post.score.toFixed(2)),
        ...pair("處理狀態", OUTREACH_TEXT[post.status] || ""),
        ...pair("符合原因", post.matchReason)),
      element("p", { class: "times" }, postedLabel(post),
        element("span", { class: "separator", "aria-hidden": "true", text: "｜" }),
        post.createdAt ? timeElement(post.createdAt, "掃入時間：") : element("span", { text: "掃入時間：—" })),
      post.url ? element("p", {}, element("a", { href: post.url, target: "_blank", rel: "noopener noreferrer",
        text: "在 Threads 開啟原文" })) : null,
      actions);
    detail.hidden = false;
  }

  // ---- actions ------------------------------------------------------------------------------

  // The result keeps its place (order is by score and times, never by state); the run's pending
  // count follows in its row and its detail.
  async actOnPost(post, action) {
    try {
      await this.repository.actOnPost(post.id, action);
    } catch (error) {
      $("run-message").textContent = errorText(error);
      return;
    }
    await this.loadPosts(this.postsPage, { keepPostId: post.id });
    $("run-message").textContent = `已${ACTION_TEXT[action]}。`;
  }

  async deletePost(post) {
    try {
      await this.repository.deletePost(post.id);
    } catch (error) {
      $("run-message").textContent = errorText(error);
      return;
    }
    await this.loadPosts(this.postsPage);
    $("run-message").textContent = "已刪除結果。";
    // The deleted result is gone: the keyboard continues on the result now selected.
    ($("posts").querySelector('button[aria-pressed="true"]') || $("run-heading")).focus();
  }

  // Deleting asks once more on the same button; the question survives re-renders while polling.
  confirmDeleteRun(run) {
    if (this.confirmingDeleteRunId !== run.id) {
      this.confirmingDeleteRunId = run.id;
      this.renderRunDetail(this.selectedRun && this.selectedRun.id === run.id ? this.selectedRun : run);
      return;
    }
    this.confirmingDeleteRunId = null;
    this.deleteRun(run);
  }

  async deleteRun(run) {
    try {
      await this.repository.deleteRun(run.id);
    } catch (error) {
      $("run-message").textContent = error.status === 409
        ? "批次仍在等待或執行中，無法刪除。請先取消任務，待批次結束後再刪除。"
        : errorText(error);
      this.renderRunDetail(this.selectedRun && this.selectedRun.id === run.id ? this.selectedRun : run);
      return;
    }
    this.knownRunIds.delete(run.id);
    this.watchedRunIds.delete(run.id);
    this.createdRuns.delete(run.id);
    this.renderCreatedRuns();
    const wasSelected = this.selectedRun && this.selectedRun.id === run.id;
    if (wasSelected) this.selectedRun = null;
    await this.loadRuns(this.runsPage, { selectFirst: wasSelected });
    $("runs-message").textContent = "已刪除批次。";
    ($("runs").querySelector('button[aria-pressed="true"]') || $("runs-heading")).focus();
  }

  // A queued job is cancelled at once; a running one stops at its next stage boundary.
  async cancelRun(run) {
    let job;
    try {
      job = await this.repository.cancelJob(run.jobId);
    } catch (error) {
      $("run-message").textContent = errorText(error);
      return;
    }
    this.jobs.set(job.id, job);
    await this.refreshRun(run.id);
    $("run-message").textContent = job.status === "cancelled" ? "已取消任務。" : "已要求取消任務，目前階段結束後停止。";
  }

  // Re-reads one run; if selected, its row and detail follow (or its results once it has finished).
  async refreshRun(runId) {
    let run;
    try {
      run = await this.repository.getRun(runId);
    } catch (error) {
      if (error.status === 404) this.watchedRunIds.delete(runId);
      return null;
    }
    if (this.createdRuns.has(run.id)) {
      this.createdRuns.set(run.id, run);
      this.renderCreatedRuns();
    }
    const selected = this.selectedRun && this.selectedRun.id === run.id;
    // Only the selected run's row follows; other rows wait for the person's refresh (docs/scout.md flow D).
    if (selected) this.replaceRunRow(run);
    if (TERMINAL_STATUSES.has(run.status)) {
      this.watchedRunIds.delete(run.id);
      if (selected) await this.loadPosts(1);
    } else if (selected) {
      this.selectedRun = run;
      if (run.jobId) {
        try {
          this.jobs.set(run.jobId, await this.repository.getJob(run.jobId));
        } catch {
          // The run's own counts stand in until the next poll.
        }
      }
      if (this.selectedRun && this.selectedRun.id === run.id) this.renderRunDetail(run);
    }
    return run;
  }

  // ---- creating a scan ----------------------------------------------------------------------

  bindForm() {
    const form = $("scan-form");
    $("suggest-terms").addEventListener("click", () => {
      $("scan-terms").value = suggestTerms($("scan-intent").value).join("\n");
      $("scan-terms").focus();
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const message = $("scan-message");
      const intent = $("scan-intent").value.trim();
      let terms = $("scan-terms").value.split("\n").map((term) => term.trim()).filter(Boolean);
      const target = Number($("scan-target").value);
      if (!intent || intent.length > MAX_INTENT_CHARS) {
        message.textContent = intent ? `話題最多 ${MAX_INTENT_CHARS} 個字。` : "請輸入話題。";
        $("scan-intent").focus();
        return;
      }
      if (terms.length > MAX_TERMS || terms.some((term) => term.length > MAX_TERM_CHARS)) {
        message.textContent = `搜尋詞最多 ${MAX_TERMS} 個，每個最多 ${MAX_TERM_CHARS} 個字。`;
        $("scan-terms").focus();
        return;
      }
      if (!Number.isInteger(target) || target < 1 || target > 40) {
        message.textContent = "目標數必須是 1 到 40 的整數。";
        $("scan-target").focus();
        return;
      }
      if (terms.length === 0) {
        terms = suggestTerms(intent);
        $("scan-terms").value = terms.join("\n");
      }
      $("scan-submit").disabled = true;
      try {
        const { run } = await this.repository.createScan({ intent, terms, mode: "topic", target_count: target });
        this.noteRun(run);
        this.createdRuns = new Map([[run.id, run], ...this.createdRuns]);
        this.renderCreatedRuns();
        message.textContent = "已建立海巡批次，正在等待執行。";
      } catch (error) {
        message.textContent = errorText(error);
      } finally {
        $("scan-submit").disabled = false;
      }
    });
  }

  renderCreatedRuns() {
    const box = $("created-runs");
    keepFocus(box, () => {
      box.replaceChildren();
      if (this.createdRuns.size === 0) return;
      const list = element("ul", { class: "created-list", "aria-label": "剛建立的批次" });
      for (const run of this.createdRuns.values()) {
        list.append(element("li", { "data-created-run-id": run.id },
          element("span", { text: run.themeLabel || run.intent }),
          element("span", { class: `status status-${run.status}`, text: statusText(run) }),
          element("button", { type: "button", class: "secondary", text: "查看", "data-view-run-id": run.id,
            "aria-label": `查看 ${run.themeLabel || run.intent}`, onclick: () => this.selectRun(run) })));
      }
      box.append(list);
    }, $("scan-heading"));
  }

  // ---- background progress ------------------------------------------------------------------

  async poll() {
    let finishedElsewhere = false;
    for (const runId of [...this.watchedRunIds]) {
      const wasSelected = this.selectedRun && this.selectedRun.id === runId;
      const run = await this.refreshRun(runId);
      if (run && TERMINAL_STATUSES.has(run.status) && !wasSelected) finishedElsewhere = true;
    }
    // Runs started elsewhere (another tab or device) show up as the newest run.
    try {
      const newest = await this.repository.listRuns({ page: 1, pageSize: 1 });
      const run = newest.items[0];
      if (run && !this.knownRunIds.has(run.id)) {
        this.knownRunIds.add(run.id);
        if (TERMINAL_STATUSES.has(run.status)) finishedElsewhere = true;
        else this.watchedRunIds.add(run.id);
      }
    } catch {
      // The next poll tries again.
    }
    if (finishedElsewhere) $("new-runs-hint").hidden = false;
  }
}

// The job's step, worded from its data (stage and search stage number).
function jobProgressText(job) {
  switch (job.progressStage) {
    case "searching": return `第 ${job.progressStageNumber} 階段搜尋`;
    case "filtering": return "篩選／去重";
    case "publishing": return "發佈結果";
    default: return "準備來源";
  }
}

function pair(term, value) {
  return [element("dt", { text: term }), element("dd", { text: value })];
}

function postedLabel(post) {
  return post.postedAt ? timeElement(post.postedAt, "貼文時間：") : element("span", { class: "unknown-time", text: "貼文時間未知" });
}

function renderPager(nav, page, noun, go) {
  nav.replaceChildren();
  if (page.totalPages <= 1) {
    nav.append(element("span", { text: `共 ${page.total} 筆` }));
    return;
  }
  nav.append(
    element("button", { type: "button", class: "secondary", text: "上一頁", disabled: page.page <= 1,
      "data-pager": "previous", "aria-label": `${noun}上一頁`, onclick: () => go(page.page - 1) }),
    element("span", { class: "pager-status", "aria-live": "polite",
      text: `第 ${page.page}／${page.totalPages} 頁（共 ${page.total} 筆）` }),
    element("button", { type: "button", class: "secondary", text: "下一頁", disabled: page.page >= page.totalPages,
      "data-pager": "next", "aria-label": `${noun}下一頁`, onclick: () => go(page.page + 1) }));
}

// Proposed search terms: the intent split on separators, the whole intent first. The person
// reviews and edits them before the scan starts.
export function suggestTerms(intent) {
  const whole = intent.trim();
  if (!whole) return [];
  const parts = whole.split(/[\s,，、／/；;｜|]+/).map((part) => part.trim()).filter((part) => part.length > 1);
  return [...new Set([whole, ...parts])].slice(0, 5);
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
    $("signed-out").hidden = false;
    return;
  }
  $("scout").hidden = false;
  const workbench = new Workbench(repository);
  await workbench.start();
}

main();
