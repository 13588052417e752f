"""The topic signature (flow C): what a post must talk about to belong to a brief.

Built from the original intent and the approved search terms only:

* Colloquial anchors (推薦、心得、分享、最新、熱門、請問 and their kin) and filler words are
  removed first; they are how people phrase a search, never evidence of a topic.
* The intent is cut into concept groups. Approved terms that tile an intent piece (外包 + 後端工程師
  in 外包後端工程師) split it where they say; otherwise jieba's dictionary cuts it, and runs of
  single characters it cannot place (an unknown name such as 鬼滅之刃) stay one unit with their
  neighbour, so a name is never required piecewise.
* Every group is required, except a very common word beside other groups (國際、產業), which only
  adds to the score.
* Approved terms add aliases: a shortened form of a group (鬼滅 for 鬼滅之刃), or, when a term
  covers every group but one, its remaining words stand for that group (接案 for 外包 in
  "後端 接案"). A common dictionary word never becomes an alias: "動畫" can't stand for a title.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from scout.pipeline import text

# Kept in Traditional Chinese as people write them; folded at import.
_ANCHOR_WORDS = (
    "推薦 心得 分享 最新 熱門 請問 討論 評價 評論 開箱 經驗 感想 看法 整理 懶人包 清單 排行 排名 必看 必買 必吃 "
    "好用 好看 好吃 介紹 資訊 消息 情報 新聞 相關 話題 動態 趨勢 近況 最近 今天 今年 大家 有人 有沒有 想問 請益 "
    "一下 哪裡 哪個 哪些 什麼 怎麼 如何 教學 攻略 實測 比較 全攻略 爆料 網友 有感 真心 超級 值得 分析"
)
_FILLER_WORDS = (
    "想找 想看 想知道 關於 有關 的 了 和 與 及 跟 或 是 嗎 呢 吧 啊 喔 耶 我們 你們 一些 各種 所有 任何 這個 那個 "
    "這些 那些 可以"
)
ANCHORS = frozenset(text.fold(word) for word in _ANCHOR_WORDS.split())
FILLERS = frozenset(text.fold(word) for word in _FILLER_WORDS.split())
# Longest first, so 全攻略 goes before 攻略.
_ANCHOR_PATTERN = re.compile("|".join(sorted((re.escape(a) for a in ANCHORS if len(a) >= 2), key=len, reverse=True)))
_LATIN_RUN = re.compile(r"[a-z0-9][a-z0-9.+#&'_-]*(?: [a-z0-9][a-z0-9.+#&'_-]*)+")
_SEPARATORS = re.compile(r"[\s,，、/|+&·・;:()\[\]【】「」『』《》〈〉\"'“”‘’!?。~#@…—-]+")

# A word at least this common in jieba's dictionary is generic vocabulary: it may not alias a
# named entity, and beside other groups it is optional.
ALIAS_MAX_FREQUENCY = 100
OPTIONAL_MIN_FREQUENCY = 5000
# A dictionary word this common is a real word when it is left over between approved terms.
WORD_MIN_FREQUENCY = 50


class NoTopicEvidence(ValueError):
    """The brief has nothing left once anchors and fillers are removed (e.g. only 推薦 心得)."""


@dataclass
class ConceptGroup:
    expression: str  # folded form as cut from the intent
    aliases: list[str] = field(default_factory=list)
    required: bool = True

    @property
    def expressions(self) -> list[str]:
        return [self.expression, *self.aliases]



@dataclass(frozen=True)
class TopicSignature:
    groups: tuple[ConceptGroup, ...]
    # The intent's pieces as written (folded): all of one in a row is the strongest evidence.
    phrases: tuple[str, ...]
    # The intent and terms as written, to show concepts in the member's own spelling.
    written: tuple[str, ...] = ()

    def label(self, word: str) -> str:
        return text.original_spelling(word, list(self.written))

    @property
    def required(self) -> tuple[ConceptGroup, ...]:
        return tuple(g for g in self.groups if g.required)

    @property
    def words(self) -> list[str]:
        """Every expression, for the candidate tokenizer's dictionary."""
        return sorted({e for g in self.groups for e in g.expressions})


