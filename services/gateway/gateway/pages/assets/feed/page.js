// The /feed reader: the global feed for everyone; for a signed-in member also the subscription
// feed, the list of followed sources, "more" paging by cursor, a category filter and Follow /
// Unfollow on signatures. `/feed?post=<id>` shows one post. An expired session falls back to the
// guest's view and says how to sign in again.

import {
  adoptTokenFromFragment, memberId, onSessionExpired, renderSessionBar, sessionExpired, signInLink,
} from "../session.js";
import { element, timeElement } from "../format.js";
import { createNewsRepository } from "./repository.js";

const PROBLEM_TEXT = {
  NEWS_SUBSCRIPTION_TARGET_INVALID: "追蹤對象不正確。",
  NEWS_SUBSCRIPTION_SELF: "不能追蹤自己。",
  NEWS_SUBSCRIPTION_NOT_FOUND: "找不到這筆追蹤。",
  NEWS_SUBSCRIPTION_FORBIDDEN: "沒有權限變更這筆追蹤。",
  NEWS_SUBSCRIPTIONS_DISABLED: "追蹤功能目前未開放。",
  NEWS_POST_NOT_FOUND: "找不到這則動態，可能已下架。",
  VALIDATION_ERROR: "查詢參數不正確。",
};
const EXPIRED_TEXT = "登入已過期，現在顯示全站動態。重新登入後即可看追蹤中的動態與追蹤作者。";

const $ = (id) => document.getElementById(id);

function problemText(error) {
  return PROBLEM_TEXT[error.code] || (error.status >= 500 ? "服務暫時無法使用，請稍後再試。" : "操作失敗，請稍後再試。");
}

// A message, with the way to sign in again when there is one.
function say(node, text, { withSignIn = false } = {}) {
  node.replaceChildren(text);
  const link = withSignIn ? signInLink("重新登入") : null;
  if (link) node.append(" ", link);
}

// The source of a post: who signed it, as the Follow buttons and the followed list name it.
function sourceOf(item) {
  if (item.company) return { kind: "Company", id: item.company.id, name: item.company.name || "這家公司" };
  if (item.author) return { kind: "Author", id: item.author.id, name: item.author.displayName || "這位作者" };
  return null;
}

function signature(item) {
  const box = element("div", { class: "signature" });
  if (item.company) {
    if (item.company.logoUrl) box.append(element("img", { src: item.company.logoUrl, alt: "" }));
    box.append(element("span", { text: item.company.name || "（公司）" }));
  } else if (item.author) {
    if (item.author.avatarUrl) box.append(element("img", { src: item.author.avatarUrl, alt: "" }));
    box.append(element("span", { text: item.author.displayName || "（作者）" }));
    if (item.author.isBlocked) box.append(element("span", { class: "blocked", text: "已封鎖的作者" }));
  }
  return box;
}

class Follows {
  // "Author:<id>" / "Company:<id>" → {subscriptionId, kind, id}; names learnt from the posts seen.
  constructor(repository) {
    this.repository = repository;
    this.byKey = new Map();
    this.names = new Map();
  }

  static key(source) {
    return `${source.kind}:${source.id}`;
  }

  async load() {
    this.byKey.clear();
    for (const subscription of await this.repository.subscriptions()) {
      this.byKey.set(`${subscription.targetKind}:${subscription.target}`,
        { subscriptionId: subscription.subscriptionId, kind: subscription.targetKind, id: subscription.target });
    }
  }

  learn(source) {
    if (source) this.names.set(Follows.key(source), source.name);
  }

  nameOf(source) {
    const known = this.names.get(Follows.key(source));
    if (known) return known;
    return `${source.kind === "Company" ? "公司" : "作者"}（ID ${source.id.slice(0, 8)}…）`;
  }

  has(source) {
    return this.byKey.has(Follows.key(source));
  }

  async toggle(source) {
    const key = Follows.key(source);
    if (this.byKey.has(key)) {
      await this.repository.unsubscribe(this.byKey.get(key).subscriptionId);
      this.byKey.delete(key);
      return false;
    }
    const subscription = await this.repository.subscribe(source.kind, source.id);
    this.byKey.set(key, { subscriptionId: subscription.subscriptionId, kind: source.kind, id: source.id });
    return true;
  }
}

