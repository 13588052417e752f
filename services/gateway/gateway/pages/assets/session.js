// The member's session in this tab: a JWT kept in sessionStorage and sent as a Bearer token.
// Production hands the token over in the URL fragment (`#token=<jwt>`, never sent to a server);
// the dev sign-in form stores it directly. A token past its `exp`, or one the gateway refuses
// (401), ends the session: the pages then say so and offer the way to sign in again.

import { element } from "./format.js";

const TOKEN_KEY = "feeds.memberToken";
const EXPIRED_KEY = "feeds.sessionExpired";
// A token this close to its expiry is treated as expired: a request would race the clock.
const EXPIRY_MARGIN_MS = 5_000;
const listeners = new Set();

function claims(token) {
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))));
  } catch {
    return null;
  }
}

export function adoptTokenFromFragment() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get("token");
  if (token) {
    storeToken(token);
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
}

export function storeToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.removeItem(EXPIRED_KEY);
}

// Ends the session because it expired (or was refused): listeners re-render as signed out.
export function expireSession() {
  if (!sessionStorage.getItem(TOKEN_KEY)) return;
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.setItem(EXPIRED_KEY, "1");
  for (const listener of listeners) listener();
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(EXPIRED_KEY);
}

export function sessionExpired() {
  return sessionStorage.getItem(EXPIRED_KEY) === "1";
}

export function onSessionExpired(listener) {
  listeners.add(listener);
}

// The token, while it is still valid by its own `exp`; an expired one ends the session.
export function memberToken() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return null;
  const exp = claims(token)?.exp;
  if (typeof exp === "number" && exp * 1000 - EXPIRY_MARGIN_MS <= Date.now()) {
    expireSession();
    return null;
  }
  return token;
}

// The member id (JWT `sub`), read for display only: the server decides who the caller is.
export function memberId() {
  const token = memberToken();
  return token ? claims(token)?.sub || null : null;
}

// One request of a page. A 401 to a request that carried a token ends the session.
export async function apiRequest(method, path, body) {
  const headers = { Accept: "application/json" };
  const token = memberToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 401 && token) expireSession();
  return response;
}

// Where to sign in (the dev sign-in form, or the identity service the gateway names), or null.
export function signInUrl() {
  const url = document.querySelector('meta[name="feeds-sign-in"]')?.content;
  if (!url) return null;
  const target = new URL(url, window.location.origin);
  target.searchParams.set("next", window.location.pathname + window.location.search);
  return target.origin === window.location.origin ? target.pathname + target.search : target.href;
}

export function signInLink(text) {
  const url = signInUrl();
  return url ? element("a", { href: url, class: "sign-in", text }) : null;
}

// Renders the header's session area: who is signed in and the way out, or the way in (again).
export function renderSessionBar(container, { onSignOut } = {}) {
  container.replaceChildren();
  const id = memberId();
  if (id) {
    const out = element("button", { type: "button", class: "secondary", text: "登出", onclick: () => {
      signOut();
      if (onSignOut) onSignOut();
      else window.location.reload();
    } });
    container.append(element("span", { class: "session-who", title: id, text: `已登入：${id.slice(0, 8)}…` }), out);
    return;
  }
  if (sessionExpired()) container.append(element("span", { class: "session-expired", text: "登入已過期" }));
  const link = signInLink(sessionExpired() ? "重新登入" : "登入");
  container.append(link || element("span", { text: "未登入" }));
}