def _pieces(raw: str) -> list[str]:
    """Folded pieces of a phrase with anchors and fillers taken out (they split where they were)."""
    folded = _ANCHOR_PATTERN.sub(" ", text.fold(raw))
    pieces: list[str] = []
    # Latin words written apart belong together (Demon Slayer, iPhone 16): one piece each run.
    folded = _LATIN_RUN.sub(lambda m: m.group(0).replace(" ", "\x00"), folded)
    for chunk in _SEPARATORS.split(folded):
        if "\x00" in chunk:
            pieces.append(chunk.replace("\x00", " "))
            continue
        if not chunk:
            continue
        current = ""
        for token in text.base_cut(chunk):
            if token in FILLERS or token in ANCHORS or not token.strip():
                if current:
                    pieces.append(current)
                current = ""
            else:
                current += token
        if current:
            pieces.append(current)
    return [p for p in pieces if len(p) >= 2 or (p.isascii() and p.isalnum())]


def _is_word(segment: str) -> bool:
    return text.is_ascii_word(segment) or text.dictionary_frequency(segment) >= WORD_MIN_FREQUENCY


def _tiled_by_terms(piece: str, term_pieces: list[str]) -> list[str] | None:
    """Units of `piece` when approved terms cut it into real words, else None."""
    found: list[tuple[int, int]] = []
    for term in sorted((t for t in term_pieces if t != piece), key=len, reverse=True):
        start = piece.find(term)
        while start >= 0:
            end = start + len(term)
            if all(end <= s or start >= e for s, e in found):
                found.append((start, end))
                break
            start = piece.find(term, start + 1)
    if not found:
        return None
    found.sort()
    units: list[str] = []
    position = 0
    for start, end in found:
        gap = piece[position:start].strip()
        if gap:
            if not _is_word(gap):
                return None
            units.append(gap)
        units.append(piece[start:end])
        position = end
    tail = piece[position:].strip()
    if tail:
        if not _is_word(tail):
            return None
        units.append(tail)
    return units


def _dictionary_units(piece: str) -> list[str]:
    """Units from jieba's dictionary; runs of single characters join their neighbour."""
    units: list[str] = []
    run = ""
    for token in (t for t in text.base_cut(piece) if t.strip()):
        ascii_word = token.isascii() and token.isalnum()
        if not ascii_word and (len(token) < 2 or text.dictionary_frequency(token) == 0):
            run += token
            continue
        if run and units and not units[-1].isascii():
            units[-1] += run
        elif run and not ascii_word:
            token = run + token
        elif run:
            units.append(run)
        run = ""
        units.append(token)
    if run and units and not units[-1].isascii():
        units[-1] += run
    elif run:
        units.append(run)
    return units


def _units(piece: str, term_pieces: list[str]) -> list[str]:
    return _tiled_by_terms(piece, term_pieces) or _dictionary_units(piece)


def _can_alias(word: str) -> bool:
    return len(word) >= 2 and (not text.has_cjk(word) or text.dictionary_frequency(word) < ALIAS_MAX_FREQUENCY)


def _is_common(group: ConceptGroup) -> bool:
    """A very common word (國際、產業): beside other groups it only adds to the score."""
    return text.has_cjk(group.expression) and text.dictionary_frequency(group.expression) >= OPTIONAL_MIN_FREQUENCY


def _shared_chars(a: str, b: str) -> int:
    return len(set(a) & set(b))


def _add_alias(group: ConceptGroup, alias: str) -> None:
    if alias != group.expression and alias not in group.aliases and _can_alias(alias):
        group.aliases.append(alias)


