"""Proposed search terms for a topic (建議搜尋詞, docs/scout.md 4.2): the member reviews them
before the scan, and they become the evidence the topic signature is built from.

The intent is cut the way the signature cuts it (framing and function words out), so a request
typed as people type it (「想追戴資穎最近的比賽」) proposes its core, not itself repeated:

1. the core concepts, each written as the member wrote it and set apart by spaces
   (「外包後端工程師」 → 外包 後端 工程師), at most `MAX_CONCEPTS` of the most specific;
2. the same with a concept's usual other names from the alias lexicon (小戴, Tai Tzu-ying for
   戴資穎) or the other name the intent itself gives (蔡依林 for Jolin);
3. the core in Simplified characters, which posts written that way are found by.

An other name replaces its concept in a term that keeps every concept the core's signature
requires, so the signature built from the proposed terms still requires each of them; a concept
the signature only scores (比賽 beside 戴資穎) stays in the core term alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scout.brief import MAX_TERMS
from scout.pipeline import text
from scout.pipeline.aliases import AliasLexicon, is_place, lexicon, places
from scout.pipeline.signature import NoTopicEvidence, build_signature
from scout.pipeline.signature.concepts import is_year
from scout.pipeline.signature.segment import Piece, Segmenter, chunks, compound_parts, is_proper_noun, quoted_titles

# More concepts than this make a search term too narrow to find anything; the most specific stay.
MAX_CONCEPTS = 3


@dataclass
class _Concept:
    folded: str
    entity: bool
    names: list[str] = field(default_factory=list)  # as written: the intent's own first

    def add(self, name: str) -> None:
        if all(text.fold(name) != text.fold(n) for n in self.names):
            self.names.append(name)


def suggest_terms(intent: str, aliases: AliasLexicon | None = None) -> list[str]:
    """Search terms for an intent, the core first; NoTopicEvidence when it names no topic."""
    aliases = aliases or lexicon()
    titles = quoted_titles([intent])
    # The lexicon's names written in the intent, and the titles it sets in title marks, stay whole
    # (台北車站, Tai Tzu-ying, 《喵的奇幻漂流》).
    segmenter = Segmenter([*aliases.names_in(text.fold(intent)), *titles], titles)
    pieces = segmenter.pieces(intent)
    if not pieces:
        raise NoTopicEvidence("the intent names no topic once colloquial words are set aside")
    concepts = _core(_topic(pieces, segmenter, intent, aliases))
    for concept in concepts:
        # A place is searched as posts write it; its other names (天龍國, Formosa) find little more.
        if not is_place(concept.folded):
            for name in aliases.others(concept.folded):
                concept.add(name)

    core = " ".join(c.names[0] for c in concepts)
    # What the signature of the core requires; a concept it only scores (比賽 beside 戴資穎) is left
    # out of the other names' terms, which then find every post of the name.
    required = {e for g in build_signature(intent, [core]).required for e in g.expressions}

    def written(replace: int, name: str) -> str:
        """The core with one concept by another name; a concept that name already spells is not repeated."""
        return " ".join(name if i == replace else c.names[0] for i, c in enumerate(concepts)
                        if i == replace or (c.folded in required and not _spelled_in(c, name)))

    terms = [core, *(written(i, name) for i, concept in enumerate(concepts) for name in concept.names[1:])]
    terms.append(text.simplified(core))
    return list(dict.fromkeys(terms))[:MAX_TERMS]


def _spelled_in(concept: _Concept, name: str) -> bool:
    folded = text.fold(name)
    return any(text.fold(n) in folded for n in concept.names)


def _topic(pieces: list[Piece], segmenter: Segmenter, intent: str, aliases: AliasLexicon) -> list[_Concept]:
    """The concepts a search needs. A request written as a sentence (its framing set aside) is
    about the things it names: when it names any besides places, only the stretches naming them
    count (壽司郎 of 「最近壽司郎有什麼期間限定」, not 期間限定). A country (台灣, 日本) only
    says where, which posts written there seldom do: it counts only when nothing else is left."""
    per_piece = [_concepts([piece], segmenter, intent) for piece in pieces]
    if _framed(intent, segmenter):
        # A known name (a title, a name of the alias lexicon or the dictionary, a Latin one) before
        # a word the dictionary merely lacks (要調漲 beside 台電).
        for names in (lambda c: _known_name(c, segmenter, aliases), lambda c: c.entity):
            naming = [p for p in per_piece if any(names(c) and not is_place(c.folded) for c in p)]
            if naming:
                per_piece = naming
                break
    concepts = _merged([c for piece in per_piece for c in piece], aliases)
    return [c for c in concepts if not _is_country(c.folded)] or concepts


def _known_name(concept: _Concept, segmenter: Segmenter, aliases: AliasLexicon) -> bool:
    folded = concept.folded
    return folded in segmenter.names or not text.has_cjk(folded) or bool(aliases.others(folded)) or (
        text.dictionary_tag(folded) is not None and is_proper_noun(folded))


def _framed(intent: str, segmenter: Segmenter) -> bool:
    """Whether the intent is a sentence: some stretch of it says something and also holds framing
    or function words (想追戴資穎最近的比賽), unlike keywords beside a framing word (鬼滅之刃 心得)."""
    for chunk in chunks(intent):
        kept = sum(len(u) for p in segmenter.pieces(chunk) for u in p.units if text.has_cjk(u))
        if 0 < kept < text.cjk_count(chunk):
            return True
    return False


def _is_country(folded: str) -> bool:
    """A place no city, county or destination of the place lexicon is: a country or a region."""
    return is_place(folded) and folded not in places()


def _concepts(pieces: list[Piece], segmenter: Segmenter, intent: str) -> list[_Concept]:
    """One concept per content unit, a year left out (posts seldom write it)."""
    concepts: list[_Concept] = []
    for piece in pieces:
        # A run the tokenizer left whole or cut into characters (外包後端工程師), in its words.
        units = [part for unit in piece.units
                 for part in (None if unit in segmenter.words else compound_parts(unit, common=1)) or [unit]]
        for unit in units:
            if is_year(unit):
                continue
            concepts.append(_Concept(folded=unit, entity=segmenter.is_entity(unit)))
    for concept in concepts:
        concept.names.append(text.original_spelling(concept.folded, [intent], keep_case=True))
    return concepts


def _merged(concepts: list[_Concept], aliases: AliasLexicon) -> list[_Concept]:
    """Concepts the intent names twice, merged: two names of one lexicon entry (周杰倫 周董), or a
    Latin name beside a Chinese personal or unknown name (Jolin 蔡依林)."""
    merged: list[_Concept] = []
    for concept in concepts:
        previous = merged[-1] if merged else None
        same = previous is not None and (
            concept.folded in {text.fold(n) for n in aliases.others(previous.folded)}
            or (previous.entity and concept.entity and text.has_cjk(previous.folded) != text.has_cjk(concept.folded)
                and all(_personal_or_unknown(c.folded) for c in (previous, concept) if text.has_cjk(c.folded))))
        if previous is not None and same:
            for name in concept.names:
                previous.add(name)
        else:
            merged.append(concept)
    return merged


def _personal_or_unknown(word: str) -> bool:
    tag = text.dictionary_tag(word)
    return tag is None or (is_proper_noun(word) and tag.startswith("nr"))


def _core(concepts: list[_Concept]) -> list[_Concept]:
    """The most specific concepts, in the intent's order: names first, then the rarer words."""
    if len(concepts) <= MAX_CONCEPTS:
        return concepts
    def specificity(concept: _Concept) -> tuple[bool, int]:
        common = text.dictionary_frequency(concept.folded) if text.has_cjk(concept.folded) else 0
        return (not concept.entity, common)
    kept = sorted(concepts, key=specificity)[:MAX_CONCEPTS]
    return [c for c in concepts if any(c is k for k in kept)]
