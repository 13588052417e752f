"""The member's brief, validated and normalized once at scan time; the job payload keeps it as JSON."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass

from feeds_runtime.text import is_blank
from scout import codes

MODES = ("topic", "activity", "brand")
DEFAULT_TARGET, MIN_TARGET, MAX_TARGET = 20, 1, 40
MAX_RECENT_DAYS = 365
MAX_TERMS, MAX_TERM_CHARS, MAX_INTENT_CHARS, MAX_KEY_CHARS, MAX_LABEL_CHARS, MAX_BRAND_CHARS = 10, 100, 500, 200, 200, 100


@dataclass(frozen=True)
class Brief:
    theme_key: str
    theme_label: str
    intent: str
    mode: str
    brand_id: str | None
    terms: tuple[str, ...]
    target_count: int
    # A window of the last N days the sources search in (newest first); None: any age.
    recent_days: int | None = None

    def to_json(self) -> dict:
        data = asdict(self)
        data["terms"] = list(self.terms)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Brief:
        return cls(**{**data, "terms": tuple(data["terms"])})


def _clean(value: str) -> str:
    """NFC, trimmed; text a reader would not see (only spaces or zero-width characters) is empty."""
    value = unicodedata.normalize("NFC", value).strip()
    return "" if is_blank(value) else value


def _has_control(value: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" for ch in value)


# What the API documents as trimmable whitespace (JSON Schema's \s). Python's strip() also takes
# \x1c-\x1f and \x85, control characters the documented text refuses wherever they stand.
_DOCUMENTED_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009" \
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def _refused_as_sent(value: str) -> bool:
    """A control character in the text as sent, beyond the whitespace around it."""
    return _has_control(value.strip(_DOCUMENTED_SPACE))


def theme_key_of(intent: str) -> str:
    """A stable key for a topic written the same way: width-folded, lower case, dashes for spaces."""
    folded = unicodedata.normalize("NFKC", intent).lower()
    return re.sub(r"\s+", "-", folded.strip())[:MAX_KEY_CHARS]


def validate_theme_key(raw: str) -> str:
    key = _clean(raw) if len(raw) <= MAX_KEY_CHARS else ""
    if not key or len(key) > MAX_KEY_CHARS or _has_control(key):
        raise codes.invalid_brief(f"theme_key must be 1..{MAX_KEY_CHARS} printable characters")
    return key


def validate_intent(raw: str) -> str:
    # As sent (what the API documents: a control character at either end is no whitespace to
    # trim), and the length again once cleaned.
    if len(raw) > MAX_INTENT_CHARS or _refused_as_sent(raw):
        raise codes.invalid_brief(f"intent must be at most {MAX_INTENT_CHARS} printable characters")
    intent = _clean(raw)
    if not intent:
        raise codes.invalid_brief("intent is required")
    if len(intent) > MAX_INTENT_CHARS or _has_control(intent):
        raise codes.invalid_brief(f"intent must be at most {MAX_INTENT_CHARS} printable characters")
    return intent


def normalize_brief(*, theme_key: str, theme_label: str, intent: str, mode: str, brand_id: str,
                    terms: list[str], target_count: int | None, recent_days: int | None = None) -> Brief:
    intent = validate_intent(intent)
    # As for the intent: lengths and the count of terms as sent, before trimming and merging repeats.
    for name, value, most in (("theme_key", theme_key, MAX_KEY_CHARS), ("theme_label", theme_label, MAX_LABEL_CHARS),
                              ("brand_id", brand_id, MAX_BRAND_CHARS),
                              *(("each term", term, MAX_TERM_CHARS) for term in terms)):
        if len(value) > most or _refused_as_sent(value):
            raise codes.invalid_brief(f"{name} must be at most {most} printable characters")
    if len(terms) > MAX_TERMS:
        raise codes.invalid_brief(f"between 1 and {MAX_TERMS} approved terms are required")
    cleaned_terms: list[str] = []
    for term in terms:
        term = _clean(term)
        if not term or len(term) > MAX_TERM_CHARS or _has_control(term):
            raise codes.invalid_brief(f"each term must be 1..{MAX_TERM_CHARS} printable characters")
        if term not in cleaned_terms:
            cleaned_terms.append(term)
    if not 1 <= len(cleaned_terms) <= MAX_TERMS:
        raise codes.invalid_brief(f"between 1 and {MAX_TERMS} approved terms are required")
    mode = _clean(mode) or "topic"
    if mode not in MODES:
        raise codes.invalid_brief(f"mode must be one of {', '.join(MODES)}")
    brand = _clean(brand_id) or None
    if brand is not None and (len(brand) > MAX_BRAND_CHARS or _has_control(brand)):
        raise codes.invalid_brief(f"brand_id must be at most {MAX_BRAND_CHARS} printable characters")
    if mode == "brand" and brand is None:
        raise codes.invalid_brief("brand mode needs a brand_id")
    if target_count is None:  # omitted: the default; 0 is a value, below the minimum
        target_count = DEFAULT_TARGET
    if not MIN_TARGET <= target_count <= MAX_TARGET:
        raise codes.invalid_target_count(f"target_count must be between {MIN_TARGET} and {MAX_TARGET}")
    if recent_days is not None and not 1 <= recent_days <= MAX_RECENT_DAYS:
        raise codes.invalid_brief(f"recent_days must be between 1 and {MAX_RECENT_DAYS}")
    key = validate_theme_key(theme_key) if _clean(theme_key) else theme_key_of(intent)
    # A label not given is the intent, as long as a label may be: a long request (up to
    # MAX_INTENT_CHARS) is a valid brief though no label could hold it whole.
    label = _clean(theme_label) or intent[:MAX_LABEL_CHARS].rstrip()
    if len(label) > MAX_LABEL_CHARS or _has_control(label):
        raise codes.invalid_brief(f"theme_label must be at most {MAX_LABEL_CHARS} printable characters")
    return Brief(theme_key=key, theme_label=label, intent=intent, mode=mode, brand_id=brand,
                 terms=tuple(cleaned_terms), target_count=target_count, recent_days=recent_days)
