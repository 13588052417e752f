"""Text rules every context applies to what callers write, so one input is judged the same way at
the gateway and in each service."""

from __future__ import annotations

import unicodedata

# Characters that render as nothing beyond the format (Cf) and separator (Z*) categories: the Hangul
# fillers, the blank Braille pattern and the combining grapheme joiner.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def is_blank(value: str) -> bool:
    """True when a reader would see nothing: whitespace, zero-width and other invisible characters only."""
    return all(
        ch.isspace() or ch in _INVISIBLE or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp") for ch in value
    )


def has_lone_surrogate(value: str) -> bool:
    """A UTF-16 surrogate outside a pair (what a JSON "\\ud800" escape decodes to) has no UTF-8 form:
    neither protobuf nor the database can carry it, so such text is the caller's mistake."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
