"""The alias lexicon: the usual other names of things people scout for (a nickname, an English
name, a short form), kept in `aliases.txt`, one thing per line. Matching is on folded text, so a
Simplified or full-width spelling finds the same entry."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from scout.pipeline import text

LEXICON = Path(__file__).with_name("aliases.txt")


class AliasLexicon:
    def __init__(self, entries: list[tuple[str, ...]]) -> None:
        # Every folded name → the entry it belongs to, its names as written.
        self._entries: dict[str, tuple[str, ...]] = {}
        for names in entries:
            for name in names:
                self._entries.setdefault(text.fold(name), names)

    @classmethod
    def parse(cls, source: str) -> AliasLexicon:
        entries = []
        for line in source.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            names = tuple(dict.fromkeys(n.strip() for n in line.split("|") if n.strip()))
            if len(names) >= 2:
                entries.append(names)
        return cls(entries)

    def names_in(self, folded: str) -> list[str]:
        """Names of the lexicon written in a folded phrase, longest first."""
        found = [name for name in self._entries if name in folded and _whole(name, folded)]
        return sorted(found, key=len, reverse=True)

    def others(self, folded_name: str) -> tuple[str, ...]:
        """The other names of the thing a folded name names, as the lexicon writes them."""
        names = self._entries.get(folded_name, ())
        return tuple(n for n in names if text.fold(n) != folded_name)


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
    return AliasLexicon.parse(LEXICON.read_text(encoding="utf-8"))
