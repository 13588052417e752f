"""Text rules every context applies to what callers write, so one input is judged the same way at
the gateway and in each service."""

from __future__ import annotations

import functools
import unicodedata

# Characters that render as nothing beyond the format (Cf) and separator (Z*) categories: the Hangul
# fillers, the blank Braille pattern and the combining grapheme joiner.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


_BLANK_CATEGORIES = frozenset({"Cf", "Zs", "Zl", "Zp"})


def _blank(ch: str) -> bool:
    return ch.isspace() or ch in _INVISIBLE or unicodedata.category(ch) in _BLANK_CATEGORIES


def is_blank(value: str) -> bool:
    """True when a reader would see nothing: whitespace, zero-width and other invisible characters only."""
    return all(_blank(ch) for ch in value)


def has_lone_surrogate(value: str) -> bool:
    """A UTF-16 surrogate outside a pair (what a JSON "\\ud800" escape decodes to) has no UTF-8 form:
    neither protobuf nor the database can carry it, so such text is the caller's mistake."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


@functools.cache
def blank_class() -> str:
    """The characters `is_blank` calls blank, as the inside of a regular-expression class
    (`[^…]` is then one visible character): an OpenAPI pattern states the same rule. BMP characters as
    `\\uXXXX` escapes, which JSON Schema's, Python's and Rust's regular expressions all read; the few
    outside it as themselves."""
    ranges: list[tuple[int, int]] = []
    for point in range(0x110000):
        if 0xD800 <= point <= 0xDFFF or not _blank(chr(point)):
            continue
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))

    def one(point: int) -> str:
        return f"\\u{point:04x}" if point <= 0xFFFF else chr(point)

    return "".join(one(start) if start == end else f"{one(start)}-{one(end)}" for start, end in ranges)