class FeedReader {
  constructor(repository, me) {
    this.repository = repository;
    this.me = me; // member id or null for a guest
    this.follows = new Follows(repository);
    this.kind = me ? "subscriptions" : "global";
    this.category = null; // {id, title}: the category of the post the filter was chosen from
    this.cursor = null;
    // Every switch of tab or filter starts a new generation; a response of an older one is dropped.
    this.generation = 0;
    this.loading = false;
    this.count = 0;
  }

  async start() {
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
    onSessionExpired(() => this.expired());
    this.renderMembership();
    if (this.me) await this.loadFollows();
    await this.show(this.kind);
    if (!this.me && sessionExpired()) say($("feed-message"), EXPIRED_TEXT, { withSignIn: true });
  }

  // The session ended while reading: the guest's view (global feed), and the way back in.
  async expired() {
    if (!this.me) return;
    this.me = null;
    renderSessionBar($("session"));
    this.renderMembership();
    await this.show("global");
    say($("feed-message"), EXPIRED_TEXT, { withSignIn: true });
  }

  renderMembership() {
    $("tab-subscriptions").hidden = !this.me;
    $("following").hidden = !this.me;
    const hint = $("guest-hint");
    hint.hidden = Boolean(this.me);
    if (!this.me) {
      const link = signInLink("登入");
      hint.replaceChildren("想追蹤作者或公司？", ...(link ? [link, "後按「追蹤」，他們的新動態會出現在「追蹤中」。"]
        : ["登入後按「追蹤」，他們的新動態會出現在「追蹤中」。"]));
    }
  }

  async loadFollows() {
    try {
      await this.follows.load();
    } catch (error) {
      if (error.status !== 401) say($("feed-message"), problemText(error));
    }
    this.renderFollowing();
  }

  renderFollowing() {
    const entries = [...this.follows.byKey.values()];
    $("following-summary").textContent = `我追蹤的來源（${entries.length}）`;
    const list = $("following-list");
    // A render (a name learnt from the feed) keeps the focus on the source's button it was on.
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.target : null;
    list.replaceChildren();
    if (entries.length === 0) {
      list.append(element("li", { class: "empty", text: "還沒有追蹤任何來源。" }));
      return;
    }
    for (const source of entries) {
      const name = this.follows.nameOf(source);
      list.append(element("li", { "data-following": Follows.key(source) },
        element("span", { text: name }),
        this.followButton({ ...source, name })));
    }
    if (focused) list.querySelector(`button[data-target="${CSS.escape(focused)}"]`)?.focus();
  }

  async show(kind) {
    this.kind = kind;
    $("tab-subscriptions").setAttribute("aria-pressed", String(kind === "subscriptions"));
    $("tab-global").setAttribute("aria-pressed", String(kind === "global"));
    this.generation += 1;
    this.loading = false;
    this.count = 0;
    this.cursor = null;
    $("more").hidden = true;
    $("empty-subscriptions").hidden = true;
    $("feed").replaceChildren();
    await this.loadMore();
  }

  // There is no category-name API: the filter names its category by the post it was chosen from.
  async filter(category) {
    this.category = category;
    $("category-filter").hidden = !category;
    $("category-filter-source").textContent = category ? `與「${category.title}」同分類` : "";
    await this.show(this.kind);
  }

  async loadMore() {
    if (this.loading) return; // one page at a time; "more" is disabled meanwhile
    const generation = this.generation;
    this.loading = true;
    $("more").disabled = true;
    $("feed").setAttribute("aria-busy", "true");
    say($("feed-message"), "");
    let page;
    try {
      page = await this.repository.feed(this.kind, { cursor: this.cursor, categoryId: this.category && this.category.id });
    } catch (error) {
      // A 401 ended the session: expired() shows the global feed instead.
      if (generation === this.generation && error.status !== 401) say($("feed-message"), problemText(error));
      return;
    } finally {
      if (generation === this.generation) {
        this.loading = false;
        $("more").disabled = false;
        $("feed").removeAttribute("aria-busy");
      }
    }
    if (generation !== this.generation) return; // the tab or filter changed meanwhile
    $("empty-subscriptions").hidden = !(this.kind === "subscriptions" && page.isEmptySubscriptions);
    this.cursor = page.hasMore ? page.nextCursor : null;
    $("more").hidden = !page.hasMore;
    const firstNew = this.count;
    this.count += page.items.length;
    let learnt = false;
    for (const item of page.items) {
      const source = sourceOf(item);
      if (source && this.follows.has(source) && !this.follows.names.has(Follows.key(source))) learnt = true;
      this.follows.learn(source);
      $("feed").append(this.card(item));
    }
    if (learnt) this.renderFollowing();
    if (this.count === 0 && !page.isEmptySubscriptions) {
      $("feed").append(element("li", { class: "empty", text: "目前沒有動態。" }));
    }
    // "More" keeps keyboard users in place: focus moves to the first new post (the button may be gone).
    if (firstNew > 0 && page.items.length > 0) $("feed").children[firstNew]?.querySelector("h3 a")?.focus();
  }

