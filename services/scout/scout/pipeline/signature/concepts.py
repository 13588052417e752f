"""Phases 2–5 — from content units to concept groups: what the intent names, what each approved
term says about it, which groups are one thing written several ways, and which must all hold.

The approved terms are the member's evidence. A term's word that spells an intent concept
shorter or longer (大谷 for 大谷翔平) names that concept; a word of its own stands for the concept
the term leaves out (小戴 for 戴資穎, 接案 for 外包 in "後端 接案"); two terms the same but for one
concept make those two concepts interchangeable (徵才 / 職缺); two names searched each on their
own that share a character or differ in script are one thing (戴資穎 / 小戴, 蔡依林 / Jolin).
A concept every term names is required; one the member searched without (比賽、產業、新品 only
in the intent, 台劇 beside the term 想見你) adds to the score, as does a word only a term adds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from scout.pipeline import glosses, romanize, text
from scout.pipeline.aliases import AliasLexicon, is_district, is_place, places, unplaced
from scout.pipeline.signature.model import ConceptGroup
from scout.pipeline.signature import segment
from scout.pipeline.signature.segment import Piece, Segmenter

# A Chinese word at least this common in jieba's dictionary is generic vocabulary: it never
# stands for a name, and beside other concepts it is optional.
ALIAS_MAX_FREQUENCY = 100
OPTIONAL_MIN_FREQUENCY = 5000
# The last word of a compound is its head (後端工程師): a head this common and this many times
# more common than the word before it only adds to the score.
HEAD_MIN_FREQUENCY = 1000
HEAD_RATIO = 20
# One-character heads naming where or how a thing is done (folded).
_PLACE_OF = frozenset("课店馆班行")
_YEAR = re.compile(r"(?:19|20)\d\d")
# An English given name shorter than this (Al, Bo) names too many people.
MIN_GIVEN_LETTERS = 3


@dataclass
class TermReading:
    """What one approved term says about the intent's concept groups."""

    units: list[str]
    # The units of each stretch of the term written without a space (紫金山-阿特拉斯彗星 is one,
    # 哈拉瑞 連結 two).
    runs: list[tuple[str, ...]] = field(default_factory=list)
    named: list[ConceptGroup] = field(default_factory=list)
    own_words: list[str] = field(default_factory=list)  # units naming no intent concept
    # Each unit naming intent groups, and those groups.
    hits: list[tuple[str, list[ConceptGroup]]] = field(default_factory=list)
    # A stretch of a group's expression the term writes joined to another concept, and that group:
    # the member's own word for it (代管 of 包租代管 in 代管業者).
    parts: list[tuple[str, ConceptGroup]] = field(default_factory=list)

    def names(self, group: ConceptGroup) -> bool:
        return any(g is group for g in self.named)


def intent_groups(pieces: list[Piece], segmenter: Segmenter) -> list[ConceptGroup]:
    """Phase 2: one concept group per distinct content unit of the intent."""
    groups: dict[str, ConceptGroup] = {}
    for number, piece in enumerate(pieces):
        for index, unit in enumerate(piece.units):
            if unit not in groups:
                # A district's bare name beside other places (三重 in 三重蘆洲新莊) is a place too.
                district = is_district(unit) and any(other in places() for other in piece.units)
                groups[unit] = ConceptGroup(expression=unit, entity=segmenter.is_entity(unit) or district, piece=number)
            # A lesson, shop or hall of a thing (鋼琴課, 相機店, 攀岩館) is written as the thing too.
            if len(unit) >= 3 and unit[-1] in _PLACE_OF and (
                    text.dictionary_frequency(unit[:-1]) > 0 or glosses.common_word(unit[:-1])):
                groups[unit].add_alias(unit[:-1])
            # A year (2026 經典賽) or a generic head only qualifies the concept beside it.
            if is_year(unit) or (index and is_generic_head(unit, piece.units[index - 1])):
                groups[unit].required = False
                groups[unit].qualifier = True
    return list(groups.values())


def merge_slashed(groups: list[ConceptGroup], written: list[str]) -> list[ConceptGroup]:
    """Phase 2: Latin names written with a slash between them (UI/UX, iOS/Android) are
    alternatives: one group, met by either."""
    folded = [text.fold(w) for w in written]
    merged: list[ConceptGroup] = []
    for group in groups:
        previous = merged[-1] if merged else None
        if previous is not None and group.expression.isascii() and previous.expression.isascii() and any(
                re.search(rf"(?<![a-z0-9]){re.escape(previous.expression)}\s*/\s*{re.escape(group.expression)}(?![a-z0-9])", f)
                for f in folded):
            previous.absorb(group)
            previous.required = previous.required and group.required
        else:
            merged.append(group)
    return merged


def is_year(unit: str) -> bool:
    return bool(_YEAR.fullmatch(unit))


def is_generic_head(unit: str, before: str) -> bool:
    frequency = text.dictionary_frequency(unit)
    return text.has_cjk(unit) and text.has_cjk(before) and frequency >= HEAD_MIN_FREQUENCY \
        and frequency >= HEAD_RATIO * max(text.dictionary_frequency(before), 1)


