"""One folded form for comparing what people write, whatever way they wrote it: NFKC (full-width
letters, digits and punctuation to their narrow forms, half-width kana to full), lower case, accents
off Latin letters (café = cafe), and Traditional characters to Simplified with OpenCC (臺灣 = 台湾; 姊 = 姐), so
the same words in either script compare equal. What is compared is never shown: the folded form is
for matching only."""

from __future__ import annotations

import re
import unicodedata

import opencc

_TO_SIMPLIFIED = opencc.OpenCC("t2s.json")
# Characters Taiwan writes for one word in two ways, which OpenCC keeps apart: 小高姊 is 小高姐, 妳 is 你.
_VARIANTS = str.maketrans({"姊": "姐", "妳": "你"})
# Combining accents on a Latin letter, once NFD has taken them apart.
_LATIN_ACCENT = re.compile(r"(?<=[a-z])[\u0300-\u036f]+")


def fold_letters(text: str) -> str:
    """Width, case and Latin accents folded; the script of Chinese characters left as written."""
    folded = unicodedata.normalize("NFKC", text).lower()
    if folded.isascii():
        return folded
    return unicodedata.normalize("NFC", _LATIN_ACCENT.sub("", unicodedata.normalize("NFD", folded)))


def simplified(text: str) -> str:
    """Chinese characters in their Simplified form (戴資穎 → 戴资颖); everything else as it is."""
    return _TO_SIMPLIFIED.convert(text).translate(_VARIANTS)


def fold(text: str) -> str:
    """The whole folded form: `fold_letters`, then Simplified, every run of white space one space."""
    return " ".join(simplified(fold_letters(text)).split())
