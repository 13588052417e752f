"""A viewer's read policy applied to one candidate entry of its home timeline: what the labels of the
post do for the viewer, and its word filters, matched in the folded form of post bodies
(feeds_runtime.folding). A phrase matches as a whole word
where it begins or ends in a letter or digit of a script written with spaces (Latin, Cyrillic, …):
`cat` is in "a cat." but not in "concat"; where it begins or ends in a CJK, kana, Hangul or Thai
character it matches as written, since those scripts do not separate words (`台北` is in "去台北玩").
Every phrase of a viewer is found in one pass over a body (an Aho-Corasick automaton)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
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

    def __init__(self, filters: Sequence[WordFilter], label_actions: Mapping[str, FilterAction]) -> None:
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
        last = len(text) - 1
        found: dict[int, _Phrase] = {}  # by identity, in the order first found
        for end, phrase in self._automaton.iter(text):
            # A phrase whose edge is a letter or digit of a spaced script matches there only where
            # the text's next character does not continue the word.
            start = end + 1 - phrase.length
            if (phrase.word_start and start > 0 and _joins(text[start - 1])) or (
                    phrase.word_end and end < last and _joins(text[end + 1])):
                continue
            if phrase.hides:
                return True, []
            found.setdefault(id(phrase), phrase)
        return False, warned + [FilterMatch("word", str(word_filter.id), word_filter.phrase)
                                for phrase in found.values() for word_filter in phrase.filters]