def build_signature(intent: str, terms: list[str] | tuple[str, ...]) -> TopicSignature:
    intent_pieces = _pieces(intent)
    term_piece_lists = [_pieces(term) for term in terms]
    all_term_pieces = sorted({p for pieces in term_piece_lists for p in pieces})
    if not intent_pieces:
        # An intent made only of anchors: the approved terms carry the topic.
        intent_pieces = next((pieces for pieces in term_piece_lists if pieces), [])
    if not intent_pieces:
        raise NoTopicEvidence("the brief names no topic once colloquial words are set aside")

    groups: list[ConceptGroup] = []
    # Where each group sits in the intent, so a term spelling part of the intent (台北馬 in
    # 台北馬拉松, 鬼滅 in 鬼滅之刃) can be matched to every group it touches.
    spans: list[tuple[str, int, int, int]] = []
    for piece in intent_pieces:
        position = 0
        for unit in _units(piece, all_term_pieces):
            start = piece.find(unit, position)
            position = start + len(unit) if start >= 0 else position
            index = next((i for i, g in enumerate(groups) if g.expression == unit), None)
            if index is None:
                groups.append(ConceptGroup(expression=unit))
                index = len(groups) - 1
            if start >= 0:
                spans.append((piece, start, start + len(unit), index))
        # Latin words cut into several groups are often written joined (AppleWatch): the whole
        # run, matched with or without its spaces, stands for each of them.
        if " " in piece and not text.has_cjk(piece):
            for _piece, _start, _end, index in (s for s in spans if s[0] == piece):
                if groups[index].expression != piece:
                    _add_alias(groups[index], piece)

    # Groups the approved terms show to be interchangeable are merged into one (see _merge_pairs).
    owner = list(range(len(groups)))

    def find(index: int) -> int:
        while owner[index] != index:
            index = owner[index]
        return index

    def touched(term_piece: str) -> set[int]:
        found = {i for i, g in enumerate(groups) if g.expression in term_piece}
        for piece, start, end, index in spans:
            at = piece.find(term_piece)
            if at >= 0 and at < end and at + len(term_piece) > start:
                found.add(index)
        return {find(i) for i in found}

    def named_by_terms() -> list[set[int]]:
        """The groups named by each approved term made only of intent groups."""
        named = [[touched(p) for p in pieces] for pieces in term_piece_lists]
        return [set().union(*hits) for hits in named if hits and all(hits)]

    for keep, merge in _merge_pairs(groups, named_by_terms):
        owner[merge] = keep
        groups[keep].aliases.extend(e for e in groups[merge].expressions if e not in groups[keep].aliases)

    live = [i for i in range(len(groups)) if find(i) == i]
    coverage = dict.fromkeys(live, 0)
    term_covered: list[set[int]] = []
    term_unmatched: list[list[str]] = []
    for pieces in term_piece_lists:
        covered: set[int] = set()
        unmatched: list[str] = []
        leftovers: list[str] = []
        for piece in pieces:
            hit = touched(piece)
            for index in hit:
                if piece in intent_pieces or groups[index].expression in piece:
                    continue
                _add_alias(groups[index], piece)
            covered |= hit
            if not hit:
                unmatched.append(piece)
            elif piece not in intent_pieces:
                rest = piece
                for index in hit:
                    for expression in groups[index].expressions:
                        rest = rest.replace(expression, " ")
                leftovers.extend(w for w in rest.split() if len(w) >= 2 and text.has_cjk(w))
        missing = [i for i in live if i not in covered and not (len(live) > 1 and _is_common(groups[i]))]
        # The term's other words stand for the groups it leaves out: all of them for a single
        # missing group, otherwise each word for the missing group it shares characters with.
        for piece in unmatched:
            if len(missing) == 1:
                target = missing[0]
            else:
                ranked = sorted(((_shared_chars(piece, groups[i].expression), i) for i in missing), reverse=True)
                if not ranked or ranked[0][0] == 0 or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
                    continue
                target = ranked[0][1]
            if _can_alias(piece):
                _add_alias(groups[target], piece)
                covered.add(target)
        # What a term adds to a group it names is another spelling of a group it leaves out when
        # most of its characters come from it: 雞肉飯 in 嘉義雞肉飯 for 火雞肉飯.
        for word in leftovers:
            ranked = sorted(((_shared_chars(word, groups[i].expression), i) for i in missing), reverse=True)
            if ranked and ranked[0][0] * 2 >= len(word) and (len(ranked) == 1 or ranked[1][0] < ranked[0][0]) \
                    and _can_alias(word):
                _add_alias(groups[ranked[0][1]], word)
                covered.add(ranked[0][1])
        term_covered.append(covered)
        term_unmatched.append(unmatched)

    # A term naming nothing in the intent, written in the other script than the intent piece the
    # other terms search most, is that piece's name in translation (Elephant Gym for 大象體操,
    # 蘋果手錶 for Apple Watch): it stands for every group of the piece.
    piece_groups: dict[str, set[int]] = {}
    for piece, _start, _end, index in spans:
        piece_groups.setdefault(piece, set()).add(find(index))
    for covered, unmatched in zip(term_covered, term_unmatched, strict=True):
        if covered or not unmatched:
            continue
        searched = sorted(((sum(1 for c in term_covered if c & members), piece)
                           for piece, members in piece_groups.items()), reverse=True)
        if not searched or searched[0][0] == 0 or (len(searched) > 1 and searched[1][0] == searched[0][0]):
            continue
        piece = searched[0][1]
        if any(text.has_cjk(word) == text.has_cjk(piece) or not _can_alias(word) for word in unmatched):
            continue
        for word in unmatched:
            for index in piece_groups[piece]:
                _add_alias(groups[index], word)
        covered |= piece_groups[piece]

    for covered in term_covered:
        for index in covered:
            coverage[index] += 1
    groups = [groups[i] for i in live]
    coverage_list = [coverage[i] for i in live]

    # A concept every approved term keeps is required; one the member searched without is
    # not. When no concept is in every term, those kept most often are required.
    most = max(coverage_list) if coverage_list else 0
    needed = len(term_piece_lists) if most == len(term_piece_lists) else most
    for index, group in enumerate(groups):
        group.required = coverage_list[index] >= needed if most else True
        if len(groups) > 1 and _is_common(group):
            group.required = False
    if not any(g.required for g in groups):
        for index, group in enumerate(groups):
            group.required = coverage_list[index] == most
    return TopicSignature(groups=tuple(groups), phrases=tuple(intent_pieces), written=(intent, *terms))


