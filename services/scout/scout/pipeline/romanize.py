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

import json
import os
import threading
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import marisa_trie

# pypinyin reads its phrase table (which reading a character takes in a word: 长 of 市长 is zhang)
# into Python lists at import, some 45 MiB. Told not to (its own switch), it is pointed at the same
# table mapped from tries, in `_mapped_phrases`; nor does it copy its character table, never changed.
os.environ.setdefault("PYPINYIN_NO_PHRASES", "1")
os.environ.setdefault("PYPINYIN_NO_DICT_COPY", "1")

import pypinyin  # noqa: E402
from pypinyin import Style, converter, lazy_pinyin  # noqa: E402
from pypinyin.seg import mmseg, simpleseg  # noqa: E402

from scout.pipeline import text  # noqa: E402
from scout.pipeline.mapped import mapped  # noqa: E402

MIN_CHARS, MAX_CHARS = 2, 4
MIN_LETTERS = 6
# Kinds of place, folded, as English names them after the spelled name.
_PLACE_KINDS = {
    "寺": ("temple",), "庙": ("temple",), "宫": ("temple",), "夜市": ("night market",), "老街": ("old street",),
    "博物馆": ("museum",), "美术馆": ("museum", "art museum"), "动物园": ("zoo",), "国家公园": ("national park",),
    "公园": ("park",), "大学": ("university",), "车站": ("station",), "温泉": ("hot spring",),
    "步道": ("trail",), "瀑布": ("falls", "waterfall"), "机场": ("airport",), "医院": ("hospital",),
}


_PHRASES_SOURCE = Path(pypinyin.__file__).with_name("phrases_dict.json")


def _build_phrases(_: Path) -> tuple[marisa_trie.BytesTrie, dict[str, Any]]:
    """pypinyin's phrase table: each phrase → its readings (JSON, as pypinyin holds them)."""
    from pypinyin.phrases_dict import phrases_dict

    return marisa_trie.BytesTrie((p, json.dumps(readings).encode()) for p, readings in phrases_dict.items()), {}


def _build_prefixes(_: Path) -> tuple[marisa_trie.Trie, dict[str, Any]]:
    """Every beginning of a phrase of the table, as pypinyin's segmenter trains its prefix set."""
    from pypinyin.phrases_dict import phrases_dict

    return marisa_trie.Trie({p[:end] for p in phrases_dict for end in range(1, len(p) + 1)}), {}


class _Phrases:
    """The phrase table as pypinyin's segmenter and converter read it: `in`, `[]` and truth."""

    def __init__(self, trie: marisa_trie.BytesTrie) -> None:
        self._trie = trie

    def __contains__(self, phrase: str) -> bool:
        return phrase in self._trie

    def __getitem__(self, phrase: str) -> list[list[str]]:
        return json.loads(self._trie[phrase][0])

    def __len__(self) -> int:
        return len(self._trie)


_PHRASES_LOCK = threading.Lock()


@cache
def _mapped_phrases() -> None:
    """Points pypinyin's segmenter and converter, which read the table through these module names,
    at the mapped one; its segmenter at the mapped prefixes."""
    with _PHRASES_LOCK:
        phrases = _Phrases(mapped("pinyin-phrases", marisa_trie.BytesTrie, _build_phrases, _PHRASES_SOURCE)[0])
        prefixes = mapped("pinyin-prefixes", marisa_trie.Trie, _build_prefixes, _PHRASES_SOURCE)[0]
        # The stubs leave the module names out; pypinyin's code reads them.
        converter.PHRASES_DICT = phrases  # type: ignore[attr-defined]
        simpleseg.PHRASES_DICT = phrases  # type: ignore[attr-defined]
        mmseg.PHRASES_DICT = phrases  # type: ignore[attr-defined]
        mmseg.seg = mmseg.Seg(prefixes, no_non_phrases=True)


def load() -> None:
    """Map the phrase table now (building it first, seconds of work, when the cache has none)
    rather than on the first brief."""
    _mapped_phrases()


def _pinyin(name: str, style: Style, strict: bool = True) -> list[str]:
    _mapped_phrases()
    return lazy_pinyin(name, style=style, strict=strict)


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
        spelled = [s.replace("'", "").replace("ü", "u").replace("v", "u") for s in _pinyin(name, style)]
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


@lru_cache(maxsize=4096)
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


@lru_cache(maxsize=4096)
def _pinyin_sounds(name: str) -> str:
    sounds = []
    for initial, final in zip(_pinyin(name, Style.INITIALS, strict=False), _pinyin(name, Style.FINALS, strict=False)):
        sounds.append(_PINYIN_SOUNDS.get(initial, ""))
        if final.endswith(("n", "ng")):
            sounds.append("n")
    return "".join(sounds)


@lru_cache(maxsize=4096)
def transliterates(name: str, latin: str) -> bool:
    """Whether a name of two to four Chinese characters writes a Latin word by its sound: the same
    consonants, at least MIN_SOUNDS of them (哈拉瑞 and 赫拉利 for Harari, 拜登 for Biden)."""
    # The Latin word's sounds first: most words have too few to compare, and a name's reading costs more.
    sounds = _latin_sounds(latin.lower()) if latin.isascii() and latin.isalpha() else ""
    if len(sounds) < MIN_SOUNDS or not MIN_CHARS <= len(name) <= MAX_CHARS or not all(text.has_cjk(c) for c in name):
        return False
    return sounds == _pinyin_sounds(name)
