// Creating a scan: the topic, the reviewed search terms and the target, checked against the
// service's limits before sending; the runs created here are listed with their live status.

import { element } from "../format.js";
import { keepFocus } from "../focus.js";
import { MAX_INTENT_CHARS, MAX_TARGET, MAX_TERM_CHARS, MAX_TERMS, MIN_TARGET } from "./brief.js";
import { statusClass, statusText } from "./text.js";
import { attempt } from "./ui.js";

const $ = (id) => document.getElementById(id);

export class ScanForm {
  constructor(workbench) {
    this.workbench = workbench;
    this.created = new Map(); // runs created from this page, newest first
  }

  bind() {
    $("suggest-terms").addEventListener("click", () => this.suggest());
    $("scan-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  // The service's proposed terms for the topic, put in the terms box for review; null (the
  // reason shown, focus on the topic) when it proposes none.
  async suggest() {
    const message = $("scan-message");
    const intent = $("scan-intent").value.trim();
    if (!intent) {
      message.textContent = "請輸入話題。";
      $("scan-intent").focus();
      return null;
    }
    message.textContent = "";
    $("suggest-terms").disabled = true;
    const terms = await attempt(message, () => this.workbench.repository.suggestTerms(intent));
    $("suggest-terms").disabled = false;
    if (!terms) {
      $("scan-intent").focus();
      return null;
    }
    $("scan-terms").value = terms.join("\n");
    $("scan-terms").focus();
    return terms;
  }

  // The form's own check; null when a field needs fixing (its message shown, focus on it).
  async brief() {
    const message = $("scan-message");
    const intent = $("scan-intent").value.trim();
    let terms = $("scan-terms").value.split("\n").map((term) => term.trim()).filter(Boolean);
    const target = Number($("scan-target").value);
    const refuse = (text, field) => {
      message.textContent = text;
      $(field).focus();
      return null;
    };
    if (!intent) return refuse("請輸入話題。", "scan-intent");
    if (intent.length > MAX_INTENT_CHARS) return refuse(`話題最多 ${MAX_INTENT_CHARS} 個字。`, "scan-intent");
    if (terms.length > MAX_TERMS || terms.some((term) => term.length > MAX_TERM_CHARS)) {
      return refuse(`搜尋詞最多 ${MAX_TERMS} 個，每個最多 ${MAX_TERM_CHARS} 個字。`, "scan-terms");
    }
    if (!Number.isInteger(target) || target < MIN_TARGET || target > MAX_TARGET) {
      return refuse(`目標數必須是 ${MIN_TARGET} 到 ${MAX_TARGET} 的整數。`, "scan-target");
    }
    if (terms.length === 0) {
      terms = await this.suggest();
      if (!terms) return null;
    }
    return { intent, terms, mode: "topic", target_count: target };
  }

  async submit() {
    const message = $("scan-message");
    const brief = await this.brief();
    if (!brief) return;
    message.textContent = "";
    $("scan-submit").disabled = true;
    const created = await attempt(message, () => this.workbench.repository.createScan(brief));
    $("scan-submit").disabled = false;
    if (!created) {
      $("scan-intent").focus();
      return;
    }
    message.textContent = "已建立海巡批次，正在等待執行。";
    await this.workbench.runCreated(created.run);
  }

  add(run) {
    this.created = new Map([[run.id, run], ...this.created]);
    this.render();
  }

  follow(run) {
    if (!this.created.has(run.id) || JSON.stringify(this.created.get(run.id)) === JSON.stringify(run)) return;
    this.created.set(run.id, run);
    this.render();
  }

  forget(runId) {
    if (this.created.delete(runId)) this.render();
  }

  render() {
    const box = $("created-runs");
    keepFocus(box, () => {
      box.replaceChildren();
      if (this.created.size === 0) return;
      const list = element("ul", { class: "created-list", "aria-label": "剛建立的批次" });
      for (const run of this.created.values()) {
        const name = run.themeLabel || run.intent;
        list.append(element("li", { "data-created-run-id": run.id },
          element("span", { text: name }),
          element("span", { class: statusClass(run), text: statusText(run) }),
          element("button", { type: "button", class: "secondary", text: "查看", "data-view-run-id": run.id,
            "aria-label": `查看 ${name}`, onclick: () => this.workbench.selectRun(run) })));
      }
      box.append(list);
    }, $("scan-heading"));
  }
}