  card(item) {
    const box = signature(item);
    const source = sourceOf(item);
    if (source && this.me && !(source.kind === "Author" && source.id === this.me)) box.append(this.followButton(source));
    const meta = element("div", { class: "signature" },
      item.publishedAt ? timeElement(new Date(item.publishedAt), "發布時間：") : null,
      item.categoryId ? element("button", { type: "button", class: "secondary", text: "只看這個分類",
        "aria-label": `只看這個分類（與「${item.title}」同分類的動態）`, onclick: async () => {
          await this.filter({ id: item.categoryId, title: item.title });
          $("clear-category").focus();
        } }) : null);
    return element("li", { class: "card", "data-post-id": item.id },
      element("h3", {}, element("a", { href: `/feed?post=${encodeURIComponent(item.id)}`, text: item.title })),
      box,
      element("p", { text: item.excerpt }),
      meta);
  }

  followButton(source) {
    const key = Follows.key(source);
    const following = this.follows.has(source);
    const text = following ? "取消追蹤" : "追蹤";
    return element("button", {
      type: "button", class: following ? "secondary" : "", "data-target": key, text,
      "aria-label": `${text}${source.name}`, onclick: (event) => this.toggle(source, event.currentTarget),
    });
  }

  async toggle(source, pressed) {
    const key = Follows.key(source);
    // Where the press came from, read before the request: a render meanwhile (the list loading)
    // may take the pressed button out of the page.
    const inList = Boolean(pressed.closest("#following-list"));
    let following;
    try {
      following = await this.follows.toggle(source);
    } catch (error) {
      if (error.status !== 401) say($("feed-message"), problemText(error));
      return;
    }
    const name = this.follows.nameOf(source);
    say($("feed-message"), following ? `已追蹤${name}。` : `已取消追蹤${name}。`);
    // Every button of the same source shows the new state; focus stays on the pressed one, or
    // (pressed in the followed list, which it may have left) on the list's own button or summary.
    const active = document.activeElement;
    for (const old of document.querySelectorAll(`#feed button[data-target="${CSS.escape(key)}"]`)) {
      const fresh = this.followButton({ ...source, name });
      const focused = old === active || old === pressed;
      old.replaceWith(fresh);
      if (focused) fresh.focus();
    }
    this.renderFollowing();
    if (inList) {
      (document.querySelector(`#following-list button[data-target="${CSS.escape(key)}"]`) || $("following-summary")).focus();
    }
  }
}

// One post, in full: `/feed?post=<id>`.
class PostView {
  constructor(repository, me, postId) {
    this.repository = repository;
    this.me = me;
    this.postId = postId;
  }

  async start() {
    $("feed-panel").hidden = true;
    $("following").hidden = true;
    $("guest-hint").hidden = true;
    const view = $("post-view");
    view.hidden = false;
    onSessionExpired(() => renderSessionBar($("session")));
    let post;
    try {
      post = await this.repository.post(this.postId);
    } catch (error) {
      $("post-title").textContent = "找不到動態";
      say($("post-message"), problemText(error));
      $("post-title").focus();
      return;
    }
    document.title = `${post.title}｜新聞動態`;
    $("post-title").textContent = post.title;
    $("post-meta").replaceChildren(signature(post),
      post.publishedAt ? timeElement(new Date(post.publishedAt), "發布時間：") : "");
    $("post-body").textContent = post.body;
    $("post-title").focus();
  }
}

async function main() {
  adoptTokenFromFragment();
  renderSessionBar($("session"));
  const repository = createNewsRepository();
  const postId = new URLSearchParams(window.location.search).get("post");
  if (postId) await new PostView(repository, memberId(), postId).start();
  else await new FeedReader(repository, memberId()).start();
}

main();
