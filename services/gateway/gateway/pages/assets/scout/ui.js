// Small pieces the /scout panels share: definition pairs, the post-time label, the pager and the
// one way an action reports its failure.

import { element, timeElement } from "../format.js";
import { keepFocus } from "../focus.js";
import { errorText } from "./text.js";

export function pair(term, value) {
  return [element("dt", { text: term }), element("dd", { text: value })];
}

export function postedLabel(post) {
  return post.postedAt ? timeElement(post.postedAt, "貼文時間：")
    : element("span", { class: "unknown-time", text: "貼文時間未知" });
}

// Runs `work()`; a failure is worded into `message` (a status region next to the control) and
// answers null. A 401 ends the session, which the page shows on its own.
export async function attempt(message, work) {
  try {
    return await work();
  } catch (error) {
    if (error.status !== 401) message.textContent = errorText(error);
    return null;
  }
}

// A pager whose presses are never lost: a press while a page loads moves the wanted page, and
// the pager loads until the page shown is the page wanted. `load(page)` answers the Page it
// loaded (or null when it failed); `render` draws the buttons from `pager.view()`.
export class Pager {
  constructor(nav, noun, load) {
    this.nav = nav;
    this.noun = noun;
    this.load = load;
    this.page = null; // the Page shown
    this.wanted = null;
    this.loading = false;
    this.controls = null; // the buttons and status, kept across renders
  }

  show(page) {
    this.page = page;
    if (!this.loading) this.wanted = null;
    this.render();
  }

  reset() {
    this.page = null;
    this.wanted = null;
    this.controls = null;
    this.nav.replaceChildren();
  }

  async go(delta) {
    if (!this.page) return;
    const from = this.wanted ?? this.page.page;
    this.wanted = Math.min(Math.max(from + delta, 1), Math.max(this.page.totalPages, 1));
    this.render();
    if (this.loading) return; // the running load picks the new page up when it ends
    this.loading = true;
    try {
      while (this.page && this.wanted !== null && this.wanted !== this.page.page) {
        const wanted = this.wanted;
        const loaded = await this.load(wanted);
        if (!loaded || this.wanted === wanted) break;
      }
    } finally {
      this.loading = false;
      this.wanted = null;
      if (this.page) this.render();
    }
  }

  render() {
    keepFocus(this.nav, () => this.draw());
  }

  draw() {
    const page = this.page;
    if (!page || page.totalPages <= 1) {
      this.controls = null;
      this.nav.replaceChildren(...(page ? [element("span", { text: `共 ${page.total} 筆` })] : []));
      return;
    }
    // The buttons stay the same nodes from render to render: a press whose pointer went down on
    // one while a load or a poll re-rendered the pager still clicks it.
    if (!this.controls) {
      this.controls = {
        previous: element("button", { type: "button", class: "secondary", text: "上一頁", "data-pager": "previous",
          "aria-label": `${this.noun}上一頁`, onclick: () => this.go(-1) }),
        status: element("span", { class: "pager-status", "aria-live": "polite" }),
        next: element("button", { type: "button", class: "secondary", text: "下一頁", "data-pager": "next",
          "aria-label": `${this.noun}下一頁`, onclick: () => this.go(1) }),
      };
      this.nav.replaceChildren(this.controls.previous, this.controls.status, this.controls.next);
    }
    const { previous, status, next } = this.controls;
    const target = this.wanted ?? page.page;
    const text = this.loading && this.wanted !== null && this.wanted !== page.page
      ? `載入第 ${this.wanted}／${page.totalPages} 頁…` : `第 ${page.page}／${page.totalPages} 頁（共 ${page.total} 筆）`;
    if (status.textContent !== text) status.textContent = text;
    const focused = document.activeElement;
    previous.disabled = target <= 1;
    next.disabled = target >= page.totalPages;
    // A button that became disabled under the keyboard hands focus to the other one.
    if (focused === previous && previous.disabled && !next.disabled) next.focus();
    if (focused === next && next.disabled && !previous.disabled) previous.focus();
  }
}
