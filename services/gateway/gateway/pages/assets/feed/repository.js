// News repository: the /feed page reads and writes news only through these calls, over the news
// REST API (camelCase bodies, problem+json errors). Errors are NewsError {status, code, message}.
//
//   feed(kind, {cursor, categoryId}) → {items: FeedItem[], nextCursor, hasMore, isEmptySubscriptions}
//   post(postId)                     → FeedItem & {body}
//   subscriptions()                  → Subscription[] (every page)
//   subscribe(targetKind, targetId)  → Subscription
//   unsubscribe(subscriptionId)      → undefined

import { apiRequest } from "../session.js";

export const FEED_PAGE_LIMIT = 20;

export class NewsError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const response = await apiRequest(method, path, body);
  if (response.status === 204) return null;
  const payload = await response.json().catch(() => null);
  if (!response.ok) {
    throw new NewsError(response.status, payload && payload.code, (payload && payload.detail) || response.statusText);
  }
  return payload;
}

export function createNewsRepository() {
  return {
    async feed(kind, { cursor = null, categoryId = null } = {}) {
      const params = new URLSearchParams({ limit: String(FEED_PAGE_LIMIT) });
      if (cursor) params.set("cursor", cursor);
      if (categoryId) params.set("categoryId", categoryId);
      const body = await call("GET", `/api/v1/feed/${kind === "subscriptions" ? "subscriptions" : "global"}?${params}`);
      return { ...body.page, isEmptySubscriptions: Boolean(body.isEmptySubscriptions) };
    },
    post(postId) {
      return call("GET", `/api/v1/news/posts/${encodeURIComponent(postId)}`);
    },
    async subscriptions() {
      const items = [];
      let cursor = "";
      do {
        const page = await call("GET", `/api/v1/subscriptions?${new URLSearchParams(cursor ? { cursor } : {})}`);
        items.push(...page.items);
        cursor = page.hasMore ? page.nextCursor : "";
      } while (cursor);
      return items;
    },
    subscribe(targetKind, targetId) {
      const body = targetKind === "Author" ? { targetKind, targetUserId: targetId } : { targetKind, targetCompanyId: targetId };
      return call("POST", "/api/v1/subscriptions", body);
    },
    async unsubscribe(subscriptionId) {
      await call("DELETE", `/api/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
    },
  };
}
