"""The lexicons of what the words of a brief also go by, one thing per line, matched on folded text
(a Simplified or full-width spelling finds the same entry):

* `aliases.txt`, the usual other names of things people scout for (a nickname, an English name, a
  short form): proposed as search terms, and read by the gate as the same name;
* `synonyms.txt`, the other words for a common concept (職缺 / 徵才 / 招募, 二手 / 中古) and, on a
  line `concept > kind | kind`, the kinds of it a post may name instead (聯電 for 半導體): read by
  the gate only, one way: a post about 聯電 is about 半導體, not the other way round;
* `places.txt` and `parts.txt`, read with the synonyms, one way: the places inside a city, county
  or destination (a post about 左營 or 礁溪 is about 高雄 or 宜蘭), and the characters, members
  and players of a work, group or team (炭治郎 for 鬼滅之刃)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import marisa_trie

from scout.pipeline import glosses, text
from scout.pipeline.mapped import Built, mapped

LEXICON = Path(__file__).with_name("aliases.txt")
SYNONYMS = Path(__file__).with_name("synonyms.txt")
# Read with the synonyms, as `whole > part` lines: the places inside each city, county or
# destination, and the characters, members and players of works, groups and teams.
PLACES = Path(__file__).with_name("places.txt")
PARTS = Path(__file__).with_name("parts.txt")


class AliasLexicon:
    """Names of one thing, held in a trie of each folded name → its line's names as written
    (memory-mapped from the cache for the lexicon files: every scout process shares its pages), and
    the kinds of each concept."""

    def __init__(self, names: marisa_trie.BytesTrie, kinds: dict[str, list[str]]) -> None:
        self._names = names
        # A folded concept → the kinds of it, as written, and folded for matching.
        self._kinds = {concept: tuple(written) for concept, written in kinds.items()}
        self._folded_kinds = {concept: frozenset(map(text.fold, written)) for concept, written in self._kinds.items()}

    @classmethod
    def parse(cls, source: str) -> AliasLexicon:
        """A lexicon read from its lines, built in this process (a small one: a test's)."""
        return cls(*_read(source))

    def names_in(self, folded: str) -> list[str]:
        """Names of the lexicon written in a folded phrase, longest first, then in the order written."""
        found: dict[str, int] = {}
        for start in range(len(folded)):
            for name in self._names.prefixes(folded[start:]):
                found.setdefault(name, start)
        return sorted((name for name in found if _whole(name, folded)), key=lambda name: (-len(name), found[name]))

    def _entry(self, folded_name: str) -> bytes | None:
        values = self._names.get(folded_name)
        return values[0] if values else None

    def others(self, folded_name: str) -> tuple[str, ...]:
        """The other names of the thing a folded name names, as the lexicon writes them."""
        entry = self._entry(folded_name)
        names = entry.decode().split(_SEPARATOR) if entry else ()
        return tuple(n for n in names if text.fold(n) != folded_name)

    def same(self, folded_a: str, folded_b: str) -> bool:
        """Whether two folded names are names of one thing."""
        entry = self._entry(folded_a)
        return entry is not None and entry == self._entry(folded_b)

    def with_names(self, lines: str) -> AliasLexicon:
        """This lexicon with a request's own names (`name | other name` lines) read first."""
        return _WithOwnNames(AliasLexicon.parse(lines), self) if lines.strip() else self

    def kinds(self, folded_concept: str) -> tuple[str, ...]:
        """What a post may name instead of a folded concept, as the lexicon writes them."""
        return self._kinds.get(folded_concept, ())

    def is_kind(self, folded_word: str, folded_concept: str) -> bool:
        """Whether a folded word names a kind of a folded concept (特斯拉 of 電動車)."""
        return folded_word in self._folded_kinds.get(folded_concept, ())


class _WithOwnNames(AliasLexicon):
    """A lexicon with a request's own names before the maintained ones."""

    def __init__(self, own: AliasLexicon, base: AliasLexicon) -> None:
        self._own, self._base = own, base
        self._kinds, self._folded_kinds = base._kinds, base._folded_kinds

    def names_in(self, folded: str) -> list[str]:
        found = list(dict.fromkeys([*self._own.names_in(folded), *self._base.names_in(folded)]))
        return sorted(found, key=lambda name: (-len(name), folded.find(name)))

    def _entry(self, folded_name: str) -> bytes | None:
        return self._own._entry(folded_name) or self._base._entry(folded_name)


# Between the names of a line, in the trie's values.
_SEPARATOR = "\x1f"


def _read(source: str) -> tuple[marisa_trie.BytesTrie, dict[str, list[str]]]:
    """A lexicon's lines: `name | other name | …` (each folded name → the line's names as written,
    the first line naming it where several do) and `concept > kind | kind | …` (each folded concept
    → its kinds as written)."""
    entries: dict[str, str] = {}
    kinds: dict[str, list[str]] = {}
    for line in source.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        concept, arrow, rest = line.partition(" > ")
        names = list(dict.fromkeys(n.strip() for n in (rest if arrow else line).split("|") if n.strip()))
        if arrow:
            known = kinds.setdefault(text.fold(concept.strip()), [])
            known.extend(n for n in names if n not in known)
        elif len(names) >= 2:
            for name in names:
                entries.setdefault(text.fold(name), _SEPARATOR.join(names))
    return marisa_trie.BytesTrie((name, line.encode()) for name, line in entries.items()), kinds


def _build(*sources: Path) -> Built:
    trie, kinds = _read("\n".join(source.read_text(encoding="utf-8") for source in sources))
    return trie, {"kinds": kinds}


def _mapped(name: str, *sources: Path) -> AliasLexicon:
    trie, facts = mapped(name, marisa_trie.BytesTrie, _build, *sources)
    return AliasLexicon(trie, facts["kinds"])


def _wholes(kinds: dict[str, list[str]]) -> dict[str, str]:
    """Each folded concept and kind → the folded concept it belongs to (the first, where several)."""
    wholes: dict[str, str] = {}
    for concept, parts in kinds.items():
        wholes.setdefault(concept, concept)
        for part in parts:
            wholes.setdefault(text.fold(part), concept)
    return wholes


def _whole(name: str, folded: str) -> bool:
    """A Latin name counts only as whole words (ai is not in said); Chinese has no word breaks."""
    if text.has_cjk(name):
        return True
    at = folded.find(name)
    while at >= 0:
        before = folded[at - 1] if at else " "
        after = folded[at + len(name)] if at + len(name) < len(folded) else " "
        if not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum()):
            return True
        at = folded.find(name, at + 1)
    return False


