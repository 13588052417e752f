// The selected run's results: one server page (score order), its pager, and the chosen result's
// detail with the reply composer and its actions, whose answers show next to them.

import { element, timeElement } from "../format.js";
import { keepFocus } from "../focus.js";
import { POSTS_PAGE_SIZE, TERMINAL_STATUSES } from "./repository.js";
import { ACTION_DONE_TEXT, ACTION_TEXT, OUTREACH_TEXT } from "./text.js";
import { attempt, pair, Pager, postedLabel } from "./ui.js";

const $ = (id) => document.getElementById(id);
// Which actions a result's state allows (the service's rule): publishing needs a saved draft.
const ALLOWED = { draft: ["new", "drafted"], skip: ["new", "drafted"], publish: ["drafted"] };

export class ResultsPanel {
  constructor(workbench) {
    this.workbench = workbench;
    this.page = null; // Page<ScoutPost> of the selected run
    this.selectedPostId = null;
    this.confirmingDelete = null;
    this.loads = 0;
    this.pager = new Pager($("posts-pager"), "結果", (page) => this.load(page));
  }

  clear() {
    this.page = null;
    this.selectedPostId = null;
    $("posts").replaceChildren();
    this.pager.reset();
    $("post-panel").hidden = true;
  }

  get pageNumber() {
    return this.page ? this.page.page : 1;
  }

  // While results are being replaced the list is aria-busy, for assistive technology (and tests).
  async load(pageNumber, options = {}) {
    const list = $("posts");
    this.loads += 1;
    list.setAttribute("aria-busy", "true");
    try {
      return await this.fetch(pageNumber, options);
    } finally {
      this.loads -= 1;
      if (this.loads === 0) list.removeAttribute("aria-busy");
    }
  }

  // `keepPostId`: after an action the acted-on result stays selected if it is still on the page.
  async fetch(pageNumber, { keepPostId = null } = {}) {
    const run = this.workbench.selectedRun;
    const message = $("run-message");
    const repository = this.workbench.repository;
    const still = () => this.workbench.selectedRun && this.workbench.selectedRun.id === run.id;
    let result = await attempt(message, () => repository.listRunPosts(run.id, { page: pageNumber, pageSize: POSTS_PAGE_SIZE }));
    if (result && still() && result.items.length === 0 && result.totalPages > 0 && pageNumber > result.totalPages) {
      result = await attempt(message, () => repository.listRunPosts(run.id, { page: result.totalPages, pageSize: POSTS_PAGE_SIZE }));
    }
    if (!result || !still()) return null; // failed, or another run was chosen meanwhile
    this.page = result;
    const kept = keepPostId && result.items.find((item) => item.id === keepPostId);
    // A new page starts with its first result selected.
    this.selectedPostId = kept ? kept.id : result.items.length > 0 ? result.items[0].id : null;
    this.workbench.runRead(result.run);
    this.render();
    return result;
  }

  // The list and its pager, then the detail; each keeps the keyboard on its counterpart.
  render() {
    keepFocus($("run-panel"), () => this.drawList(), $("run-heading"));
    keepFocus($("post-panel"), () => this.drawDetail(), this.selectedPost() ? $("post-heading") : $("run-heading"));
  }

  showsResults() {
    const run = this.workbench.selectedRun;
    return Boolean(run && this.page && TERMINAL_STATUSES.has(run.status));
  }

  drawList() {
    const list = $("posts");
    list.replaceChildren();
    if (!this.showsResults()) {
      this.pager.reset();
      return;
    }
    if (this.page.total === 0) list.append(element("li", { class: "empty", text: "這個批次沒有結果。" }));
    for (const post of this.page.items) list.append(this.row(post));
    this.pager.show(this.page);
  }

  row(post) {
    return element("li", {}, element("button", {
      type: "button", class: "row", "aria-pressed": post.id === this.selectedPostId ? "true" : "false",
      "data-post-id": post.id, onclick: () => this.choose(post),
    },
    element("span", { class: "row-title post-text", text: post.text }),
    element("span", { class: "row-meta" },
      element("span", { text: `@${post.author}` }),
      element("span", { text: `分數：${post.score.toFixed(2)}` }),
      element("span", { text: OUTREACH_TEXT[post.status] || "" }),
      postedLabel(post)),
    element("span", { class: "reason", text: `符合原因：${post.matchReason}` })));
  }

  // Choosing a result brings its detail into view and the keyboard to it (on a phone it sits
  // below the list).
  choose(post) {
    if (this.selectedPostId !== post.id) {
      this.selectedPostId = post.id;
      this.confirmingDelete = null;
      $("post-message").textContent = "";
      this.render();
    }
    const heading = $("post-heading");
    heading.focus({ preventScroll: true });
    $("post-panel").scrollIntoView({ block: "start", behavior: "instant" });
  }

