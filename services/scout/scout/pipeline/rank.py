"""The ranked score beside the hard gate: the gate's rule evidence, optionally with BM25 over the
run's candidates (`bm25s`) or with what the run's eligible posts say in common, so that among
posts that all pass the gate the ones most about the topic come first. The gate alone decides
what is eligible; ranking only orders it.

`make eval-scout` measures each component. The default is the rules with the eligible posts'
common words ("rules+pool"): a post that names the topic in another sense (a shop called 阿信, a
gaming monitor for 電競產業) shares little with the posts about it, which are most of a run's
eligible posts. BM25 has not improved on the rules on the labeled sets (docs/scout.md 4.1). The
default also weighs how a post is written (`_shape`): a post about the topic names it early and
has more to say than one that mentions it in passing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from scout.pipeline.gate import Gate, Verdict
from scout.pipeline.signature.segment import is_framing

RULES = "rules"
RULES_BM25 = "rules+bm25"
RULES_POOL = "rules+pool"
RANKINGS = (RULES, RULES_BM25, RULES_POOL)
# Share of BM25 in the ranked relevance when it is on.
BM25_WEIGHT = 0.4
# Share of the pool evidence when it is on: enough that a post naming the topic in another sense
# (a shop called 阿信) falls below posts that talk about it; only ordering, the gate decides what
# is eligible. A quarter did better than a tenth on both blind-written dev sets.
POOL_WEIGHT = 0.25
# Fewer eligible posts than this have no common vocabulary to speak of.
POOL_MIN_POSTS = 3
# How a post is written, beside the rules and the pool (`_shape`): what naming the topic at the very
# start rather than at the end adds, and what each e-fold of length adds, up to a Threads post's
# 500 characters. Their ratio was fitted to pairs of eligible posts of the dev sets (relevant over
# not), their size to the pool's share. Length is counted in UTF-8 bytes, three to a Chinese
# character, which says about as much as a short English word's letters: counted in characters, an
# English post in another sense (The Bear for a bear) looked three times as long as a Chinese one.
NAMED_EARLY_WEIGHT = 0.13
LENGTH_WEIGHT = 0.19
_LONGEST_BYTES = 1500
# What the shape adds at most, by which the ranked relevance is divided to stay within 0..1.
_SHAPE_MAX = NAMED_EARLY_WEIGHT + LENGTH_WEIGHT * math.log(_LONGEST_BYTES + 1)

_WORD = re.compile(r"[\w\u3400-\u9fff]")


@dataclass
class Ranker:
    """Collects the tokens of every candidate a run judges (its BM25 corpus) and scores the eligible."""

    gate: Gate
    ranking: str = RULES
    _documents: list[list[str]] = field(default_factory=list)
    # Per judged candidate, its words besides the topic's own (for RULES_POOL).
    _context: list[frozenset[str]] = field(default_factory=list)
    # Per judged candidate, what its shape adds (for RULES_POOL; 0 for one the gate turned away).
    _shapes: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.ranking not in RANKINGS:
            raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}")
        words = [t for w in self.gate.signature.words for t in self._terms(w)]
        self._query = list(dict.fromkeys(words))
        self._topic = tuple(self.gate.signature.words)

    @staticmethod
    def _words(tokens: list[str] | tuple[str, ...]) -> list[str]:
        return [t for t in tokens if _WORD.search(t) and not is_framing(t)]

    def _terms(self, folded: str) -> list[str]:
        return self._words(self.gate.tokens(folded))

    def _context_words(self, tokens: tuple[str, ...]) -> frozenset[str]:
        """A post's words besides the topic's own, which every eligible post writes anyway."""
        return frozenset(t for t in self._words(tokens) if len(t) >= 2
                         and not any(t in expression for expression in self._topic))

    def add(self, verdict: Verdict) -> int:
        """A judged candidate joins the corpus with the words the gate read; returns its number."""
        self._documents.append(self._words(verdict.tokens) if self.ranking == RULES_BM25 else [])
        self._context.append(self._context_words(verdict.tokens) if self.ranking == RULES_POOL else frozenset())
        self._shapes.append(_shape("".join(verdict.tokens), self._topic)
                            if self.ranking == RULES_POOL and verdict.accepted else 0.0)
        return len(self._documents) - 1

    def relevance(self, rules: dict[int, float]) -> dict[int, float]:
        """Ranked relevance (0..1) of the eligible documents, from their rule relevance."""
        if self.ranking == RULES_POOL:
            return self._with_pool(rules)
        if self.ranking == RULES or not rules or not self._query:
            return dict(rules)
        # Imported here: it brings NumPy (some 10 MiB a process), which only this ranking uses.
        import bm25s

        retriever = bm25s.BM25()
        retriever.index([d or [""] for d in self._documents], show_progress=False)
        scores = retriever.get_scores(self._query)
        best = max((float(scores[i]) for i in rules), default=0.0)
        return {i: round((1 - BM25_WEIGHT) * r + BM25_WEIGHT * (float(scores[i]) / best if best > 0 else 0.0), 4)
                for i, r in rules.items()}

    def _with_pool(self, rules: dict[int, float]) -> dict[int, float]:
        """The rules plus how much a post says what the other eligible posts say: each of its words
        counts by the share of the others that have it, weighted by how rare it is among all the
        candidates judged (a word the rejected posts have too tells little); then its shape."""
        eligible = len(rules)
        if eligible < POOL_MIN_POSTS:
            return dict(rules)
        among_eligible: dict[str, int] = {}
        among_all: dict[str, int] = {}
        for number, words in enumerate(self._context):
            for word in words:
                among_all[word] = among_all.get(word, 0) + 1
                if number in rules:
                    among_eligible[word] = among_eligible.get(word, 0) + 1
        judged = len(self._context)
        ranked = {}
        for number, rule in rules.items():
            words = self._context[number]
            shared = sum((among_eligible[w] - 1) / (eligible - 1) * math.log((judged + 1) / among_all[w])
                         for w in words) / math.sqrt(len(words) + 1)
            pooled = (1 - POOL_WEIGHT) * rule + POOL_WEIGHT * min(shared, 1.0)
            ranked[number] = round((pooled + self._shapes[number]) / (1 + _SHAPE_MAX), 4)
        return ranked


def _shape(folded: str, topic: tuple[str, ...]) -> float:
    """What how a post is written says of it: one about the topic names it early (a mention in
    passing, 「加班完去夜市吃麵，隔壁攤一直在放周杰倫」, comes late) and has more to say."""
    found = [folded.find(expression) for expression in topic if expression in folded]
    early = 1 - min(found) / len(folded) if found else 0.0
    return NAMED_EARLY_WEIGHT * early + LENGTH_WEIGHT * math.log(min(len(folded.encode()), _LONGEST_BYTES) + 1)