def _spells(unit: str, expression: str) -> bool:
    """A unit that is the expression, or a longer or shorter spelling of it (巡迴演唱會, 大谷)."""
    if unit == expression:
        return True
    if len(unit) < 2 or len(expression) < 2:
        return False
    if not text.has_cjk(unit) and not text.has_cjk(expression):
        # Latin: whole words, written apart or joined (switch2 spells switch 2, iphone 17 pro
        # spells iphone 17; "pro" alone spells nothing).
        if unit.replace(" ", "") == expression.replace(" ", ""):
            return True
        shorter, longer = sorted((segment.content_words(unit), segment.content_words(expression)), key=len)
        return any(longer[i:i + len(shorter)] == shorter for i in range(len(longer) - len(shorter) + 1)) \
            and len(shorter) * 2 >= len(longer)
    return unit in expression or expression in unit


def read_term(runs: list[list[Piece]], groups: list[ConceptGroup], intent_pieces: list[Piece]) -> TermReading:
    """Phase 3: the groups a term names, directly, by another spelling, or by spelling a stretch of
    an intent piece across several groups (台北馬 in 台北馬拉松); the rest are its own words.
    `runs`: the pieces of each stretch of the term written without a space."""
    reading = TermReading(units=[u for run in runs for p in run for u in p.units],
                          runs=[tuple(u for p in run for u in p.units) for run in runs])
    for unit in reading.units:
        # A unit that is a group's own word, or its abbreviation, names that group, not the shorter
        # groups inside it (瑪利歐賽車世界 and 瑪車世界 are the game, not the 世界 of 開放世界).
        exact = [g for g in groups if unit in g.expressions] or [g for g in groups if _shortens(unit, g.expression)]
        hit = exact or [g for g in groups if any(_spells(unit, e) for e in g.expressions)]
        if text.has_cjk(unit) and not exact:
            for piece in intent_pieces:
                joined = "".join(piece.units)
                at = joined.find(unit)
                if at < 0:
                    continue
                position = 0
                for piece_unit in piece.units:
                    start, end = position, position + len(piece_unit)
                    position = end
                    if at < end and at + len(unit) > start:
                        hit += [g for g in groups if g.expression == piece_unit and g not in hit]
            # A word joined to a group's word names the one other group it is part of (代管業者),
            # and so does a number written without its leading zero (403 of 0403 in 403地震).
            for rest in {_beside(unit, g.expression) for g in hit} - {""}:
                other = [g for g in groups if g not in hit and rest in g.expression]
                if len(other) == 1 and (text.dictionary_frequency(rest) or _unpadded(rest, other[0].expression)):
                    hit.append(other[0])
                    reading.parts.append((rest, other[0]))
        for group in hit:
            if not reading.names(group):
                reading.named.append(group)
        if hit:
            reading.hits.append((unit, hit))
            # A year joined to a word of the term's own (2026地方選舉) only dates that word.
            if len(hit) == 1 and is_year(hit[0].expression) and len(dated := _beside(unit, hit[0].expression)) >= 2:
                reading.own_words.append(dated)
        else:
            reading.own_words.append(unit)
    return reading


def _unpadded(number: str, expression: str) -> bool:
    """A number written without the zeros a date pads it with (403 for 0403)."""
    return number.isdigit() and expression.isdigit() and expression.lstrip("0") == number != expression


def _beside(unit: str, expression: str) -> str:
    """What a unit writes beside an expression it begins or ends with (代管 in 代管業者 for 業者)."""
    if unit == expression or len(unit) - len(expression) < 2:
        return ""
    return unit[len(expression):] if unit.startswith(expression) else (
        unit[:-len(expression)] if unit.endswith(expression) else "")


def can_alias(word: str, group: ConceptGroup, alone: bool = False) -> bool:
    """A word may stand for a group unless it is a common word (動畫 for a title) and the group a
    name; a proper noun (小林, 世界盃) may, however common, and so may a common word the member
    searched on its own that is written with two of the name's characters (大樹 for 大樹藥局, 高考
    for 高普考): the member's own short name for it."""
    if len(word) < 2:  # one character or letter names nothing on its own
        return False
    common = text.has_cjk(word) and text.dictionary_frequency(word) >= ALIAS_MAX_FREQUENCY \
        and not segment.is_proper_noun(word)
    return not (common and group.entity) or (alone and _shared_chars(word, group.expression) >= 2)


def _shared_chars(a: str, b: str) -> int:
    """Chinese characters two words share (周董 / 周杰倫); Latin words count whole."""
    if text.has_cjk(a) and text.has_cjk(b):
        return len(set(a) & set(b))
    return len(set(segment.content_words(a)) & set(segment.content_words(b)))


def _scripts_differ(a: str, b: str) -> bool:
    """One name in Chinese, the other in Latin letters (蔡依林 / Jolin); a number (2026) is neither."""
    latin = b if text.has_cjk(a) else a
    return text.has_cjk(a) != text.has_cjk(b) and any(c.isalpha() for c in latin)


