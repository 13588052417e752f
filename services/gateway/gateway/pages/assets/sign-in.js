// Dev mode only: ask the gateway for a short-lived token for the chosen member, keep it for this
// tab and go back to the page that sent us here.

import { storeToken } from "./session.js";

const input = document.getElementById("member-id");
const message = document.getElementById("sign-in-message");
document.getElementById("new-member").addEventListener("click", () => {
  input.value = crypto.randomUUID();
  input.focus();
});

// Back to the page that sent us (only /feed or /scout of this origin, with its query).
function nextPage() {
  const next = new URLSearchParams(window.location.search).get("next") || "/scout";
  return /^\/(feed|scout)(\?[^#]*)?$/.test(next) ? next : "/scout";
}

document.getElementById("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  let response = null;
  try {
    response = await fetch("/dev/sign-in", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ memberId: input.value.trim() }),
    });
  } catch {
    // The gateway did not answer; the message below says to try again.
  }
  if (!response?.ok) {
    message.textContent = response?.status === 400 ? "會員 ID 必須是 UUID。" : "無法登入，請稍後再試。";
    input.focus();
    return;
  }
  storeToken((await response.json()).token);
  window.location.assign(nextPage());
});

// The form submits only through this script (the page's own submit would reload it).
document.getElementById("sign-in").disabled = false;
