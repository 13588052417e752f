// The member's session in this tab: a JWT kept in sessionStorage and sent as a Bearer token.
// Production hands the token over in the URL fragment (`#token=<jwt>`, never sent to a server);
// dev mode's sign-in form stores it directly.

const TOKEN_KEY = "feeds.memberToken";

export function adoptTokenFromFragment() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const token = fragment.get("token");
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
}

export function memberToken() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storeToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
}

// The member id (JWT `sub`), read for display only: the server decides who the caller is.
export function memberId() {
  const token = memberToken();
  if (!token) return null;
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(payload)).sub || null;
  } catch {
    return null;
  }
}

export async function apiRequest(method, path, body) {
  const headers = { Accept: "application/json" };
  const token = memberToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

// Renders the header's session area: who is signed in, and the way in or out.
export function renderSessionBar(container, { onSignOut } = {}) {
  container.replaceChildren();
  const id = memberId();
  const signInUrl = document.querySelector('meta[name="feeds-dev-sign-in"]')?.content;
  if (id) {
    const who = document.createElement("span");
    who.className = "session-who";
    who.textContent = `已登入：${id.slice(0, 8)}…`;
    who.title = id;
    const out = document.createElement("button");
    out.type = "button";
    out.className = "secondary";
    out.textContent = "登出";
    out.addEventListener("click", () => {
      signOut();
      if (onSignOut) onSignOut();
      else window.location.reload();
    });
    container.append(who, out);
  } else if (signInUrl) {
    const link = document.createElement("a");
    link.href = `${signInUrl}?next=${encodeURIComponent(window.location.pathname)}`;
    link.textContent = "登入（開發模式）";
    container.append(link);
  } else {
    const note = document.createElement("span");
    note.textContent = "未登入";
    container.append(note);
  }
}
