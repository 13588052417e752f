"""Chinese text handling shared by the signature and the gate.

Everything is compared in one folded form: the platform's (`feeds_runtime.folding`: NFKC, lower
case, Latin accents off, OpenCC's Traditional→Simplified mapping, which also merges variant
characters 臺/台, 裡/裏/里) with mainland words first turned into Taiwan's and spaces collapsed.
jieba's dictionary is Simplified, so the folded form is also what segments best. Labels shown to
people are mapped back with OpenCC's Taiwan standard.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata

import jieba
import jieba.posseg
import opencc

from feeds_runtime import folding

jieba.setLogLevel(logging.WARNING)

# Mainland words to Taiwan's first (软件 → 軟體, 视频 → 影片), so a post in either gets one verdict.
_TO_TAIWAN_WORDS = opencc.OpenCC("s2twp.json")
_TO_DISPLAY = opencc.OpenCC("s2tw.json")

_SPACES = re.compile(r"\s+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_ASCII_WORD = re.compile(r"^[a-z0-9][a-z0-9.+#&'_-]*$")

# jieba's base dictionary is loaded once; each signature gets its own tokenizer sharing nothing
# mutable with it, so the words one run adds never change how another run segments.
_BASE = jieba.Tokenizer()
_BASE_LOCK = threading.Lock()
# Part-of-speech tags of the base dictionary's words, read once with it.
_TAGS: dict[str, str] = jieba.posseg.dt.word_tag_tab
# Frequency given to a signature's words: high enough that jieba keeps them whole.
_SIGNATURE_WORD_FREQ = 50_000


def _base() -> jieba.Tokenizer:
    with _BASE_LOCK:
        if not _BASE.initialized:
            _BASE.initialize()
    return _BASE


def load_dictionary() -> None:
    """Load jieba's base dictionary now (seconds of work) rather than on the first brief."""
    _base()


def dictionary_frequency(word: str) -> int:
    """How common a word is in jieba's base dictionary; 0 when it is not a dictionary word."""
    return _base().FREQ.get(word, 0)


def base_cut(folded: str) -> list[str]:
    """Dictionary-only segmentation (no HMM guesses), for taking an intent apart."""
    return _base().lcut(folded, HMM=False)


def tokenizer_with(words: list[str], extra: dict[str, int] | None = None) -> jieba.Tokenizer:
    """A tokenizer knowing the base dictionary plus `words` (a signature's entities and concepts),
    kept whole, and `extra` words at the frequencies given. Latin words are left out: jieba keeps a
    run of letters whole unless a word of its dictionary is inside it (to of toyota, or of gogoro)."""
    base = _base()
    tokenizer = jieba.Tokenizer()
    tokenizer.FREQ = dict(base.FREQ)
    tokenizer.total = base.total
    tokenizer.initialized = True
    for word, freq in (extra or {}).items():
        if len(word) >= 2 and not word.isascii() and word not in words and tokenizer.FREQ.get(word, 0) < freq:
            tokenizer.add_word(word, freq=freq)
    for word in words:
        if len(word) >= 2 and not word.isascii() and tokenizer.FREQ.get(word, 0) < _SIGNATURE_WORD_FREQ:
            tokenizer.add_word(word, freq=_SIGNATURE_WORD_FREQ)
    return tokenizer


def fold(text: str) -> str:
    taiwan_words = _TO_TAIWAN_WORDS.convert(folding.fold_letters(text or ""))
    return _SPACES.sub(" ", folding.simplified(taiwan_words)).strip()


def original_spelling(folded_word: str, sources: list[str], *, keep_case: bool = False) -> str:
    """How the member wrote a folded word (臺南 stays 臺南, 台南 stays 台南; Jolin with
    `keep_case`, else jolin), else its Taiwan form."""
    for source in sources:
        cased = _SPACES.sub(" ", unicodedata.normalize("NFKC", source)).strip()
        written = cased.lower()
        folded = folding.simplified(written)
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
    return _TAGS.get(word)