  selectedPost() {
    return this.page && this.page.items.find((item) => item.id === this.selectedPostId);
  }

  drawDetail() {
    const post = this.showsResults() ? this.selectedPost() : null;
    const panel = $("post-panel");
    if (!post) {
      panel.hidden = true;
      return;
    }
    const detail = $("post-detail");
    const previousDraft = detail.dataset.postId === post.id ? $("draft-text")?.value : undefined;
    detail.dataset.postId = post.id;
    detail.replaceChildren(
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
      this.composer(post, previousDraft));
    panel.hidden = false;
  }

  // The reply: written here, saved by 草擬, sent by 發佈 (which needs the saved draft).
  composer(post, unsaved) {
    const editable = ALLOWED.draft.includes(post.status);
    const text = element("textarea", { id: "draft-text", "data-action": "compose", rows: "4", maxlength: "5000",
      "aria-describedby": "publish-note", readonly: editable ? null : true });
    text.value = unsaved ?? post.draftText;
    const note = element("p", { class: "help", id: "publish-note" });
    const actions = element("div", { class: "actions" });
    const button = (action, attributes = {}) => element("button", { type: "button", text: ACTION_TEXT[action],
      "data-action": action, "aria-disabled": ALLOWED[action].includes(post.status) ? null : "true",
      onclick: () => this.act(post, action), ...attributes });
    const publish = button("publish", { "aria-describedby": "publish-note" });
    const refresh = () => {
      const changed = text.value !== post.draftText;
      const ready = post.status === "drafted" && !changed && post.draftText.trim() !== "";
      publish.setAttribute("aria-disabled", ready ? "false" : "true");
      note.textContent = post.status === "published" ? "已發佈這則回覆。"
        : post.status === "skipped" ? "這則結果已略過，不能再草擬或發佈。"
          : post.status === "queued" ? "回覆已排入發佈。"
            : changed || post.status !== "drafted" ? "先寫好回覆並按「草擬」儲存，才能發佈。"
              : "按「發佈」會送出上面這則已儲存的回覆。";
    };
    text.addEventListener("input", refresh);
    refresh();
    actions.append(button("draft"), button("skip"), publish, this.deleteButtons(post));
    return element("div", { class: "composer" },
      element("label", { for: "draft-text", text: "回覆草稿" }), text, note, actions);
  }

  deleteButtons(post) {
    if (this.confirmingDelete !== post.id) {
      return element("button", { type: "button", class: "danger", text: "刪除結果", "data-action": "delete-post",
        onclick: () => {
          this.confirmingDelete = post.id;
          $("post-message").textContent = "刪除後無法復原。";
          this.render();
        } });
    }
    const box = document.createDocumentFragment();
    box.append(
      element("button", { type: "button", class: "danger", text: "確認刪除結果？", "data-action": "delete-post",
        onclick: () => this.delete(post) }),
      element("button", { type: "button", class: "secondary", text: "不刪除", "data-action": "keep-post",
        onclick: () => {
          this.confirmingDelete = null;
          $("post-message").textContent = "";
          this.render();
          $("post-detail").querySelector('[data-action="delete-post"]')?.focus();
        } }));
    return box;
  }

  // The result keeps its place (order is by score and times, never by state); the run's pending
  // count follows in its row and its detail.
  async act(post, action) {
    const message = $("post-message");
    if (!ALLOWED[action].includes(post.status)) {
      message.textContent = `這則結果${OUTREACH_TEXT[post.status] || ""}，不能${ACTION_TEXT[action]}。`;
      return;
    }
    const draftText = $("draft-text").value;
    if (action === "draft" && draftText.trim() === "") {
      message.textContent = "請先在「回覆草稿」寫下回覆內容。";
      $("draft-text").focus();
      return;
    }
    if (action === "publish" && (draftText !== post.draftText || post.draftText.trim() === "")) {
      message.textContent = "先寫好回覆並按「草擬」儲存，才能發佈。";
      return;
    }
    message.textContent = "";
    const done = await attempt(message, () => this.workbench.repository.actOnPost(post.id, action,
      action === "draft" ? { draftText } : {}));
    if (!done) return;
    $("post-detail").dataset.postId = ""; // the saved text replaces what was typed
    await this.load(this.pageNumber, { keepPostId: post.id });
    message.textContent = ACTION_DONE_TEXT[action];
  }

  async delete(post) {
    this.confirmingDelete = null;
    const message = $("post-message");
    const done = await attempt(message, () => this.workbench.repository.deletePost(post.id));
    if (!done) {
      this.render();
      return;
    }
    await this.load(this.pageNumber);
    if (this.selectedPost()) {
      message.textContent = "已刪除結果。";
      $("post-heading").focus();
    } else {
      $("run-message").textContent = "已刪除結果。";
      $("run-heading").focus();
    }
  }
}
