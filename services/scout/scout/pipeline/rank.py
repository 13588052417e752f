"""The ranked score beside the hard gate: the gate's rule evidence, optionally with BM25 over the
run's candidates (`bm25s`), so that among posts that all pass the gate the ones most about the
topic come first. The gate alone decides what is eligible; ranking only orders it.

`make eval-scout` measures both; the rules alone are the default, as BM25 has not improved on them
on the labeled sets (docs/scout.md 4.1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import bm25s

from scout.pipeline.gate import Gate, Verdict
from scout.pipeline.signature.segment import is_framing

RULES = "rules"
RULES_BM25 = "rules+bm25"
RANKINGS = (RULES, RULES_BM25)
# Share of BM25 in the ranked relevance when it is on.
BM25_WEIGHT = 0.4

_WORD = re.compile(r"[\w\u3400-\u9fff]")


@dataclass
class Ranker:
    """Collects the tokens of every candidate a run judges (its BM25 corpus) and scores the eligible."""

    gate: Gate
    ranking: str = RULES
    _documents: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.ranking not in RANKINGS:
            raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}")
        words = [t for w in self.gate.signature.words for t in self._terms(w)]
        self._query = list(dict.fromkeys(words))

    @staticmethod
    def _words(tokens: list[str] | tuple[str, ...]) -> list[str]:
        return [t for t in tokens if _WORD.search(t) and not is_framing(t)]

    def _terms(self, folded: str) -> list[str]:
        return self._words(self.gate.tokens(folded))

    def add(self, verdict: Verdict) -> int:
        """A judged candidate joins the corpus with the words the gate read; returns its number."""
        self._documents.append(self._words(verdict.tokens) if self.ranking == RULES_BM25 else [])
        return len(self._documents) - 1

    def relevance(self, rules: dict[int, float]) -> dict[int, float]:
        """Ranked relevance (0..1) of the eligible documents, from their rule relevance."""
        if self.ranking == RULES or not rules or not self._query:
            return dict(rules)
        retriever = bm25s.BM25()
        retriever.index([d or [""] for d in self._documents], show_progress=False)
        scores = retriever.get_scores(self._query)
        best = max((float(scores[i]) for i in rules), default=0.0)
        return {i: round((1 - BM25_WEIGHT) * r + BM25_WEIGHT * (float(scores[i]) / best if best > 0 else 0.0), 4)
                for i, r in rules.items()}
