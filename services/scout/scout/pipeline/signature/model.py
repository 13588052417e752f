"""What a topic signature is: concept groups of alternative expressions, some of them required."""

from __future__ import annotations

from dataclasses import dataclass, field

from scout.pipeline import text


class NoTopicEvidence(ValueError):
    """The brief has nothing left once framing and function words are set aside (e.g. only 推薦 心得)."""


@dataclass
class ConceptGroup:
    """One concept of the topic and the ways of writing it; a post names it with any one of them."""

    expression: str  # folded; the intent's own word where the intent has one
    aliases: list[str] = field(default_factory=list)
    required: bool = True
    # A named thing (a person, place, work, brand, product), as opposed to a common word.
    entity: bool = False
    # Which content piece of the intent the group was cut from (-1: none).
    piece: int = -1
    # One of several names the member searched each on its own: a post naming any one of them is
    # on topic (a work or its arc, an artist or the album), so none of them is required alone.
    sufficient: bool = False
    # A year, a generic head or a very common word: it only qualifies the concepts beside it.
    qualifier: bool = False

    @property
    def expressions(self) -> list[str]:
        return [self.expression, *self.aliases]

    def add_alias(self, alias: str) -> None:
        if alias != self.expression and alias not in self.aliases:
            self.aliases.append(alias)

    def absorb(self, other: ConceptGroup) -> None:
        """Take another group's expressions as alternatives of this one (the two name one thing)."""
        for expression in other.expressions:
            self.add_alias(expression)
        self.entity = self.entity or other.entity


@dataclass(frozen=True)
class TopicSignature:
    groups: tuple[ConceptGroup, ...]
    # The intent's content pieces (folded): all of one in a row is the strongest evidence.
    phrases: tuple[str, ...]
    # The intent and terms as written, to show concepts in the member's own spelling.
    written: tuple[str, ...] = ()
    # Words of the approved terms that refine the topic without being required (道奇 in 大谷 道奇).
    refinements: tuple[str, ...] = ()
    # Per approved term, the groups (their indices) a post must all hit to name what the term
    # searches; a post names what one of the terms searches, whole.
    terms: tuple[tuple[int, ...], ...] = ()
    # Words only the intent's clauses of what the member does not want write (劇透 of 「漫畫原作的
    # 劇透就不用了」): a post that names one is about what the member turned away.
    unwanted: tuple[str, ...] = ()

    def label(self, word: str) -> str:
        return text.original_spelling(word, list(self.written))

    @property
    def required(self) -> tuple[ConceptGroup, ...]:
        return tuple(g for g in self.groups if g.required)

    @property
    def sufficient(self) -> tuple[ConceptGroup, ...]:
        return tuple(g for g in self.groups if g.sufficient)

    @property
    def words(self) -> list[str]:
        """Every expression and refinement, for the candidate tokenizer's dictionary."""
        return sorted({e for g in self.groups for e in g.expressions} | set(self.refinements))