@cache
def lexicon() -> AliasLexicon:
    return _mapped("aliases", LEXICON)


@cache
def synonyms() -> AliasLexicon:
    return _mapped("synonyms", SYNONYMS, PLACES, PARTS)


@cache
def places() -> dict[str, str]:
    """Every place of `places.txt`, folded → the folded city, county or destination it lies in."""
    return _wholes(_read(PLACES.read_text(encoding="utf-8"))[1])


def is_place(folded: str) -> bool:
    """A place of `places.txt`, or one the dictionary files as a place name (a country, a region)
    that is no common word too (the dictionary files 加盟, 城市 and 英雄 as places)."""
    return folded in places() or text.dictionary_tag(folded) == "ns" and not glosses.common_word(folded)


def unplaced(folded: str) -> str | None:
    """A name without the place it begins with (雪燈之路 of 小樽雪燈之路), when what is left is no
    word of the dictionary (not 馬拉松 of 台北馬拉松)."""
    for cut in range(len(folded) - 2, 1, -1):
        if is_place(folded[:cut]):
            rest = folded[cut:]
            return rest if text.dictionary_frequency(rest) < text.NAME_MAX_FREQUENCY else None
    return None


def is_district(word: str) -> bool:
    """A place's bare name that `places.txt` only lists with its suffix, being an everyday word too
    (三重 of 三重區): in a brief, written by the member, it names the place."""
    return any(word + suffix in places() for suffix in "区市县乡镇")


def load() -> None:
    """Map the lexicons now (building them first, a second of work, when the cache has none) rather
    than on the first brief."""
    lexicon()
    synonyms()
    places()