def _merge_pairs(groups: list[ConceptGroup], named_by_terms: Callable[[], list[set[int]]]) -> Iterator[tuple[int, int]]:
    """Intent groups the member treats as one concept, as (kept, merged) pairs; the caller merges
    each pair before the next is looked for.

    Two approved terms made of intent groups only and the same but for one group each (半導體 徵才
    / 半導體 職缺, 日文翻譯 兼職 / 日文翻譯 接案) show those two groups are interchangeable, as long
    as no term asks for both. A term with a word of its own (京都 自由行 楓葉) says nothing here:
    that word may stand for the group it seems to leave out. With nothing else in common the two terms are interchangeable only when they
    name one thing in two scripts (LANEIGE / 蘭芝); two bare concepts in one script (外包 /
    後端工程師) may still both be wanted.
    """
    while True:
        named = named_by_terms()
        found = None
        for a in named:
            for b in named:
                only_a, only_b = a - b, b - a
                if len(only_a) != 1 or len(only_b) != 1:
                    continue
                x, y = next(iter(only_a)), next(iter(only_b))
                if any(x in n and y in n for n in named):
                    continue
                scripts_differ = text.has_cjk(groups[x].expression) != text.has_cjk(groups[y].expression)
                if a & b or scripts_differ:
                    found = (min(x, y), max(x, y))
                    break
            if found:
                break
        if not found:
            return
        yield found
