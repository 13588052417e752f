// The /feed reader: the global feed for everyone; for a signed-in member also the subscription
// feed, "more" paging by cursor, a category filter and Subscribe / Unsubscribe on signatures.

import { adoptTokenFromFragment, apiRequest, memberId, renderSessionBar } from "../session.js";
import { element, timeElement } from "../format.js";

const PAGE_LIMIT = 20;
const PROBLEM_TEXT = {
  NEWS_SUBSCRIPTION_TARGET_INVALID: "追蹤對象不正確。",
  NEWS_SUBSCRIPTION_SELF: "不能追蹤自己。",
  NEWS_SUBSCRIPTION_NOT_FOUND: "找不到這筆追蹤。",
  NEWS_SUBSCRIPTION_FORBIDDEN: "沒有權限變更這筆追蹤。",
  NEWS_SUBSCRIPTIONS_DISABLED: "追蹤功能目前未開放。",
  VALIDATION_ERROR: "查詢參數不正確。",
  UNAUTHORIZED: "請先登入。",
};

const $ = (id) => document.getElementById(id);

class NewsApi {
  async call(method, path, body) {
    const response = await apiRequest(method, path, body);
    if (response.status === 204) return null;
    const payload = await response.json().catch(() => null);
    if (!response.ok) {
      const error = new Error((payload && payload.detail) || response.statusText);
      error.status = response.status;
      error.code = payload && payload.code;
      throw error;
    }
    return payload;
  }

  feed(kind, { cursor, categoryId }) {
    const params = new URLSearchParams({ limit: String(PAGE_LIMIT) });
    if (cursor) params.set("cursor", cursor);
    if (categoryId) params.set("categoryId", categoryId);
    return this.call("GET", `/api/v1/feed/${kind}?${params}`);
  }

  async allSubscriptions() {
    const items = [];
    let cursor = "";
    do {
      const params = new URLSearchParams(cursor ? { cursor } : {});
      const page = await this.call("GET", `/api/v1/subscriptions?${params}`);
      items.push(...page.items);
      cursor = page.hasMore ? page.nextCursor : "";
    } while (cursor);
    return items;
  }

  subscribe(targetKind, targetId) {
    const body = targetKind === "Author" ? { targetKind, targetUserId: targetId } : { targetKind, targetCompanyId: targetId };
    return this.call("POST", "/api/v1/subscriptions", body);
  }