def learn_spellings(readings: list[TermReading]) -> None:
    """Phase 3: a term's shorter spelling of a group becomes one of its expressions (鬼滅 for
    鬼滅之刃; 北馬 across 台北 and 馬拉松); a longer one needs none, the group's word is in it."""
    for reading in readings:
        for part, group in reading.parts:
            group.add_alias(part)
        for unit, hit in reading.hits:
            for group in hit:
                if any(unit == e or e in unit for e in group.expressions):
                    continue
                alone = reading.units == [unit]
                # A name's shorter spelling the member searched on its own, no dictionary word itself,
                # is the member's short name for it (麻理惠 of 近藤麻理惠, 明星賽 of 中職明星賽),
                # while a word of the dictionary names a broader thing (拉麵 of 素食拉麵).
                short_name = alone and group.entity and not text.dictionary_frequency(unit)
                # A place a name begins with (東港 of 東港迎王) is where it is, not its short form.
                where = unit in places() and group.expression.startswith(unit)
                if text.has_cjk(unit) == text.has_cjk(group.expression) and can_alias(unit, group, alone) and not where \
                        and (short_name or not _drops_a_word(unit, group)):
                    group.add_alias(unit)


def _drops_a_word(unit: str, group: ConceptGroup) -> bool:
    """A shorter spelling that leaves a word of a compound out (拉麵 of 素食拉麵) names something
    broader, not the same thing. A name's compound is read head last, as Chinese compounds are:
    its head without the modifier is broader (拉麵), its beginning is the name's short form (大谷
    of 大谷翔平, 漢光 of 漢光演習)."""
    rest = group.expression.replace(unit, "", 1) if unit in group.expression else ""
    # A place before a name only says where it is (新光三越 of 台中新光三越): the name is no broader.
    broader = len(rest) >= 2 and text.dictionary_frequency(rest) > 0 and rest not in places()
    return broader and (not group.entity or group.expression.endswith(unit))


def known_names(groups: list[ConceptGroup], readings: list[TermReading], lexicons: tuple[AliasLexicon, ...],
                pieces: tuple[Piece, ...] | list[Piece] = ()) -> None:
    """Phase 3: a term's own word that a lexicon knows as another name of a group's expression
    (Taylor Swift for 霉霉, 職缺 for 徵才) or as a kind of it (特斯拉 for 電動車) names that
    group, in whichever script; so does an abbreviation of what a group or an intent piece
    writes out (DWAS for Die With A Smile, 物治 for 物理治療師). A concept the alias lexicon lists
    is a named thing, however the dictionary files it (航海王 is a common noun to jieba)."""
    names = lexicons[0]
    for group in groups:
        group.entity = group.entity or bool(names.others(group.expression))

    def known(word: str) -> list[ConceptGroup]:
        undotted = _undotted(word)
        hit = [g for g in groups if any(_same(word, e, lexicons) or _kind(word, e, lexicons) or undotted == e
                                        for e in g.expressions)]
        hit += [g for g in groups if g not in hit and any(_initials(word, e) for e in g.expressions)]
        for piece in pieces:
            if _abbreviates(word, piece):
                hit += [g for g in groups if g not in hit and g.expression in piece.units]
        return hit

    for reading in readings:
        for word in list(reading.own_words):
            hit = known(word)
            if not hit and " " in word:
                # Latin words each known (remote designer: 遠端 and 設計師).
                each = [known(w) for w in word.split(" ")]
                hit = list({id(g): g for gs in each for g in gs}.values()) if all(each) else []
            if not hit:
                continue
            reading.own_words.remove(word)
            reading.hits.append((word, hit))
            for group in hit:
                group.add_alias(word)
                if not reading.names(group):
                    reading.named.append(group)


# Letters or digits each followed by a dot, the last one's dot optional (r.e.p.o., u.s.a).
_DOTTED = re.compile(r"(?:[a-z0-9]\.)+[a-z0-9]?\.?")
# Words an acronym may leave out (TLOU keeps "of", DWAS keeps "a"; either way is read).
_ACRONYM_SKIPS = frozenset({"a", "an", "the", "of", "and", "to", "in", "on", "for", "with", "no"})


def _undotted(word: str) -> str | None:
    """Letters written with a dot after each, without the dots (repo of r.e.p.o.); None for others."""
    return word.replace(".", "") if _DOTTED.fullmatch(word) else None


def _initials(word: str, expression: str) -> bool:
    """A Latin acronym of a name of several Latin words: DWAS of die with a smile, ff7 of final
    fantasy 7 (a number counts whole)."""
    words = expression.split()
    if not word.isascii() or not word.isalnum() or len(words) < 2 or not all(w.isascii() for w in words):
        return False
    initials = ["".join(w if w.isdigit() else w[0] for w in kept)
                for kept in (words, [w for w in words if w not in _ACRONYM_SKIPS])]
    return word in initials and len(word) >= 2


def _shortens(word: str, name: str) -> bool:
    """A Chinese short form of a longer word that keeps its first character and some of the others
    in order (瑪車世界 of 瑪利歐賽車世界); a stretch of it is a spelling, not a short form."""
    if len(word) < 2 or len(name) < len(word) + 2 or not text.has_cjk(word) or word[0] != name[0] or word in name:
        return False
    rest = iter(name[1:])
    return all(c in rest for c in word[1:])


