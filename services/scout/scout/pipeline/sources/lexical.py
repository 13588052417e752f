"""Lexical overlap between a query and a post: the offline stand-in for a search engine's match."""

from __future__ import annotations

import re

from scout.pipeline import text

_LATIN = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def query_grams(query: str) -> set[str]:
    """Latin words and Chinese character bigrams (single characters for one-character runs)."""
    folded = text.fold(query)
    grams = set(_LATIN.findall(folded))
    for run in _CJK_RUN.findall(folded):
        grams.update(run[i:i + 2] for i in range(max(len(run) - 1, 1)))
    return grams


def overlap(grams: set[str], body: str) -> int:
    folded = text.fold(body)
    return sum(1 for gram in grams if gram in folded)
