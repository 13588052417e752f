"""The topic signature: what a post must talk about to belong to a brief (docs/scout.md 4.1).

Built from the original intent and the approved search terms only, in phases each testable on
its own:

1. `segment` — the intent and every term cut into content units, framing and function words out;
2. `concepts.intent_groups` — one concept group per unit of the intent (`merge_slashed`: UI/UX is one);
3. `concepts.read_term` / `learn_spellings` — what each term names, and its shorter spellings;
4. `concepts.merge_alternatives` / `assign_own_words` — names written several ways become one
   group of alternatives, a term's own words stand for the concept it leaves out;
5. `concepts.mark_required` — which groups every search needs; `term_concepts` —
   what each term searches, one of which a post names whole;
6. `concepts.widen` — each group also met by the other names and kinds the lexicons know;
   `name_cut_pieces` — an intent piece cut in several groups also by the other names of it whole,
   and by the other words and kinds of a concept its groups make together;
7. `_unwanted` — the words only the clauses of what the member does not want write.

The lexicons (`aliases.txt`, `synonyms.txt`) also tell phases 3 and 4 which words are one thing.
"""

from __future__ import annotations

from scout.pipeline import text
from scout.pipeline.aliases import AliasLexicon, lexicon, synonyms
from scout.pipeline.signature import concepts, segment
from scout.pipeline.signature.model import ConceptGroup, NoTopicEvidence, TopicSignature

__all__ = ["ConceptGroup", "NoTopicEvidence", "TopicSignature", "build_signature"]


def build_signature(intent: str, terms: list[str] | tuple[str, ...], *, names: AliasLexicon | None = None,
                    words: AliasLexicon | None = None) -> TopicSignature:
    """`names` and `words`: the alias and synonym lexicons, the maintained ones unless given."""
    segmenter = segment.Segmenter(terms, segment.quoted_titles([intent, *terms]))
    intent_pieces = segmenter.pieces(intent)
    term_pieces = [segmenter.pieces(term) for term in terms]
    if not intent_pieces:
        # An intent made only of framing: the first term that says something carries the topic.
        intent_pieces = next((pieces for pieces in term_pieces if pieces), [])
    if not intent_pieces:
        raise NoTopicEvidence("the brief names no topic once colloquial words are set aside")

    groups = concepts.merge_slashed(concepts.intent_groups(intent_pieces, segmenter), [intent, *terms])
    readings = [concepts.read_term(segment.runs(term, pieces), groups, intent_pieces)
                for term, pieces in zip(terms, term_pieces)]
    # The other name the member gives a name in brackets is one more line of the lexicon.
    names, words = (names or lexicon()).with_names(segment.bracketed_names(intent)), words or synonyms()
    lexicons = (names, words)
    concepts.known_names(groups, readings, lexicons, intent_pieces)
    concepts.learn_spellings(readings)
    groups = concepts.merge_alternatives(groups, readings, lexicons)
    refinements = concepts.assign_own_words(groups, readings, names)
    groups = concepts.merge_alternatives(groups, readings, lexicons)
    concepts.mark_required(groups, readings)
    searched = concepts.term_concepts(groups, readings)
    concepts.widen(groups, names, words)
    concepts.name_cut_pieces(groups, [*intent_pieces, *(p for pieces in term_pieces for p in pieces)], names, words)
    return TopicSignature(groups=tuple(groups), phrases=tuple(p.text for p in intent_pieces),
                          written=(intent, *terms), refinements=tuple(refinements), terms=searched,
                          unwanted=_unwanted(intent, terms, segmenter, groups))


def _unwanted(intent: str, terms: list[str] | tuple[str, ...], segmenter: segment.Segmenter,
              groups: list[ConceptGroup]) -> tuple[str, ...]:
    """The words of the intent's clauses of what the member does not want that the rest of the
    intent, the terms and the required concepts never write."""
    folded = text.fold(intent)
    away = segment.turned_away(folded)
    if not away:
        return ()
    kept = [phrase for phrase in segment.PHRASE.split(folded) if phrase not in away] + [text.fold(t) for t in terms]
    required = {e for g in groups if g.required or g.sufficient for e in g.expressions}
    words = {unit for clause in away for piece in segmenter.pieces(clause) for unit in piece.units}
    return tuple(sorted(w for w in words if len(w) >= 2 and _names_something(w)
                        and not any(w in k or k in w for k in required) and not any(w in c for c in kept)))


def _names_something(word: str) -> bool:
    """A word that names a thing or an act (劇透, 禮盒, 開運), not one that only says how (單純,
    一般) nor the turning away itself (不用)."""
    tag = text.dictionary_tag(word) if text.has_cjk(word) else None
    return not segment.UNWANTED.search(word) and (tag is None or tag[0] in "nv")