def _abbreviates(word: str, piece: Piece) -> bool:
    """A Chinese abbreviation of a piece cut in several units: one character of each in order, the
    first the piece's own first (物治 of 物理 治療師, 台大 of 台灣 大學)."""
    return _abbreviates_units(word, piece.units) and word not in piece.text


def _abbreviates_units(word: str, units: Sequence[str]) -> bool:
    """Whether a word is one character of each of several Chinese units in order, the first the
    first unit's own first (漫博 of 漫畫 博覽會)."""
    if len(units) < 2 or len(word) != len(units) or not all(text.has_cjk(u) for u in units):
        return False
    return word[0] == units[0][0] and all(c in unit for c, unit in zip(word, units))


def _same(a: str, b: str, lexicons: tuple[AliasLexicon, ...]) -> bool:
    return any(lexicon.same(a, b) for lexicon in lexicons)


def _kind(word: str, concept: str, lexicons: tuple[AliasLexicon, ...]) -> bool:
    return any(lexicon.is_kind(word, concept) for lexicon in lexicons)


def merge_alternatives(groups: list[ConceptGroup], readings: list[TermReading],
                       lexicons: tuple[AliasLexicon, ...] = ()) -> list[ConceptGroup]:
    """Phase 4: groups the terms show to be one concept written two ways, merged.

    * Two groups a lexicon knows as one thing (霉霉 / 泰勒絲).
    * Two names each searched on its own (a term of that name alone) that share a character or
      differ in script: 戴資穎 / 小戴, 蔡依林 / Jolin. Unrelated names (周杰倫 / 蔡依林) stay apart.
    * Two terms made of intent groups only, the same but for one group each, with a group in
      common or the two in different scripts: 半導體 徵才 / 半導體 職缺. Two bare concepts in one
      script (外包 / 後端工程師) may both be wanted and stay apart.
    """
    while True:
        pair = _known_pair(groups, lexicons) or _mergeable(groups, readings)
        if pair is None:
            return groups
        keep, merge = pair
        keep.absorb(merge)
        keep.required = keep.required or merge.required
        groups = [g for g in groups if g is not merge]
        for reading in readings:
            if reading.names(merge):
                reading.named = [g for g in reading.named if g is not merge]
                if not reading.names(keep):
                    reading.named.append(keep)


def _known_pair(groups: list[ConceptGroup], lexicons: tuple[AliasLexicon, ...]) -> tuple[ConceptGroup, ConceptGroup] | None:
    for i, a in enumerate(groups):
        for b in groups[i + 1:]:
            # Their own words: a stretch across both (台北馬 of 台北 and 馬拉松) is no sign of one thing.
            if a.expression != b.expression and _same(a.expression, b.expression, lexicons):
                return a, b
    return None


def _mergeable(groups: list[ConceptGroup], readings: list[TermReading]) -> tuple[ConceptGroup, ConceptGroup] | None:
    alone = [r.named[0] for r in readings if len(r.named) == 1 and not r.own_words]
    for a in alone:
        for b in alone:
            if a is b or not (a.entity and b.entity):
                continue
            if any(r.names(a) and r.names(b) for r in readings):
                continue
            if _shared_chars(a.expression, b.expression) or _scripts_differ(a.expression, b.expression):
                return _ordered(groups, a, b)
    complete = [r for r in readings if r.named and not r.own_words]
    for ra in complete:
        for rb in complete:
            only_a = [g for g in ra.named if not rb.names(g)]
            only_b = [g for g in rb.named if not ra.names(g)]
            if len(only_a) != 1 or len(only_b) != 1:
                continue
            x, y = only_a[0], only_b[0]
            # A name and a common word (台北 / 成人), or a place and something else (台北 / 國中數學),
            # are two things the brief combines.
            if x.entity != y.entity or is_place(x.expression) != is_place(y.expression) or any(r.names(x) and r.names(y) for r in readings):
                continue
            shared = any(rb.names(g) for g in ra.named)
            if shared or _scripts_differ(x.expression, y.expression):
                return _ordered(groups, x, y)
    return None


def _ordered(groups: list[ConceptGroup], a: ConceptGroup, b: ConceptGroup) -> tuple[ConceptGroup, ConceptGroup]:
    """The group the intent names first keeps its expression; the other becomes its alternative."""
    ia = next(i for i, g in enumerate(groups) if g is a)
    ib = next(i for i, g in enumerate(groups) if g is b)
    return (a, b) if ia < ib else (b, a)


