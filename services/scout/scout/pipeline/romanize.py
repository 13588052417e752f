"""Latin spellings of a Chinese name, as English posts write them: Hanyu Pinyin (Donggang,
Bailingguo) and the Wade–Giles style of Taiwan's passports and English press (Peng Chi-ming,
Tzu Chi, Cheng Tsung-lung), from `pypinyin`. A person's name also goes given name first
(Chi-ming Peng).

Only short names are spelled: a longer one is a title or a phrase, which English translates
rather than spells, and a spelling of fewer than MIN_LETTERS letters (ci ji) names too many things.
"""

from __future__ import annotations

from functools import lru_cache

from pypinyin import Style, lazy_pinyin

from scout.pipeline import text

MIN_CHARS, MAX_CHARS = 2, 4
MIN_LETTERS = 6


@lru_cache(maxsize=4096)
def spellings(name: str, person: bool = False) -> tuple[str, ...]:
    """The Latin spellings of a name written in Chinese characters only (folded or not), each
    syllable a word: the gate's match takes them joined or hyphenated too."""
    if not MIN_CHARS <= len(name) <= MAX_CHARS or not all(text.has_cjk(c) for c in name):
        return ()
    forms: list[str] = []
    for style in (Style.NORMAL, Style.WADEGILES):
        syllables = [s.replace("'", "").replace("ü", "u").replace("v", "u") for s in lazy_pinyin(name, style=style)]
        if len(syllables) != len(name) or not all(s.isascii() and s.isalpha() for s in syllables):
            continue
        orders = [syllables, [*syllables[1:], syllables[0]]] if person else [syllables]
        forms += [" ".join(order) for order in orders]
    return tuple(f for f in dict.fromkeys(forms) if len(f.replace(" ", "")) >= MIN_LETTERS)
