// Lists and panels are re-rendered from data; the node a keyboard user was on goes with them. These
// helpers put focus back on the node standing for the same thing (same run, result, pager button or
// action), so Enter on a row or button never drops focus to the page body.

const KEYS = ["runId", "postId", "pager", "action", "viewRunId", "target"];

function selectorFor(node) {
  for (const key of KEYS) {
    const value = node.dataset && node.dataset[key];
    if (value) return `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(value)}"]`;
  }
  return null;
}

function focusable(node) {
  return node && !node.disabled && !node.hidden && node.getClientRects().length > 0;
}

// Runs `render()`; if it detached the focused node inside `container`, focuses its counterpart:
// the same-keyed node, else (a pager button that became disabled) the other pager button, else
// `fallback` (a heading with tabindex="-1").
export function keepFocus(container, render, fallback = null) {
  const active = document.activeElement;
  const inside = active && active !== document.body && container.contains(active);
  const selector = inside ? selectorFor(active) : null;
  render();
  if (!inside || active.isConnected) return;
  let target = selector ? container.querySelector(selector) : null;
  if (!focusable(target) && active.dataset.pager) {
    target = [...container.querySelectorAll("[data-pager]")].find(focusable) || null;
  }
  if (focusable(target)) target.focus();
  else if (fallback) fallback.focus();
}