def assign_own_words(groups: list[ConceptGroup], readings: list[TermReading],
                     names: AliasLexicon | None = None) -> list[str]:
    """Phase 4: a term's own words stand for the concept it leaves out, else refine the topic.

    The concepts that count are the names and the groups another term searches. One left out:
    the word stands for it when it may (小戴 for 戴資穎), unless the term names another concept
    beside it and the alias lexicon gives that thing's names without the word, which shares
    nothing with them (影后 台劇: 台劇 is not Netflix). Several: a word in the other script than
    all of them that come from one intent piece names that piece whole (Elephant Gym for 大象
    體操); otherwise the one it shares most characters with, when that is clear. Returns the
    words that stand for nothing: they only add to the score.
    """
    searched = [g for g in groups if g.required and any(r.names(g) for r in readings)]
    refinements: list[str] = []
    for reading in readings:
        left_out = [g for g in searched if not reading.names(g)]
        name_term = len(reading.units) == 1 and not reading.named
        refines = False
        # Beside a concept the term names, a word is more likely something else the brief adds.
        known = names if reading.named else None
        for word in reading.own_words:
            targets = [g for g in _stands_for(word, left_out, name_term, readings, known) if can_alias(word, g, name_term)]
            named_names = [g for g in reading.named if g.entity]
            if not left_out and len(named_names) == 1 and word.isalpha() and word.isascii() \
                    and text.has_cjk(named_names[0].expression):
                # A romanized name beside the Chinese one it goes with (Andre 江振誠).
                targets = named_names
            for group in targets:
                group.add_alias(word)
                if not reading.names(group):
                    reading.named.append(group)
            if not targets:
                refinements.append(word)
                refines = True
        if refines and reading.hits and all(unit not in g.expressions for unit, hit in reading.hits for g in hit):
            # A term that meets a group only by a part of it (演習 of 漢光演習, F1 of F1電影) beside
            # words of its own names a thing of its own, written whole: 城鎮韌性演習, F1：狂速飆風.
            for group in {id(g): g for _, hit in reading.hits for g in hit}.values():
                group.add_alias(" ".join(reading.units))
        elif refines:
            for run, group in _runs_of_a_kind(reading, refinements):
                group.add_alias("".join(run))
    return list(dict.fromkeys(refinements))


def _runs_of_a_kind(reading: TermReading, refinements: list[str]) -> Iterator[tuple[tuple[str, ...], ConceptGroup]]:
    """Each stretch of a term written without a space that meets one group only by its head,
    beside a word of its own: another kind of that thing, the member's alternative to it (行動電源
    of 「露營 行動電源」 beside 儲能電源)."""
    for run in reading.runs:
        hit = [(unit, groups) for unit, groups in reading.hits if unit in run]
        if len(run) < 2 or len(hit) != 1 or len(hit[0][1]) != 1 or run[-1] != hit[0][0] \
                or not all(unit in refinements for unit in run[:-1]):
            continue
        unit, (group,) = hit[0]
        if unit not in group.expressions and group.expression.endswith(unit):
            yield run, group


def _stands_for(word: str, left_out: list[ConceptGroup], name_term: bool,
                readings: list[TermReading], names: AliasLexicon | None = None) -> list[ConceptGroup]:
    if not left_out:
        return []
    if len(left_out) == 1:
        # A term that leaves a place out only searches more widely (回台北 beside 機場 is not
        # 桃園), unless the word is a name on its own, shares a character with the place or
        # writes it in another script.
        group = left_out[0]
        related = name_term or _shared_chars(word, group.expression) or _scripts_differ(word, group.expression)
        if names is not None and names.others(group.expression) and not names.same(word, group.expression) \
                and not (name_term or _shared_chars(word, group.expression)):
            # A thing whose names the alias lexicon gives: a word beside it is something else.
            return []
        return left_out if related or text.dictionary_tag(group.expression) != "ns" else []
    # A name on its own (安妮亞, WBC) or in the other script names the whole intent piece it
    # leaves out (間諜家家酒, 經典賽中華隊), or the whole of what another term writes in one run
    # (Tsuchinshan-ATLAS for 紫金山彗星, not Yuval Harari for 哈拉瑞 連結).
    one_piece = len({g.piece for g in left_out}) == 1 or _written_together(left_out, readings)
    other_script = all(_scripts_differ(word, g.expression) for g in left_out)
    if one_piece and (name_term or other_script):
        return left_out
    ranked = sorted(((_shared_chars(word, g.expression), i) for i, g in enumerate(left_out)), reverse=True)
    if ranked[0][0] and ranked[1][0] < ranked[0][0]:
        return [left_out[ranked[0][1]]]
    if name_term:
        # A name on its own (TotK, Eat Drink Man Woman) names what the other terms search most
        # (王國之淚, 飲食男女), when that is clear.
        searched = sorted(((sum(1 for r in readings if r.names(g)), i) for i, g in enumerate(left_out)), reverse=True)
        if searched[0][0] > searched[1][0]:
            chosen = left_out[searched[0][1]]
            # In the other script, it names the whole intent piece of that one (MH Wilds: 魔物獵人荒野).
            return [g for g in left_out if g.piece == chosen.piece and _scripts_differ(word, g.expression)] \
                if _scripts_differ(word, chosen.expression) else [chosen]
        # Else a Latin name that writes one of them by its sound names that one (Yuval Harari: 哈拉瑞).
        heard = [g for g in left_out if any(romanize.transliterates(e, w) for w in word.split(" ") for e in g.expressions)]
        if len(heard) == 1:
            return heard
        return _only_name_in_script(word, left_out)
    return []


def _only_name_in_script(word: str, left_out: list[ConceptGroup]) -> list[ConceptGroup]:
    """A name searched on its own, in the other script than the brief's only name in that script,
    is that name (漢密爾頓 for Hamilton, beside 音樂劇)."""
    foreign = [g for g in left_out if g.entity and _scripts_differ(word, g.expression)]
    return foreign if len(foreign) == 1 else []


