// The brief of a scan: the service's limits (services/scout/scout/brief.py), checked the same way
// by the scan form and by the mock repository.

import { RepositoryError } from "./errors.js";

export const MAX_INTENT_CHARS = 500;
export const MAX_TERMS = 10;
export const MAX_TERM_CHARS = 100;
export const MIN_TARGET = 1;
export const MAX_TARGET = 40;
export const DEFAULT_TARGET = 20;
const MODES = ["topic", "activity", "brand"];

const hasControl = (value) => /[\u0000-\u001f\u007f-\u009f]/.test(value);

// The brief as the service normalizes it, or a RepositoryError(400) with the service's code.
export function validateBrief(brief) {
  const refuse = (code, message) => new RepositoryError(400, code, message);
  const intent = String(brief.intent ?? "").normalize("NFC").trim();
  if (!intent) throw refuse("invalid_brief", "intent is required");
  if (intent.length > MAX_INTENT_CHARS || hasControl(intent)) {
    throw refuse("invalid_brief", `intent must be at most ${MAX_INTENT_CHARS} printable characters`);
  }
  const terms = [];
  for (const raw of brief.terms ?? []) {
    const term = String(raw).normalize("NFC").trim();
    if (!term || term.length > MAX_TERM_CHARS || hasControl(term)) {
      throw refuse("invalid_brief", `each term must be 1..${MAX_TERM_CHARS} printable characters`);
    }
    if (!terms.includes(term)) terms.push(term);
  }
  if (terms.length < 1 || terms.length > MAX_TERMS) {
    throw refuse("invalid_brief", `between 1 and ${MAX_TERMS} approved terms are required`);
  }
  const mode = String(brief.mode ?? "").trim() || "topic";
  if (!MODES.includes(mode)) throw refuse("invalid_brief", `mode must be one of ${MODES.join(", ")}`);
  if (mode === "brand" && !String(brief.brand_id ?? "").trim()) throw refuse("invalid_brief", "brand mode needs a brand_id");
  const target = brief.target_count ?? DEFAULT_TARGET;
  if (!Number.isInteger(target) || target < MIN_TARGET || target > MAX_TARGET) {
    throw refuse("invalid_target_count", `target_count must be between ${MIN_TARGET} and ${MAX_TARGET}`);
  }
  return { ...brief, intent, terms, mode, target_count: target };
}

// The mock repository's proposed terms: the intent split on separators, the whole intent first
// (the service proposes the topic's core concepts and their other names instead).
export function naiveTerms(intent) {
  const whole = intent.trim();
  if (!whole) return [];
  const parts = whole.split(/[\s,，、／/；;｜|]+/).map((part) => part.trim()).filter((part) => part.length > 1);
  return [...new Set([whole, ...parts])].slice(0, 5);
}
