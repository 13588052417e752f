"""Latin spellings of a Chinese name, as English posts write them: Hanyu Pinyin (Donggang,
Bailingguo) and the Wade–Giles style of Taiwan's passports and English press (Peng Chi-ming,
Tzu Chi, Cheng Tsung-lung), from `pypinyin`. A person's name also goes given name first
(Chi-ming Peng).

Only short names are spelled: a longer one is a title or a phrase, which English translates
rather than spells, and a spelling of fewer than MIN_LETTERS letters (ci ji) names too many things.
A place named by a spelled name and a kind of place is written in English with the kind
translated (Longshan Temple for 龍山寺, Shilin Night Market for 士林夜市).

The other way round, a foreign name written in Chinese characters by their sound (哈拉瑞 for
Harari, 拜登 for Biden) is recognized by its consonants (`transliterates`).
"""

from __future__ import annotations

from functools import lru_cache

from pypinyin import Style, lazy_pinyin

from scout.pipeline import text

MIN_CHARS, MAX_CHARS = 2, 4
MIN_LETTERS = 6
# Kinds of place, folded, as English names them after the spelled name.
_PLACE_KINDS = {
    "寺": ("temple",), "庙": ("temple",), "宫": ("temple",), "夜市": ("night market",), "老街": ("old street",),
    "博物馆": ("museum",), "美术馆": ("museum", "art museum"), "动物园": ("zoo",), "国家公园": ("national park",),
    "公园": ("park",), "大学": ("university",), "车站": ("station",), "温泉": ("hot spring",),
    "步道": ("trail",), "瀑布": ("falls", "waterfall"), "机场": ("airport",), "医院": ("hospital",),
}


@lru_cache(maxsize=4096)
def spellings(name: str, person: bool = False) -> tuple[str, ...]:
    """The Latin spellings of a name written in Chinese characters only (folded or not), each
    syllable a word: the gate's match takes them joined or hyphenated too."""
    if not MIN_CHARS <= len(name) <= MAX_CHARS:
        return ()
    forms: list[str] = []
    for spelled in syllables(name):
        parts = spelled.split(" ")
        orders = [parts, [*parts[1:], parts[0]]] if person else [parts]
        forms += [" ".join(order) for order in orders]
    return tuple(f for f in dict.fromkeys(forms) if len(f.replace(" ", "")) >= MIN_LETTERS)


def syllables(name: str) -> list[str]:
    """A name of Chinese characters in Pinyin and in Wade–Giles, its syllables spaced (許: xu, hsu);
    none when a character has no reading."""
    if not all(text.has_cjk(c) for c in name):
        return []
    forms = []
    for style in (Style.NORMAL, Style.WADEGILES):
        spelled = [s.replace("'", "").replace("ü", "u").replace("v", "u") for s in lazy_pinyin(name, style=style)]
        if len(spelled) == len(name) and all(s.isascii() and s.isalpha() for s in spelled):
            forms.append(" ".join(spelled))
    return list(dict.fromkeys(forms))


def place_names(name: str) -> tuple[str, ...]:
    """A place's English names: its spelled name before its kind translated (龍山寺: long shan
    temple, lung shan temple), for a name of two or three characters before a kind of place."""
    # The longest kind first: 太魯閣國家公園 is a national park, not a park.
    for kind in sorted(_PLACE_KINDS, key=len, reverse=True):
        stem = name[:-len(kind)]
        if name.endswith(kind) and MIN_CHARS <= len(stem) <= 3:
            return tuple(f"{spelled} {head}" for spelled in syllables(stem) for head in _PLACE_KINDS[kind])
    return ()


# Consonants by the sound classes transliteration keeps apart: voicing and l/r are not kept.
_LATIN_SOUNDS = {"b": "b", "p": "b", "d": "d", "t": "d", "g": "g", "k": "g", "c": "g", "q": "g", "h": "h",
                 "s": "s", "z": "s", "x": "s", "j": "s", "l": "r", "r": "r", "m": "m", "n": "n", "f": "f", "v": "f"}
_LATIN_DIGRAPHS = {"th": "d", "ph": "f", "sh": "s", "ch": "s"}
_PINYIN_SOUNDS = {"b": "b", "p": "b", "d": "d", "t": "d", "g": "g", "k": "g", "h": "h", "j": "s", "q": "s", "x": "s",
                  "zh": "s", "ch": "s", "sh": "s", "z": "s", "c": "s", "s": "s", "l": "r", "r": "r", "m": "m",
                  "n": "n", "f": "f"}
# Fewer consonants than this match too many names by chance.
MIN_SOUNDS = 3


def _latin_sounds(word: str) -> str:
    sounds: list[str] = []
    previous = ""
    i = 0
    while i < len(word):
        sound = _LATIN_DIGRAPHS.get(word[i:i + 2])
        step = 2 if sound else 1
        sound = sound or _LATIN_SOUNDS.get(word[i], "")
        # A doubled consonant is one sound (Harrison); a vowel between two keeps both (Harari).
        if sound and sound != previous:
            sounds.append(sound)
        previous = sound
        i += step
    # An English -er or -s at the end is seldom written in characters (Potter: 波特).
    if len(sounds) > MIN_SOUNDS and word.endswith(("r", "s")):
        sounds.pop()
    return "".join(sounds)


def _pinyin_sounds(name: str) -> str:
    sounds = []
    for initial, final in zip(lazy_pinyin(name, style=Style.INITIALS, strict=False),
                              lazy_pinyin(name, style=Style.FINALS, strict=False)):
        sounds.append(_PINYIN_SOUNDS.get(initial, ""))
        if final.endswith(("n", "ng")):
            sounds.append("n")
    return "".join(sounds)


@lru_cache(maxsize=4096)
def transliterates(name: str, latin: str) -> bool:
    """Whether a name of two to four Chinese characters writes a Latin word by its sound: the same
    consonants, at least MIN_SOUNDS of them (哈拉瑞 and 赫拉利 for Harari, 拜登 for Biden)."""
    if not MIN_CHARS <= len(name) <= MAX_CHARS or not all(text.has_cjk(c) for c in name) \
            or not latin.isascii() or not latin.isalpha():
        return False
    sounds = _latin_sounds(latin.lower())
    return len(sounds) >= MIN_SOUNDS and sounds == _pinyin_sounds(name)