def _written_together(groups: list[ConceptGroup], readings: list[TermReading]) -> bool:
    """Whether one term names all the groups within one stretch written without a space."""
    for reading in readings:
        for run in reading.runs:
            named = {id(g) for unit, hit in reading.hits if unit in run for g in hit}
            if all(id(g) in named for g in groups):
                return True
    return False


def _qualifying(group: ConceptGroup, searched_words: set[str]) -> list[str]:
    """The words of a group that make it a qualifier when one is very common: the intent's word and
    each alternative the member searched (出路, 薪水 or 工作 beside 營養師 say what of the topic is
    asked, as 工作 alone would), not the lexicons' other names (飛機 of 坐飛機)."""
    return [group.expression, *(e for e in group.aliases if e in searched_words)]


def mark_required(groups: list[ConceptGroup], readings: list[TermReading]) -> None:
    """Phase 5: each approved term is one search, and a post names what one of them searches,
    whole (`term_concepts`). So a concept every term names is required, and one only some terms
    name is not: those terms are the member's alternatives (花藝師 / 插花老師; 台中 皮膚科 /
    痘痘 皮膚科), while a term that writes concepts together needs them together (外包 後端). A
    concept the member searched without is not required, nor is a very common word beside other
    concepts or a generic head (工程師 after 後端). Where one of the alternatives is a single
    narrow concept (足底筋膜炎 beside 台中 骨科), the city the others name still holds: that
    search found posts from everywhere. Names each searched in a term of their own are
    sufficient: a post needs one of them, not all."""
    searched_words = {unit for reading in readings for unit in reading.units}
    for group in groups:
        common = not group.entity and len(groups) > 1 and any(
            text.has_cjk(e) and text.dictionary_frequency(e) >= OPTIONAL_MIN_FREQUENCY
            for e in _qualifying(group, searched_words))
        group.qualifier = group.qualifier or common
    searches = [r for r in readings if r.named]
    narrow_alone = [r for r in searches if len(concepts := _concepts_of(r)) == 1 and _specific(concepts[0])]
    for group in groups:
        in_every = all(r.names(group) for r in searches)
        # The city holds beside an alternative of another concept (足底筋膜炎 beside 台中 骨科), not
        # beside the same concept searched without it (咖啡展 beside 咖啡展 南港), nor its
        # abbreviation (漫博 beside 台北 漫畫博覽會).
        city_holds = group.expression in places() and any(r.names(group) for r in searches) and any(
            not r.names(group) and not any(s.names(group) and _searched_with(_concepts_of(r)[0], s, group) for s in searches)
            for r in narrow_alone)
        group.required = group.required and not group.qualifier and (in_every or city_holds)
    # Names the member searched each in a term of their own (無限城篇, 鬼滅; Showgirl, Taylor Swift):
    # by the member's own searches, any one of them finds the topic.
    # A year only dates what the terms name (2026 of 2026地方選舉): it is never one of them.
    alone = [g for g in groups if g.entity and not g.qualifier and any(r.named == [g] for r in readings)]
    if len(alone) >= 2:
        for group in alone:
            group.required = group.sufficient = True


def _searched_with(concept: ConceptGroup, reading: TermReading, place: ConceptGroup) -> bool:
    """Whether a term searches a concept beside a place: it names it, or abbreviates what it names."""
    return reading.names(concept) or _abbreviates_units(
        concept.expression, [g.expression for g in _concepts_of(reading) if g is not place])


def _concepts_of(reading: TermReading) -> list[ConceptGroup]:
    """The concepts a term searches, qualifiers (a year, a generic head) aside."""
    return [g for g in reading.named if not g.qualifier]


def _specific(group: ConceptGroup) -> bool:
    """A concept narrow enough to be searched for a request on its own: a name, or a compound the
    dictionary does not know (運動傷害), unlike a word of everyday use (室內, 雨天)."""
    return group.entity or not text.dictionary_frequency(group.expression)


def term_concepts(groups: list[ConceptGroup], readings: list[TermReading]) -> tuple[tuple[int, ...], ...]:
    """Phase 5: per term, the groups a post must all hit to name what that term searches. A term is
    one search, so a post found by it names all of it: 「台北 游泳課」 or 「成人 游泳」, not 游泳
    alone, though only 游泳 is in every term. A qualifier that is not required counts for no term;
    a term left with nothing to check (its words only refine the topic) is met by every post."""
    return tuple(tuple(i for i, g in enumerate(groups) if r.names(g) and (g.required or not g.qualifier))
                 for r in readings)


# A Chinese name that ends in a number from 1 to 10, and the Chinese numerals (folded).
_CHINESE_NUMBERED = re.compile(r"(.*[\u4e00-\u9fff])(10|[1-9])")
_NUMERALS = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十")


