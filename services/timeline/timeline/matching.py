"""A viewer's read policy applied to one candidate entry of its home timeline: what the labels of the
post do for the viewer, and its word filters, matched in the folded form of post bodies
(feeds_runtime.folding). A phrase matches as a whole word
where it begins or ends in a letter or digit of a script written with spaces (Latin, Cyrillic, …):
`cat` is in "a cat." but not in "concat"; where it begins or ends in a CJK, kana, Hangul or Thai
character it matches as written, since those scripts do not separate words (`台北` is in "去台北玩").
Every phrase of a viewer is found in one pass over a body (an Aho-Corasick automaton)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import ahocorasick

from feeds_runtime.folding import fold
from timeline.domain import FilterAction, FilterMatch, WordFilter

# Scripts written without spaces between words.
_UNSPACED = re.compile(
    "[\u0e00-\u0e7f\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003ffff]"
)


_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def _joins(ch: str) -> bool:
    """Whether the character is part of a word of a spaced script: next to another one, it is inside
    a longer word."""
    if ch.isascii():
        return ch in _ASCII_WORD
    return ch.isalnum() and not _UNSPACED.match(ch)


def _stands_alone(text: str, start: int, end: int, word_start: bool, word_end: bool) -> bool:
    """Whether text[start:end + 1] stands at word edges where the phrase must: an edge that is a letter
    or digit of a spaced script matches only where the text's character beside it does not continue
    the word."""
    return not ((word_start and start > 0 and _joins(text[start - 1]))
                or (word_end and end < len(text) - 1 and _joins(text[end + 1])))


class Phrases:
    """A set of folded phrases, found in a text by the same rules as a viewer's word filters: which
    of them a text holds. Used where one text meets the phrases of many viewers (a fan-out) or many
    texts the phrases of one (a viewer's entries judged anew)."""

    def __init__(self, phrases: Iterable[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        for phrase in set(phrases):
            self._automaton.add_word(phrase, (phrase, _joins(phrase[0]), _joins(phrase[-1])))
        self._empty = len(self._automaton) == 0
        if not self._empty:
            self._automaton.make_automaton()

    def found(self, folded_text: str) -> set[str]:
        if self._empty:
            return set()
        return {phrase for end, (phrase, word_start, word_end) in self._automaton.iter(folded_text)
                if _stands_alone(folded_text, end + 1 - len(phrase), end, word_start, word_end)}


class _Phrase(NamedTuple):
    """A folded phrase as the automaton finds it: which of its edges must stand at a word's edge (those
    that are letters or digits of a spaced script), whether one of its filters hides, and its filters."""

    length: int
    word_start: bool
    word_end: bool
    hides: bool
    filters: list[WordFilter]


class ReadPolicy:
    """What a viewer's filters and label actions make of an entry: hidden, or shown with the
    matches of `warn`. `label_actions` holds the labels that do not simply show. Built once per read
    and applied to every entry it examines, so what can be known of a phrase is known up front."""

    def __init__(self, filters: Sequence[WordFilter], label_actions: Mapping[str, FilterAction],
                 filters_version: int = 0) -> None:
        # The version of these filters (timeline.verdicts): entries marked hidden under it need no judging.
        self.filters_version = filters_version
        self._labels = dict(label_actions)
        by_phrase: dict[str, list[WordFilter]] = {}
        for word_filter in filters:
            by_phrase.setdefault(word_filter.folded_phrase, []).append(word_filter)
        self._automaton: ahocorasick.Automaton | None = None
        if by_phrase:
            automaton = ahocorasick.Automaton()
            for phrase, matching in by_phrase.items():
                automaton.add_word(phrase, _Phrase(len(phrase), _joins(phrase[0]), _joins(phrase[-1]),
                                                   any(f.action is FilterAction.HIDE for f in matching), matching))
            automaton.make_automaton()
            self._automaton = automaton

    @property
    def empty(self) -> bool:
        """Whether it leaves every entry as it is (a read then needs no judging at all)."""
        return self._automaton is None and not self._labels

    @property
    def needs_bodies(self) -> bool:
        """Whether judging reads the posts' folded bodies (the viewer has word filters)."""
        return self._automaton is not None

    def judge(self, body: str, folded_body: str | None, labels: Sequence[str]) -> tuple[bool, list[FilterMatch]]:
        """(hidden, the matches to show) for a post's body and labels; `folded_body` as stored, None
        to fold here. A hide wins over every warning, so the first hiding match ends the judging."""
        warned: list[FilterMatch] = []
        if labels and self._labels:
            for label in labels:
                action = self._labels.get(label)
                if action is FilterAction.HIDE:
                    return True, []
                if action is FilterAction.WARN:
                    warned.append(FilterMatch("label", "", label))
        if self._automaton is None:
            return False, warned
        text = folded_body if folded_body is not None else fold(body)
        found: dict[int, _Phrase] = {}  # by identity, in the order first found
        for end, phrase in self._automaton.iter(text):
            if not _stands_alone(text, end + 1 - phrase.length, end, phrase.word_start, phrase.word_end):
                continue
            if phrase.hides:
                return True, []
            found.setdefault(id(phrase), phrase)
        return False, warned + [FilterMatch("word", str(word_filter.id), word_filter.phrase)
                                for phrase in found.values() for word_filter in phrase.filters]