  unsubscribe(subscriptionId) {
    return this.call("DELETE", `/api/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
  }
}

function problemText(error) {
  return PROBLEM_TEXT[error.code] || (error.status >= 500 ? "服務暫時無法使用，請稍後再試。" : "操作失敗，請稍後再試。");
}

class FeedReader {
  constructor(api, me) {
    this.api = api;
    this.me = me; // member id or null for a guest
    this.kind = me ? "subscriptions" : "global";
    this.category = null; // {id, title}: the category of the post the filter was chosen from
    this.cursor = null;
    // Every switch of tab or filter starts a new generation; a response of an older one is dropped.
    this.generation = 0;
    this.loading = false;
    this.subscriptions = new Map(); // "Author:<id>" / "Company:<id>" → subscription id
    this.items = [];
  }

  async start() {
    $("tab-subscriptions").hidden = !this.me;
    $("tab-subscriptions").addEventListener("click", () => this.show("subscriptions"));
    $("tab-global").addEventListener("click", () => this.show("global"));
    $("browse-global").addEventListener("click", async () => {
      await this.show("global");
      $("tab-global").focus();
    });
    $("clear-category").addEventListener("click", async () => {
      await this.filter(null);
      $("feed-heading").focus();
    });
    $("more").addEventListener("click", () => this.loadMore());
    if (this.me) {
      try {
        for (const subscription of await this.api.allSubscriptions()) {
          this.subscriptions.set(`${subscription.targetKind}:${subscription.target}`, subscription.subscriptionId);
        }
      } catch (error) {
        $("feed-message").textContent = problemText(error);
      }
    }
    await this.show(this.kind);
  }

  async show(kind) {
    this.kind = kind;
    $("tab-subscriptions").setAttribute("aria-pressed", String(kind === "subscriptions"));
    $("tab-global").setAttribute("aria-pressed", String(kind === "global"));
    this.generation += 1;
    this.loading = false;
    this.items = [];
    this.cursor = null;
    $("more").hidden = true;
    $("feed").replaceChildren();
    await this.loadMore();
  }

  // There is no category-name API: the filter names its category by the post it was chosen from.
  async filter(category) {
    this.category = category;
    $("category-filter").hidden = !category;
    $("category-filter-source").textContent = category ? `與「${category.title}」同分類` : "";
    $("category-filter-id").textContent = category ? category.id : "";
    await this.show(this.kind);
  }

  async loadMore() {
    if (this.loading) return; // one page at a time; "more" is disabled meanwhile
    const generation = this.generation;
    this.loading = true;
    $("more").disabled = true;
    $("feed-message").textContent = "";
    let body;
    try {
      body = await this.api.feed(this.kind, { cursor: this.cursor, categoryId: this.category && this.category.id });
    } catch (error) {
      if (generation === this.generation) $("feed-message").textContent = problemText(error);
      return;
    } finally {
      if (generation === this.generation) {
        this.loading = false;
        $("more").disabled = false;
      }
    }
    if (generation !== this.generation) return; // the tab or filter changed meanwhile
    const page = body.page;
    $("empty-subscriptions").hidden = !(this.kind === "subscriptions" && body.isEmptySubscriptions);
    this.cursor = page.hasMore ? page.nextCursor : null;
    $("more").hidden = !page.hasMore;
    const firstNew = this.items.length;
    this.items.push(...page.items);
    for (const item of page.items) $("feed").append(this.card(item));
    if (this.items.length === 0 && !body.isEmptySubscriptions) {
      $("feed").append(element("li", { class: "empty", text: "目前沒有動態。" }));
    }
    // "More" keeps keyboard users in place: focus moves to the first new card (the button may be gone).
    if (firstNew > 0 && page.items.length > 0) $("feed").children[firstNew]?.querySelector("h3")?.focus();
  }

  card(item) {
    const signature = element("div", { class: "signature" });
    let target = null;
    if (item.company) {
      if (item.company.logoUrl) signature.append(element("img", { src: item.company.logoUrl, alt: "" }));
      signature.append(element("span", { text: item.company.name || "（公司）" }));
      target = { kind: "Company", id: item.company.id, name: item.company.name || "這家公司" };
    } else if (item.author) {
      if (item.author.avatarUrl) signature.append(element("img", { src: item.author.avatarUrl, alt: "" }));
      signature.append(element("span", { text: item.author.displayName || "（作者）" }));
      if (item.author.isBlocked) signature.append(element("span", { class: "blocked", text: "已封鎖的作者" }));
      target = { kind: "Author", id: item.author.id, name: item.author.displayName || "這位作者" };
    }
    if (target && this.me && !(target.kind === "Author" && target.id === this.me)) {
      signature.append(this.subscribeButton(target));
    }
    const meta = element("div", { class: "signature" },
      item.publishedAt ? timeElement(new Date(item.publishedAt), "發布時間：") : null,
      item.categoryId ? element("button", { type: "button", class: "secondary", text: "只看這個分類",
        "aria-label": `只看與「${item.title}」同分類的動態`, onclick: async () => {
          await this.filter({ id: item.categoryId, title: item.title });
          $("clear-category").focus();
        } }) : null);
    return element("li", { class: "card", "data-post-id": item.id },
      element("h3", { tabindex: "-1", text: item.title }),
      signature,
      element("p", { text: item.excerpt }),
      meta);
  }

  subscribeButton(target) {
    const key = `${target.kind}:${target.id}`;
    const subscribed = this.subscriptions.has(key);
    const button = element("button", {
      type: "button", class: subscribed ? "secondary" : "", "data-target": key,
      text: subscribed ? "取消追蹤" : "追蹤",
      "aria-label": `${subscribed ? "取消追蹤" : "追蹤"}${target.name}`,
      onclick: () => this.toggle(target),
    });
    return button;
  }

  async toggle(target) {
    const key = `${target.kind}:${target.id}`;
    try {
      if (this.subscriptions.has(key)) {
        await this.api.unsubscribe(this.subscriptions.get(key));
        this.subscriptions.delete(key);
        $("feed-message").textContent = `已取消追蹤${target.name}。`;
      } else {
        const subscription = await this.api.subscribe(target.kind, target.id);
        this.subscriptions.set(key, subscription.subscriptionId);
        $("feed-message").textContent = `已追蹤${target.name}。`;
      }
    } catch (error) {
      $("feed-message").textContent = problemText(error);
      return;
    }
    // Every card of the same source shows the new state; focus stays on the pressed button.
    for (const old of document.querySelectorAll(`button[data-target="${CSS.escape(key)}"]`)) {
      const focused = old === document.activeElement;
      const fresh = this.subscribeButton(target);
      old.replaceWith(fresh);
      if (focused) fresh.focus();
    }
  }
}

adoptTokenFromFragment();
renderSessionBar($("session"));
new FeedReader(new NewsApi(), memberId()).start();