def widen(groups: list[ConceptGroup], names: AliasLexicon, words: AliasLexicon) -> None:
    """Phase 6: a group is also met by the other names of its names (Tai Tzu-ying for 戴資穎) and
    by the other words and the kinds of its concept (招募 for 徵才, 聯電 for 半導體), so a post is
    judged on its topic, not on the spelling the member happened to search. A common word never
    stands for a name (can_alias); the synonym lexicon holds concepts only, taken as written. A
    common concept is also met by its English senses (`glosses`), a name only by the English
    names the alias lexicon gives it."""
    for group in groups:
        written_names = list(group.expressions)
        # Only a concept written in Chinese alone takes the dictionary's English senses: one the
        # member or the alias lexicon also spells in Latin letters is a name, whatever the
        # dictionary says (乖乖 with Kuai Kuai, a snack), or already has its English. A word the
        # segmenter does not know, taken for a name, is a concept when this dictionary translates
        # it as a common word (浮潛: snorkeling).
        concept = not group.entity or (not text.dictionary_frequency(group.expression)
                                       and glosses.common_word(group.expression))
        translate = concept and not any(
            names.others(expression) or not text.has_cjk(expression) for expression in group.expressions)
        # The concept's own words are translated, not its kinds: a kind is often a name (聯電) or
        # a word of many senses (外場 of 餐飲業: the outfield).
        concept_words = list(group.expressions)
        if group.entity:
            # A name of the brief as English posts spell it (Peng Chi-ming for 彭啟明, Donggang),
            # and a Latin name of three words or more by its initials (MKW for Mario Kart World).
            for expression in concept_words:
                for spelling in (*romanize.spellings(expression, person=segment.is_personal(expression)),
                                 *romanize.place_names(expression)):
                    group.add_alias(spelling)
                latin = segment.content_words(expression)
                if len(latin) < 3 or not all(w.isascii() and w.isalpha() for w in latin):
                    continue
                # With or without the words that only join (HMHAS and HMHS of Hit Me Hard and Soft);
                # initials the alias lexicon gives to another thing (BMW of Black Myth Wukong) name that one.
                for initials in {"".join(w[0] for w in latin), "".join(w[0] for w in expression.split())}:
                    if not names.others(initials):
                        group.add_alias(initials)
        for expression in list(group.expressions):
            for name in (*_other_names(expression, group, names), *_renamed_compound(expression, group, names)):
                group.add_alias(name)
            if group.entity and (numbered := _CHINESE_NUMBERED.fullmatch(expression)):
                # A title's number is written in either kind of numeral (邊緣禁地4, 邊緣禁地四).
                group.add_alias(numbered.group(1) + _NUMERALS[int(numbered.group(2))])
        # Its names in Chinese characters, before the words and kinds of its concept join them.
        written = [e for e in group.expressions if text.has_cjk(e)]
        # The words and kinds of every name, the lexicon's too (the characters of 鬼滅之刃 for 鬼滅).
        for expression in list(group.expressions):
            synonyms = words.others(expression)
            concept_words += map(text.fold, synonyms)
            for word in (*synonyms, *words.kinds(expression)):
                group.add_alias(text.fold(word))
                # A kind or part goes by its own other names too (阿信 for 陳信宏, of 五月天).
                for name in _other_names(text.fold(word), group, names):
                    group.add_alias(name)
        if group.entity:
            for short in filter(None, map(_without_article, written_names)):
                group.add_alias(short)
            # A name the brief writes, read head last: its beginning before a word of the dictionary
            # is posts' short name for it.
            for short in filter(None, (_before_head(name, (names, words)) for name in written_names)):
                group.add_alias(short)
            # A name that begins with a place, without it: posts there leave it unsaid (雪燈之路 of
            # 小樽雪燈之路); three characters at least, no number (not 101 of 台北101).
            for short in filter(None, map(unplaced, written_names)):
                if len(short) >= 3 and all(map(text.has_cjk, short)):
                    group.add_alias(short)
            # Of every name, the member's and the lexicons' alike (愛純 of 吳愛純, a character of 苦盡柑來遇見你).
            for given in filter(None, map(_given_name, list(group.expressions))):
                group.add_alias(given)
            # A person also by the surname and an office (侯市長 for 侯友宜).
            for expression in list(group.expressions):
                if segment.is_personal(expression):
                    for office in _OFFICES:
                        group.add_alias(expression[0] + office)
            # A person's English given name, which English posts write alone (Greg of Greg Hsu for
            # 許光漢); not one that is an English word as well (Crowd of Crowd Lu).
            surnames = {s for e in group.expressions if segment.is_personal(e) for s in romanize.syllables(e[0])}
            for expression in list(group.expressions):
                given, _, surname = expression.partition(" ")
                if surname in surnames and given.isascii() and given.isalpha() and len(given) >= MIN_GIVEN_LETTERS \
                        and not glosses.english_word(given):
                    group.add_alias(given)
            # A foreign name in Latin letters by the word its Chinese name writes by sound, which
            # posts write alone (Harari of Yuval Harari, for 哈拉瑞); not an English word (Musk).
            for word in dict.fromkeys(w for e in group.expressions if " " in e and e.isascii() for w in e.split(" ")):
                if not glosses.english_word(word) and any(romanize.transliterates(e, word) for e in written):
                    group.add_alias(word)
        if translate:
            # A common concept in English too (fireworks for 煙火, camp for 營地), as a post in
            # English writes it.
            for word in concept_words:
                for sense in glosses.english(word):
                    group.add_alias(sense)


def name_cut_pieces(groups: list[ConceptGroup], pieces: list[Piece], names: AliasLexicon,
                    words: AliasLexicon) -> None:
    """Phase 6: a piece of the intent or of a term cut into several groups (台北 國際 電玩展) that
    is, whole, a name of the alias lexicon is also written by that name's other names, which no
    cut of them finds in a post (Taipei Game Show): each group of the piece takes them. So does a
    run of its units that is a concept of the synonym lexicon, with its other words and kinds
    (寵物 友善: pet friendly, 可以帶狗)."""
    for piece in pieces:
        if len(piece.units) < 2:
            continue
        runs = [(piece.units, names.others(text.fold(piece.text))), *_concept_runs(piece.units, words)]
        for units, others in runs:
            for group in groups:
                if any(unit in group.expressions for unit in units):
                    for name in others:
                        group.add_alias(text.fold(name))


def _concept_runs(units: tuple[str, ...], words: AliasLexicon) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each run of two units or more, with the other words and kinds the synonym lexicon gives it whole."""
    for start in range(len(units)):
        for end in range(start + 2, len(units) + 1):
            whole = "".join(units[start:end])
            yield units[start:end], (*words.others(whole), *words.kinds(whole))


def _other_names(expression: str, group: ConceptGroup, names: AliasLexicon) -> list[str]:
    # Two Latin letters name many things (FF: a fair, a game): no other names from them.
    if not _distinctive(expression):
        return []
    return [name for name in map(text.fold, names.others(expression)) if can_alias(name, group) and _distinctive(name)]


def _renamed_compound(expression: str, group: ConceptGroup, names: AliasLexicon) -> list[str]:
    """A Chinese compound that begins with a name, written with the name's other Chinese names
    (怪物獵人荒野 for 魔物獵人荒野, as 怪物獵人 is 魔物獵人's)."""
    if not text.has_cjk(expression):
        return []
    # Each beginning that leaves at least two characters after it, looked up in the lexicon.
    return [other + expression[end:] for end in range(1, len(expression) - 1)
            for other in _other_names(expression[:end], group, names) if text.has_cjk(other)]


# Offices a person is called by after the surname (侯市長, 韓院長, 郭董), folded: an office has one
# holder at a time, where a surname and a teacher, a doctor or a coach are many people.
_OFFICES = tuple(text.fold(t) for t in (
    "市長", "縣長", "院長", "部長", "局長", "署長", "總統", "副總統", "主席", "董事長", "董", "執行長", "總經理"))


# A name's head after its beginning: a word of the dictionary, a number before it (24小時).
_HEAD = re.compile(r"[0-9]*([\u4e00-\u9fff]{2,})")
# The dictionary's tags of names: a name after a name is the rest of it (波特 of 哈利波特), no head.
_NAME_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt"})


def _before_head(expression: str, lexicons: tuple[AliasLexicon, ...]) -> str | None:
    """A name's beginning that posts write alone for it, before its head: two characters or more
    holding no common word and beginning no word of the dictionary, before a word of it, a number
    before it or not (柏捷頓 of 柏捷頓家族, 格拉斯頓伯里 of 格拉斯頓伯里音樂節, 利曼 of 利曼24小時).
    A beginning of common words (大塊 of 大塊文化, 世界咖啡 of 世界咖啡大師), of a longer word (龍捲 of
    龍捲風暴, as in 龍捲風), a place (東港 of 東港迎王) or a thing the lexicons know (麥塊 of 麥塊電影,
    台積電 of 台積電董事長: a title says whose) is something else."""
    for end in range(2, len(expression) - 1):
        short, head = expression[:end], _HEAD.fullmatch(expression, end)
        if head and text.dictionary_frequency(head.group(1)) and text.dictionary_tag(head.group(1)) not in _NAME_TAGS \
                and head.group(1) not in segment.titles() and not any(lexicon.others(short) for lexicon in lexicons) \
                and all(map(text.has_cjk, short)) and text.begins_no_word(short) \
                and not any(short[:stop] in places() for stop in range(2, end + 1)) and not any(
                    text.dictionary_frequency(short[i:j]) >= ALIAS_MAX_FREQUENCY
                    for i in range(end) for j in range(i + 2, end + 1)):
            return short
    return None


def _without_article(expression: str) -> str | None:
    """A Latin name after "the", as posts write it without (sims of the sims); not when what is
    left is one English word (boys of the boys)."""
    rest = expression[4:] if expression.startswith("the ") and expression.isascii() else ""
    return rest if rest and not glosses.one_english_word(rest) else None


def _given_name(expression: str) -> str | None:
    if not segment.is_personal(expression):
        return None
    # A given name that is a word of its own (英文 of 蔡英文) says that word, whatever its tag.
    given = expression[1:]
    return given if text.dictionary_frequency(given) < ALIAS_MAX_FREQUENCY else None


def _distinctive(name: str) -> bool:
    return text.has_cjk(name) or len(name.replace(" ", "")) >= 3
