"""Proposed search terms for a topic (建議搜尋詞, docs/scout.md 4.2): the member reviews them
before the scan, and they become the evidence the topic signature is built from.

The intent is cut the way the signature cuts it (framing and function words out), so a request
typed as people type it (「想追戴資穎最近的比賽」) proposes its core, not itself repeated:

1. the core concepts, each written as the member wrote it and set apart by spaces
   (「外包後端設計師」 → 外包 後端 設計師), at most `MAX_CONCEPTS` of the most specific;
2. where the core holds one name among common words, narrower searches: in a sentence the name
   alone (what the sentence asks about it only scores), else the name beside each other concept
   in turn (BLACKPINK 高雄, BLACKPINK 演唱會), and the name alone where the member typed it first
   as a keyword, so a post with the name and one of them ranks first; in a
   sentence of three concepts and no one name, each two of them;
3. the same with a concept's usual other names from the alias lexicon (小戴, Tai Tzu-ying for
   戴資穎), or the other name the intent itself gives (蔡依林 for Jolin);
4. the core in Simplified characters, which posts written that way are found by, kept last
   however many other names come before it.

An other name replaces its concept in a term that keeps every concept the proposal requires, so
the signature built from the proposed terms still requires each of them; a concept the signature
only scores (比賽 beside 戴資穎) stays in the core term alone.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from scout.brief import MAX_TERMS
from scout.pipeline import glosses, text
from scout.pipeline.aliases import AliasLexicon, is_place, lexicon, places, unplaced
from scout.pipeline.signature import NoTopicEvidence, build_signature
from scout.pipeline.signature.concepts import is_generic_head, is_year
from scout.pipeline.signature.segment import (CLAUSE, KIND_ENDINGS, PHRASE, NAME_MAX_FREQUENCY, WHOLE_MAX_CHARS, Piece, Segmenter, bears_title, chunks, compound_parts, framing_words,
                                              bare_clause, bracketed_names, is_common_word, is_framing, is_personal, is_proper_noun, parts_around_names, quoted_titles,
                                              titles, turns_away, without_titles)

# More concepts than this make a search term too narrow to find anything; the most specific stay.
MAX_CONCEPTS = 3
# A year at either end of a run, beside what it dates (folded).
_YEAR_BESIDE = re.compile(r"^(?:19|20)\d\d\s*(?=\D)|(?<=\D)\s*(?:19|20)\d\d$")
# What a clause that asks for a thing starts its object with (folded; not 想看 or 想知道, which
# ask about a topic, where the words after 的 say what of it), and where clauses end.
_ASKING = ("找", "推荐", "求", "有没有", "请问")
# Who a request may ask for instead of a thing (folded): 有沒有人, 找大家聊, 找各位.
_PEOPLE = ("人", "大家", "各位", "网友", "同好", "过来人")
# Wanting to become something (folded): 想當, 想去當, 想轉行當.
_BECOMING = re.compile(r"想(?:要|去|转行|转职|回乡|改)?当")
# Words of a clause that asks or wants (folded).
_WANTING = ("想", "求", "找", "推荐", "请问", "哪", "怎", "如何", "什么", "多少", "谁", "是不是", "有没有", "吗", "呢")
# A question word before 都 says "anything", asking nothing (什麼都不讓我擦, 哪裡都去過).
_ANYTHING = re.compile(r"(?:什么|哪里|哪|谁|怎么)都")
# What joins options in a list (folded): 長榮、華航或星宇, 搭高鐵還是地鐵.
_OPTION_MARKS = ("、", "或", "还是")
# Words after a stretch that make it a time (folded): 之後, 以後, 之前, 以前.
_OCCASION = ("之后", "以后", "之前", "以前")
# How a clause that adds what else would do ends (folded).
_EXTRA_ENDINGS = ("也可以", "都可以", "也行", "都行", "也想看", "也想知道", "也想听", "更好", "也欢迎")
# A clause of what is not wanted that only points back (folded): 那些就不用了, 這種的不要.
_POINTED_AWAY = re.compile(r"(?:那|这)(?:些|种|类)")
# Marks that close a title or a quote (《我是遺物整理師》之後).
_CLOSING = "》〉」』\"'）)"
# What points back at something named before (folded).
_POINTER = re.compile(r"[他她它牠]|这(?:部|本|款|间|家|位|个|支|场|件|系列|张)")
# What points back at a thing or a person told before (folded); not 這個 alone, which a question
# also puts after what it names (網咖這個產業), only before a kind of work (這個節目, 這個牌子).
_BACK = re.compile(r"(?<!其)[他她它牠](?!们)|这(?:部|本|款|间|家|位|支|场|件|系列|张|个(?:节目|频道|牌子|品牌|游戏|影集))")
# The end of a sentence that tells, not asks (folded).
_STORY_END = re.compile(r"[。！!]")
# A clause that asks to read about something (folded): 想看, 想多了解, 想知道, 想聽, 想追蹤, 請問, 求分享,
# 有沒有, 好奇大家, or that opens with 好奇 (not 「…很好奇」, which tells).
_READING = re.compile(r"想(?:多|再|先|要)?(?:看|了解|知道|听|问|找|请(?:问|教|大家|各位)|聊|读|追)|请问|求(?:分享|推荐|推|问)|有没有|好奇大家|^好奇")
# Kin named after whose they are (folded): 的女兒, 的老公.
_KIN = re.compile(r"的(?:女儿|儿子|老婆|老公|太太|妻子|丈夫|爸爸|妈妈|父亲|母亲|哥哥|姐姐|姊姊|弟弟|妹妹|孙子|孙女|女友|男友|前妻|前夫)")
# What a question asks people to tell about (folded): after 對, 關於, 聊 or the people asked, up to
# what they tell.
_ABOUT = re.compile(r"(?:对|关于|聊|(?:大家|其他人|网友|各位)(?!对|关于|聊))(?P<object>.+?)的?"
                    r"(?:心得|讨论|评价|看法|经验|感想|近况|消息|回忆|想法|分享)")
# A clause where the member tells who they are or where they live, work or study (folded).
_SELF = re.compile(r"我(?:是|住|在.*(?:上班|工作|念|读|教|当|做))")
# A pronoun that points back at a person (folded).
_PERSON_POINTER = re.compile(r"(?<!其)[他她](?!们)|这位")
# A pointer back at a line of work (folded): 這行, 這份工作, 這個產業.
_KIND_POINTER = re.compile(r"这(?:一)?(?:行(?!程)|份工作|个工作|个职业|个产业|个行业)")
# Last characters of the work one does or is (folded): 聽力師, 救護員, 鎖匠, 水電工.
_WORKER_ENDINGS = frozenset("师员匠工手")
# Last characters of a trade (folded): the worker's, and 家 of 插畫家, 作家.
_TRADE_ENDINGS = _WORKER_ENDINGS | {"家"}
# A name of one letter before a number of two digits or more (A24), not a code (5G, 4K).
_LETTER_NUMBER = re.compile(r"[a-z][0-9]{2,}")
# What people tell, after whose it is (folded): 設計師的分享, 醫師的看法.
_TELLING = ("分享", "看法", "意见", "说法", "建议")
# What comes before the work one does or is (folded): 做字幕翻譯, 當船員.
_ROLE = ("做", "当")
# What comes right before the work people are asked by (folded): 做, 當, 做過.
_DOING_WORK = re.compile(r"(?:做|当)过?$")
# A pointer back at a work or a product (folded): 這部, 這本, 這款, 這系列, 這張 (an album), 這個節目.
_WORK_POINTER = re.compile(r"这(?:部|本|款|系列|张|个(?:节目|频道|牌子|品牌|游戏|影集))")
# What joins two things a clause lists (folded).
_AND = ("跟", "和")
_MONTH = re.compile(r"^[0-9一二三四五六七八九十]{1,3}月$")
_SENTENCE_MARK = re.compile(r"[，。？！?!]")
# jieba's tags of verbs and set phrases.
_DOING_TAGS = frozenset("vl")


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
    # The other name the member gives a name in brackets is one more line of the lexicon.
    aliases = (aliases or lexicon()).with_names(bracketed_names(intent))
    titles = quoted_titles([intent])
    # The lexicon's names written in the intent, and the titles it sets in title marks, stay whole
    # (台北車站, Tai Tzu-ying, 《喵的奇幻漂流》).
    folded = text.fold(intent)
    segmenter = Segmenter([*_written_names(aliases, folded), *titles, *_lone_word(folded), *_beside_latin(intent),
                           *_in_characters(folded), *_typed_first(intent), *_typed_whole(intent)], titles)
    pieces = segmenter.pieces(intent)
    if not pieces:
        raise NoTopicEvidence("the intent names no topic once colloquial words are set aside")
    framed = _framed(intent, segmenter)
    # A year is left out of the topic (posts seldom write it) unless it is all there is.
    concepts = _core(_place_led(_topic(pieces, segmenter, intent, folded, aliases, framed), aliases, intent)) or _concepts(
        pieces, segmenter, intent, years=True)
    for concept in concepts:
        # A place is searched as posts write it; its other names (天龍國, Formosa) find little more.
        if not is_place(concept.folded):
            for name in aliases.others(concept.folded):
                concept.add(name)
            if concept.names[1:] and (without_place := unplaced(concept.folded)):
                # Posts name a thing of the lexicon without the place it begins with (美食展 of
                # 台灣美食展, not 馬拉松 of 台北馬拉松).
                concept.add(text.original_spelling(without_place, [intent], keep_case=True))
            thing = _before_generic_head(concept.folded)
            if thing:
                # A generic head only says what kind of thing it is: posts name the thing without it
                # (電競 of 電競產業, 外送 of 外送平台, 徵才 of 徵才博覽會, 拼豆 of 拼豆店).
                concept.add(concept.names[0][:len(thing)])
            product = _without_maker(concept.names[0], aliases)
            if product:
                # Posts name a product without its maker (Pixel 10 of Google Pixel 10).
                concept.add(product)

    core = " ".join(c.names[0] for c in concepts)
    # What the signature of the core requires; a concept it only scores (比賽 beside 戴資穎) is left
    # out of the other names' terms, which then find every post of the name.
    required = {e for g in build_signature(intent, [core]).required for e in g.expressions}
    narrower: list[str] = []
    anchor = _anchor(concepts, segmenter, aliases, folded, framed, titles)
    keywords = _searched(concepts, framed, folded)
    if not framed and len(alternatives := _alternatives(
            keywords, lambda c: _given_name(c, segmenter, aliases, folded))) > 1 and not _aspects_of(anchor, alternatives):
        # Keywords of one field or head name kinds of one thing, which posts name one at a time,
        # each beside the other keywords (碳權 碳費; 台北 台中 牙醫: 台北 牙醫, 台中 牙醫); keywords
        # unlike each other must all hold (外包 後端).
        rest = [c for i, keyword in enumerate(keywords) if not any(keyword is a for a in alternatives)
                and not _aspect_after(i, keyword, keywords, alternatives) for c in keyword]
        narrower = [" ".join(c.names[0] for c in [*keyword, *rest]) for keyword in alternatives]
    elif anchor is not None:
        others = [c for c in concepts if c is not anchor]
        placed = any(is_place(c.folded) and _same_clause(folded, c, anchor) for c in others)
        if not (placed and (framed or not _unmistakable(anchor) or not all(is_place(c.folded) for c in others))):
            # What a request asks about its one name only scores: the name alone finds the posts
            # that write it without the rest (想看大家對許光漢新片的評價, 張金鶚 房價: 許光漢, 張金鶚),
            # and so does a place in another clause, where the member only says where they are
            # going (下個月要去京都，想看大家怎麼評價林氏璧的攻略), or places that are all the
            # keywords give beside a name no dictionary knows, where the name is (京都 祇園祭,
            # Olive Young 首爾): a post naming another place instead is still turned away.
            required = {text.fold(n) for n in anchor.names}
            narrower = [anchor.names[0]]
        elif len(others) > 1:
            # The name beside each other concept in turn: a post with the name and one of them
            # ranks first (BLACKPINK 高雄 演唱會: BLACKPINK 高雄, BLACKPINK 演唱會).
            narrower = [" ".join(c.names[0] for c in concepts if c is anchor or c is other) for other in others]
            if not framed and _led_by_name(anchor, keywords):
                # The name alone finds the posts that write none of the rest, ranked below those that do.
                narrower.append(anchor.names[0])
    elif framed and len(concepts) == 2 and not any(is_place(c.folded) for c in concepts):
        # A sentence about one thing says something of it: the first thing it names is the topic,
        # the rest only scores (健身房業者的現況: 健身房).
        required = {text.fold(n) for n in concepts[0].names}
        narrower = [concepts[0].names[0]]
    elif len(keywords) > 2:
        # A request names what it talks about, which a post seldom writes all of: any two of what it
        # searches find it (公寓浴室翻新: 公寓 浴室, 公寓 翻新, 浴室 翻新; 台中 皮膚科 痘痘).
        narrower = _any_two(keywords) + ([] if framed else _first_keyword(keywords))

    if not narrower and not framed and (kept := _without_aspect(concepts, keywords)):
        # A common word standing as a keyword after the topic says what of it is asked (麵包師傅 收入,
        # 牙套 費用): the keywords before it are searched without it, and it only scores.
        required = {text.fold(n) for c in kept for n in c.names}
        narrower = [" ".join(c.names[0] for c in kept)]
    if not narrower and not framed and (kept := _without_doing(keywords)):
        # A keyword that is a verb says what is done with the topic, which posts on it seldom write
        # (漢神巨蛋 逛街, 綜所稅 申報): the other keywords are searched without it, and it only scores.
        required = {text.fold(n) for c in kept for n in c.names}
        narrower = [" ".join(c.names[0] for c in kept)]
    if not narrower and (kept := _most_specific(concepts, keywords, framed)):
        # A search needing every concept finds few posts: the most specific one alone, with the
        # places the request names, finds the posts that write it without the rest, which then
        # only score (電動車 充電: 電動車; 台中 空污 小孩: 台中 空污).
        required = {text.fold(n) for c in kept for n in c.names}
        narrower = [" ".join(c.names[0] for c in kept)]
    if not framed and len(keywords) >= 2 and not _described(concepts, keywords) and not (
            any(is_place(c.folded) for c in concepts) and any(glosses.one_english_word(c.folded) for c in keywords[0])):
        # Keywords name the topic first and after it what of it is asked, or its context (綜所稅 申報,
        # 養蜂 蜂農 收入, 沙丘 提摩西 夏勒梅 續集): the first alone too, however the others combine,
        # but not keywords that describe the generic head after them (外包 後端 工程師), nor an
        # English word beside a place, which holds what sense it is in (Apple 台北 門市).
        narrower += _first_keyword(keywords)

    def written(replace: int, name: str) -> str:
        """The core with one concept by another name; a concept that name already spells is not repeated."""
        return " ".join(name if i == replace else c.names[0] for i, c in enumerate(concepts)
                        if i == replace or (c.folded in required and not _spelled_in(c, name)))

    # A word a term repeats (感恩節 named in three clauses) is written once.
    core = _once(core)
    terms = list(dict.fromkeys(_once(term) for term in
                               [core, *narrower, *(written(i, name) for i, concept in enumerate(concepts) for name in concept.names[1:])]))
    simplified = text.simplified(core)
    if simplified == core:
        return terms[:MAX_TERMS]
    # The core in Simplified characters keeps its place however many other names come before it.
    return [t for t in terms if t != simplified][:MAX_TERMS - 1] + [simplified]


def _once(term: str) -> str:
    """A term with each word once."""
    return " ".join(dict.fromkeys(term.split()))


def _searched(concepts: list[_Concept], framed: bool, folded: str) -> list[list[_Concept]]:
    """What a request searches apart: each concept of a sentence, or each keyword the member set
    apart with spaces, with its concepts (親子餐廳 is one keyword, 親子 and 餐廳 of it both needed;
    Nine Sols one keyword though two words), less a generic head that only says what kind of thing
    the keyword before it is (工程師 of 外包 後端 工程師)."""
    if framed:
        return [[c] for c in concepts]
    keywords: list[list[_Concept]] = []
    for word in re.finditer(r"\S+", folded):
        # A name of several Latin words (Nine Sols) belongs to the keyword it begins in.
        own = [c for c in concepts
               if any(word.start() <= m.start() < word.end() for m in re.finditer(re.escape(c.folded), folded))]
        if own and not (keywords and len(own) == 1 and is_generic_head(own[0].folded, keywords[-1][-1].folded)):
            keywords.append(own)
    return keywords


def _led_by_name(anchor: _Concept, keywords: list[list[_Concept]]) -> bool:
    """Whether keywords begin with their one name, one no dictionary knows nor an English word: what
    the member typed after it says what of it is asked (亞洲航空 吉隆坡 延誤; not Apple 台北 門市)."""
    return _unmistakable(anchor) and bool(keywords) and any(c is anchor for c in keywords[0])


def _aspects_of(anchor: _Concept | None, alternatives: list[list[_Concept]]) -> bool:
    """Whether alternatives set apart beside a name are what of it is asked (王者天下 漫畫 動畫: the
    comic and the anime of the work), which only score: the name is searched alone."""
    return anchor is not None and not any(anchor is c for keyword in alternatives for c in keyword)


def _any_two(searched: list[list[_Concept]]) -> list[str]:
    return [" ".join(c.names[0] for c in [*a, *b]) for a, b in itertools.combinations(searched, 2)]


def _first_keyword(keywords: list[list[_Concept]]) -> list[str]:
    """Keywords name their topic first and then what of it is asked, which posts on the topic seldom
    write: the first keyword alone (水電 of 水電師傅 學徒 薪水 出路), unless it only says where."""
    first = keywords[0] if keywords else []
    return [" ".join(c.names[0] for c in first)] if first and not any(is_place(c.folded) for c in first) else []


def _without_doing(keywords: list[list[_Concept]]) -> list[_Concept] | None:
    """The concepts of the keywords that are not a verb, when some keyword is one (逛街 of 漢神巨蛋 逛街)."""
    kept = [c for keyword in keywords if not all(_verb(c.folded) for c in keyword) for c in keyword]
    return kept if kept and len(kept) < sum(len(k) for k in keywords) else None


def _without_aspect(concepts: list[_Concept], keywords: list[list[_Concept]]) -> list[_Concept] | None:
    """The concepts of the keywords, when a concept of the core is none of them: a generic head
    the member set apart after them (收入 of 麵包師傅 收入), unless rare keywords describe it (外包
    後端 工程師)."""
    kept = [c for keyword in keywords for c in keyword]
    return kept if kept and len(kept) < len(concepts) and not _described(concepts, keywords) else None


def _alternatives(keywords: list[list[_Concept]], given: Callable[[_Concept], bool]) -> list[list[_Concept]]:
    """The Chinese keywords that begin or end with the same character as another keyword, or share a
    word with it: one field or one head, kinds of one thing, each a search of its own (碳權 碳費,
    花藝師 插花老師, 新娘秘書 新秘, 居家清潔 清潔阿姨), unlike keywords that only share a character
    elsewhere (電動車 充電), nor a name beside a common word (早安美芝城 早餐)."""
    words = ["".join(c.folded for c in keyword) for keyword in keywords]
    named = [all(given(c) and not is_place(c.folded) for c in keyword) for keyword in keywords]

    def kin(i: int, j: int) -> bool:
        a, b = words[i], words[j]
        return named[i] == named[j] and (text.has_cjk(a[0] + a[-1] + b[0] + b[-1]) and (a[0] == b[0] or a[-1] == b[-1])
                                         or any(len(c.folded) >= 2 and c.folded in b for c in keywords[i]))
    return [k for i, k in enumerate(keywords) if any(kin(i, j) for j in range(len(keywords)) if j != i)]


def _aspect_after(i: int, keyword: list[_Concept], keywords: list[list[_Concept]],
                  alternatives: list[list[_Concept]]) -> bool:
    """A common word set apart after alternatives that are things, not places: what of them is asked
    (薪水 of 護理師 專師 薪水), which only scores; after places it is the topic (台北 台中 牙醫)."""
    last = max(k for k, kw in enumerate(keywords) if any(kw is a for a in alternatives))
    return i > last and not any(is_place(c.folded) for a in alternatives for c in a) \
        and all(is_common_word(c.folded) for c in keyword)


def _written_names(aliases: AliasLexicon, folded: str) -> list[str]:
    """The lexicon's names the folded intent writes, less a name of two characters written only
    across the edge of a common word (年改 of 去年改去, 都可 of 都可以, 天能 of 一天能去哪); a longer name is seldom there
    by chance (破地獄 of 看破地獄)."""
    inside: set[int] = set()
    at = 0
    for token in text.base_cut(folded):
        if glosses.common_word(token) or is_common_word(token):
            inside.update(range(at + 1, at + len(token)))
        at += len(token)

    def written(name: str) -> bool:
        return len(name) != 2 or any(m.start() not in inside and m.end() not in inside
                                     for m in re.finditer(re.escape(name), folded))
    return [name for name in aliases.names_in(folded) if written(name)]


def _lone_word(folded: str) -> list[str]:
    """An intent that is one word the framing lexicon does not list: the topic, though the
    dictionary files it under a function class (乖乖, the snack, as an adverb)."""
    words = text.base_cut(folded.strip())
    return words if len(words) == 1 and words[0] not in framing_words() else []


def _typed_keywords(intent: str) -> list[str]:
    """The keywords of a request typed as several words set apart; none for a sentence."""
    words = intent.split()
    return words if len(words) >= 2 and not _SENTENCE_MARK.search(intent) else []


def _typed_first(intent: str) -> list[str]:
    """The first of several keywords, when the cut would set all of it aside as colloquial words
    (人資 of 「人資 工作 心得」, 那些年 of 「那些年 電影 心得」): the member typed it first, the topic
    whatever class the dictionary files it under; not a framing word."""
    words = _typed_keywords(intent)
    if not words:
        return []
    first = text.fold(words[0])
    return [first] if 2 <= len(first) <= WHOLE_MAX_CHARS and all(text.has_cjk(ch) for ch in first) \
        and first not in framing_words() and not Segmenter([], []).pieces(first) else []


def _typed_whole(intent: str) -> list[str]:
    """A keyword the member set apart that the cut would shorten to a part: one word as typed, where
    the part leaves out the keyword's end, the head that says what the thing is (公路 of 公路車, 芒果
    of 芒果節, 百貨櫃 of 百貨櫃姐; not framing, 心得 of 遊玩心得), or is no word (唱歌手 of 駐唱歌手), or where a trade of three
    characters loses its first, a lone character, before the worker (畫家 of 插畫家, 琴師 of 製琴師)."""
    def shortened(word: str) -> bool:
        pieces = Segmenter([], []).pieces(word)
        part = pieces[0].units[0] if len(pieces) == 1 and len(pieces[0].units) == 1 else None
        end = word[word.find(part) + len(part):] if part is not None else ""
        return part is not None and part != word and (end and not any(is_framing(token) for token in text.base_cut(end))
                                                      or not text.dictionary_frequency(part)) \
            or len(word) == 3 and [len(token) for token in text.base_cut(word)] == [1, 2] and word[-1] in _TRADE_ENDINGS
    return [word for word in map(text.fold, _typed_keywords(intent))
            if 3 <= len(word) <= WHOLE_MAX_CHARS and all(text.has_cjk(ch) for ch in word) and shortened(word)]


def _in_characters(folded: str) -> list[str]:
    """A keyword the member set apart that reads as a person's name and that the tokenizer cuts
    into single characters: the name, whole (劉在石, whose 在 is a function word elsewhere)."""
    words = folded.split()
    return [word for word in words if len(words) > 1 and is_personal(word)
            and all(len(token) == 1 for token in text.base_cut(word))]


def _beside_latin(intent: str) -> list[str]:
    """A short Chinese keyword the dictionary lacks, set apart right beside a Latin name the member
    capitalized: that name's Chinese name, whole (碧藍之海 of 「碧藍之海 Grand Blue 心得」, 吳季剛 of
    「吳季剛 Jason Wu」), though it holds a character that is a function word elsewhere; not common
    words side by side (遊戲心得) nor framing (好玩嗎)."""
    words = intent.split()

    def latin_name(word: str) -> bool:
        return word.isascii() and any(ch.isupper() for ch in word) and any(ch.isalpha() for ch in word)

    def chinese_name(word: str) -> bool:
        folded = text.fold(word)
        return 2 <= len(word) <= WHOLE_MAX_CHARS and all(text.has_cjk(ch) for ch in word) \
            and not text.dictionary_frequency(folded) and compound_parts(folded) is None \
            and not all(token in framing_words() for token in text.base_cut(folded))

    return [word for i, word in enumerate(words)
            if chinese_name(word) and any(latin_name(other) for other in words[max(i - 1, 0):i] + words[i + 1:i + 2])]


def _anchor(concepts: list[_Concept], segmenter: Segmenter, aliases: AliasLexicon, folded: str,
            framed: bool = False, marked: list[str] | None = None) -> _Concept | None:
    """The one name of a core of several concepts, the others common words or places; where several
    words could be names, the one name the member gave (00878 beside 存股, a word the dictionary lacks);
    in a sentence that gives several, the title it sets in title marks, else the first it gives: a
    sentence is about one thing and says the others of it (DeepSeek of 「DeepSeek好不好用，跟ChatGPT
    比較的也可以」, 影后 of 「Netflix新劇《影后》有人看了嗎」); so do keywords that give them apart,
    the topic first and its context after (陳傑憲 of 「陳傑憲 統一獅 隊長」)."""
    names = [c for c in concepts if not is_place(c.folded) and (not c.folded.isdigit() or aliases.others(c.folded))
             and (c.entity or _known_name(c, segmenter, aliases, folded))]
    if len(names) > 1:
        names = [c for c in names if _given_name(c, segmenter, aliases, folded)]
    if len(names) > 1 and (framed or not _one_keyword(folded, names)):
        titled = {text.fold(t) for t in marked or ()}
        names = sorted(names, key=lambda c: c.folded not in titled)[:1]
    return names[0] if len(concepts) > 1 and len(names) == 1 else None


def _one_keyword(folded: str, concepts: list[_Concept]) -> bool:
    """Whether some keyword the member set apart with spaces holds two of the concepts: one name
    written as one word (寶可夢傳說Z-A), not names side by side (陳傑憲 統一獅)."""
    return any(sum(c.folded in word for c in concepts) > 1 for word in folded.split())


def _common_name(concept: _Concept, marked: list[str]) -> bool:
    """A name that is also a common word (全家, offer), not a title in title marks nor a Latin name
    the member capitalized (LINE Pay)."""
    folded = concept.folded
    if folded in marked:  # (folded titles)
        return False
    if text.has_cjk(folded):
        return glosses.common_word(folded) or is_common_word(folded)
    return _english_words(concept)


def _english_words(concept: _Concept) -> bool:
    """Latin words the member wrote in lower case, each an English word (offer, pocket) or an
    abbreviation of two letters (mm, kg)."""
    written = concept.names[0]
    return written.islower() and all(w.isalpha() and (glosses.english_word(w) or len(w) <= 2)
                                     for w in concept.folded.split())


def _unmistakable(concept: _Concept) -> bool:
    """A name no dictionary knows, nor one English word (Olive Young, 祇園祭, 饒慶鈴; not AAA, 萬聖節)."""
    if text.has_cjk(concept.folded):
        return not text.dictionary_frequency(concept.folded)
    return not glosses.one_english_word(concept.folded)


def _same_clause(folded: str, a: _Concept, b: _Concept) -> bool:
    """Whether two concepts are named in one clause of the folded intent (or either is not found)."""
    clauses = CLAUSE.split(folded)
    return any(a.folded in clause and b.folded in clause for clause in clauses) or not all(
        any(c.folded in clause for clause in clauses) for c in (a, b))


def _before_generic_head(folded: str) -> str | None:
    """The word before a generic head that ends a Chinese word the dictionary lacks (電競 of
    電競產業), or before a character that makes a thing of a kind (拼豆 of 拼豆店, not 府保 of
    府保母), not a place (台北 of 台北車站) nor a person's name (李崇 of 李崇建)."""
    if not text.has_cjk(folded) or text.dictionary_frequency(folded) or is_personal(folded):
        return None
    # Cut between the tokenizer's words only: 賽 ends 錦標賽, it does not follow 世界田徑錦標.
    cuts = list(itertools.accumulate(len(word) for word in text.base_cut(folded)))[:-1]
    for cut in (c for c in cuts if c >= 2):
        thing, head = folded[:cut], folded[cut:]
        if text.dictionary_frequency(head) and not is_place(thing) and (
                (len(head) > 1 or head in KIND_ENDINGS) and is_generic_head(head, thing)
                or len(head) > 1 and head[-1] in KIND_ENDINGS):
            return thing
    return None


def _without_maker(name: str, aliases: AliasLexicon) -> str | None:
    """A Latin name of several words led by a maker (the longest run of its first words that the
    alias lexicon knows in other words: Google, ASUS, Kendrick Lamar) without it, when what is left
    still names one thing: a word no English dictionary has, a word with a number, or a name the
    lexicon knows (Zenbook, Pixel 10, GNX, Lisa of BLACKPINK Lisa; not Ruby of JENNIE Ruby, nor 17
    Pro of iPhone 17 Pro, a number that other makers' models carry too)."""
    if text.has_cjk(name):
        return None
    parts = name.split(" ")
    cut = next((cut for cut in range(len(parts) - 1, 0, -1) if aliases.others(text.fold(" ".join(parts[:cut])))), 0)
    rest = " ".join(parts[cut:])
    if not cut or not rest[:1].isalpha():
        return None
    words = text.fold(rest).split()
    distinct = any(ch.isdigit() for ch in rest) and any(ch.isalpha() for ch in rest) or any(
        len(word) >= 3 and word.isalpha() and not glosses.english_word(word) for word in words) or bool(
        aliases.others(text.fold(rest)))
    return rest if distinct else None


def _spelled_in(concept: _Concept, name: str) -> bool:
    folded = text.fold(name)
    return any(text.fold(n) in folded for n in concept.names)


def _topic(pieces: list[Piece], segmenter: Segmenter, intent: str, folded: str, aliases: AliasLexicon,
           framed: bool) -> list[_Concept]:
    """The concepts a search needs. A request written as a sentence (its framing set aside) is
    about the things it names: when it gives a name besides places, only the stretches naming
    them count (壽司郎 of 「最近壽司郎有什麼期間限定」, not 期間限定), less what the sentence says
    was done with them (去過 of 去過告五人); else the first thing it says, and where. A country
    (台灣, 日本) only says where, which posts written there seldom do: it counts only when
    nothing else is left."""
    per_piece = _joined([_concepts([piece], segmenter, intent) for piece in pieces], aliases, folded)
    if framed:
        # What is named right before 之後 or 之前 says when (12強之後, 少子化之後), unless it is all
        # there is; 之後的 says what of it is asked about (花蓮大地震之後的重建).
        timed = [p[:-1] if _occasion(p, folded) else p for p in per_piece]
        per_piece = [p for p in timed if p] or per_piece
        # A clause that ends 也可以 or 都可以 adds what else would do (華航長榮或虎航的都可以), and one
        # that ends 就不用 says what the member does not want (連鎖的瓦城就不用): the topic is what
        # the rest asks about.
        asking = _sentence_start(folded, _clause_start(folded, max(_question(folded), 0)))
        per_piece = [p for p, at in zip(per_piece, _starts(per_piece, folded)) if not _aside(at, folded, asking)] or per_piece
        # Who the member is and where they work or study (我是竹科的工程師, 我在台南教書) is the setting.
        question = _clause_start(folded, max(_question(folded), 0))
        per_piece = _only(per_piece, lambda c: not _self_told(c, folded, question)) or per_piece

        def given(concept: _Concept) -> bool:
            return _given_name(concept, segmenter, aliases, folded) and not is_place(concept.folded)

        per_piece = _about(per_piece, folded, given) or _past_story(per_piece, folded, intent, given, aliases)

        naming = [p for p in per_piece if any(given(c) and not _option(c, folded) for c in p)]
        # A name that is also a common word (全家 of 全家可以玩) yields to a name that is none (卡坦島).
        marked = quoted_titles([intent])
        plain = [p for p in naming if any(given(c) and not _option(c, folded) and not _common_name(c, marked) for c in p)]
        naming = plain or naming
        naming = _from_person(_past_setting(naming, folded, given), folded, given) or _pointed_person(
            per_piece, folded, asking, frozenset(marked))
        # A name right before a person's, a title at most between them, is where the person works
        # or what they hold (農業部長陳駿季, 和碩童子賢): the person is the topic.
        people = [c for p in naming for c in p if is_personal(c.folded)]
        if naming:
            per_piece = [[c for c in p if (given(c) or not _doing(c.folded)) and not _affiliation(c, people, folded)]
                         for p in naming]
        else:
            asked = _asked_for(per_piece, folded)
            repeated = None if asked else _repeated(per_piece, folded)
            if repeated:
                # What a request names again and again is what it is about, not the setting it gives
                # once (國中畢業的表弟想去學木工…裝潢木工師傅: 木工).
                per_piece = [[c for c in p if any(c is r for r in repeated) or is_place(c.folded)] for p in per_piece]
            else:
                # A thing before what is done (社群小編 of 想轉職當社群小編, not 轉職).
                # Of the clauses that ask (想, 哪裡, …嗎？) first: a statement before them is the
                # setting (「拿到竹科的offer了，想在竹北租房」, 「最近很多廟減香，想知道金紙店…」).
                ordered = sorted(per_piece, key=lambda p: not _in_asking_clause(p, folded))
                first = asked or next(
                    (p for p in ordered if any(not is_place(c.folded) and not _verb(c.folded) for c in p)), None) or next(
                    (p for p in ordered if any(not is_place(c.folded) for c in p)), None)
                if first is not None:
                    per_piece = [p if p is first else [c for c in p if is_place(c.folded) and not _own_setting(c, folded)]
                                 for p in per_piece]
    concepts = _merged([c for piece in per_piece for c in piece], aliases)
    return [c for c in concepts if not _is_country(c.folded)] or concepts


def _own_setting(place: _Concept, folded: str) -> bool:
    """Whether a place is named only where the member tells of themselves (我住彰化, 我在台北做設計,
    我是台中的社工): where they live or work, not where what they ask about is."""
    return _named_only_where(place, folded, lambda at: _clause_at(folded, at).lstrip().startswith("我"))


def _self_told(concept: _Concept, folded: str, question: int) -> bool:
    """Whether a concept is named only in clauses before the question (its start) where the member
    says who they are or where they live, work or study (我是台中的社工, 我住永康, 我在竹科上班)."""
    return _named_only_where(concept, folded, lambda at: at < question and bool(_SELF.match(_clause_at(folded, at).lstrip())))


def _named_only_where(concept: _Concept, folded: str, where: Callable[[int], bool]) -> bool:
    """Whether the folded intent names a concept, and only at places `where` holds for."""
    starts = [m.start() for m in re.finditer(re.escape(concept.folded), folded)]
    return bool(starts) and all(where(at) for at in starts)


def _repeated(per_piece: list[list[_Concept]], folded: str) -> list[_Concept] | None:
    """The things an intent names most often, when that is more than once: each the first time it
    comes (職能 治療 of 「填職能治療系，想知道職能治療師…」), and not inside another of them (公寓 of
    老公寓); not places, nor what is done."""
    seen: dict[str, _Concept] = {}
    for concept in (c for p in per_piece for c in p):
        if not is_place(concept.folded) and not _verb(concept.folded) and len(concept.folded) >= 2:
            seen.setdefault(concept.folded, concept)
    counts = {word: folded.count(word) for word in seen}
    most = max(counts.values(), default=0)
    if most < 2:
        return None
    words = [word for word, count in counts.items() if count == most]
    return [seen[w] for w in words if not any(w != other and w in other for other in words)]


def _affiliation(concept: _Concept, people: list[_Concept], folded: str) -> bool:
    """Whether a name comes right before a person's, nothing or a title between them (台積電董事長魏哲家;
    農業部 of 農業部長陳駿季, the title sharing the name's last character), not beside it (告五人跟蔡依林)."""
    span = _span(concept, folded)

    def title(between: str) -> bool:
        return not between or between in titles() or concept.folded[-1] + between in titles()
    return span is not None and any((at := folded.find(person.folded, span[1])) >= 0 and title(folded[span[1]:at])
                                    for person in people if person is not concept)


def _span(concept: _Concept, folded: str) -> tuple[int, int] | None:
    """Where the folded intent first names a concept."""
    at = folded.find(concept.folded)
    return (at, at + len(concept.folded)) if at >= 0 else None


def _option(concept: _Concept, folded: str) -> bool:
    """A name in a list of options (長榮、華航或星宇; 巨蛋或世運): one of the examples of what a
    sentence asks about, not the thing it asks about."""
    span = _span(concept, folded)
    return span is not None and _in_list(folded, *span)


def _in_list(written: str, start: int, end: int) -> bool:
    """Whether what is written from `start` to `end` is one of a list: a mark of options (、, 或) right
    before or after it."""
    return written.startswith(_OPTION_MARKS, end) or written[:start].endswith(_OPTION_MARKS)


def _aside(at: int, folded: str, asking: int) -> bool:
    """Whether a stretch, where it stands (`at`), is in a clause that says what else would do (it ends 也可以,
    都可以, 也想看 or 更好), or in a phrase that says what the member does not want (就不用, 請略過,
    別推…), the list it ends included (萬聖節派對、變裝活動就不用了), or in the clause before one that turns away only what it
    points at (「…搜尋一直跑出她的IG，那些就不用了」), from the sentence that asks (`asking`) on;
    folded. The story's sentences before it only tell (金馬奇幻影展氣氛更好)."""
    if at < 0 or at < asking:
        return False
    end = CLAUSE.search(folded, at)
    following = _clause_at(folded, end.end()) if end else ""
    return _aside_clause(_clause_at(folded, at)) or turns_away(_clause_at(folded, at, PHRASE)) \
        or bool(_POINTED_AWAY.match(following)) and _aside_clause(following)


def _aside_clause(clause: str) -> bool:
    """Whether a clause (folded) says what else would do or what the member does not want, whatever
    marks or emoji end it (就不用了😂)."""
    return bare_clause(clause).endswith(_EXTRA_ENDINGS) or turns_away(clause)


def _past_story(per_piece: list[list[_Concept]], folded: str, intent: str, given: Callable[[_Concept], bool],
                aliases: AliasLexicon) -> list[list[_Concept]]:
    """The stretches less the story told before the first clause that asks to read (想看, 想了解),
    when that clause names again a thing the story told, or a part of it, or by another name, and no
    pronoun before it points back: the story's other things are the setting (「在外商做了十年 HR，
    最近常被問要不要轉去做獵頭…想看現職獵頭顧問分享」: 獵頭, not HR; 「家裡三代在迪化街開中藥行…想看
    現在中藥行老闆分享」: not 迪化街). Not when the story gives a name as often as the question names
    that thing (VICTOR beside 球拍). A story told in sentences of their own, then a question that
    names things of its own, the story's names nowhere after it: the question's names, and where,
    are the topic (「…以前都在宿舍看鄧肯…。想看大家對溫班亞瑪的討論」: 溫班亞瑪)."""
    clauses = CLAUSE.split(folded)
    ask = _question(folded)
    if ask <= 0:
        return per_piece
    starts = _starts(per_piece, folded)
    at_clause = [len(CLAUSE.findall(folded, 0, at)) if at >= 0 else -1 for at in starts]
    # A question that names no thing asks with the clauses of wanting right before it, in its
    # sentence (「今年想挑戰東京馬拉松，想看跑過的人分享心得」).
    marks = [""] + [m.group(0) for m in CLAUSE.finditer(folded)]
    names_thing = any(i == ask and not is_place(c.folded) and not _verb(c.folded)
                      for p, i in zip(per_piece, at_clause) for c in p)
    first = ask
    while not names_thing and not _begins_sentence(marks[first]) and "想" in clauses[first - 1] \
            and not _aside_clause(clauses[first - 1]):
        first -= 1
    opening = len(CLAUSE.findall(folded, 0, _sentence_start(folded, _clause_start(folded, ask))))
    if _marked_before(per_piece, at_clause, opening, first, intent):
        first = opening
    story = [c for p, i in zip(per_piece, at_clause) if 0 <= i < first for c in p]
    things = [s for s in story if not is_place(s.folded)]
    in_question = [(at, c) for p, i, at in zip(per_piece, at_clause, starts) if first <= i <= ask for c in p]
    asked = [(at, c) for at, c in in_question if not is_place(c.folded) and not _verb(c.folded)]
    question = _clause_start(folded, first)
    # A pronoun or a pointer in the question's sentence points back at the story.
    sentence = _sentence_start(folded, question)
    pointer = _BACK.search(folded, sentence)
    # What the member tells and asks, without the clauses of what else would do or is not wanted.
    told = "，".join(phrase for phrase in PHRASE.split(folded) if not _aside_clause(phrase))
    worker = _worker_asked(per_piece, folded, question, given)
    if worker is not None and not (pointer and pointer.start() < _written_at(worker, folded, question)[0]):
        # A question about a line of work names the worker, one thing however the dictionary cuts
        # it (救護技術員, 商業攝影師): the jobs and names the story tells are the setting
        # (「…在醫院藥局待了三年…學姊在 CRO 公司…。想看大家分享救護技術員的工作心得」).
        whole = "".join(c.folded for c in worker)
        # The worker's own word of three characters or more is how many posts name it too (保育員
        # of 動物園保育員, 烘豆師 of 專職烘豆師).
        head = worker[-1]
        own = [head.names[0]] if len(head.folded) >= 3 else []
        trade = _Concept(whole, False, [text.original_spelling(whole, [intent]), *own]) if len(worker) > 1 else head
        return [[trade], *([c] for _, c in in_question if is_place(c.folded))]
    # Each story thing the question names again, with where the question names it.
    again = [(at, s, c) for s in things for at, c in asked
             if (_same_word(c.folded, s.folded) and not _placed_otherwise(folded.find(c.folded, at), c, s, folded))
             or c.folded in {text.fold(n) for n in aliases.others(s.folded)}]
    if again:
        same = [s for _, s, _ in again]
        # How often the member names it: by the shorter of the story's and the question's words, or
        # by both where neither holds the other (豐田, then Toyota).
        often = max(told.count(min(s.folded, c.folded, key=len)) if _same_word(c.folded, s.folded)
                    else told.count(s.folded) + told.count(c.folded) for _, s, c in again)
        if pointer and pointer.start() < min(at for at, _, _ in again) or any(
                given(s) and told.count(s.folded) >= often for s in things if not any(s is a for a in same)):
            return per_piece
        aside = _told_aside(story, per_piece, starts, folded, first)
        return _only(per_piece, lambda c: (not any(c is s for s in story) or any(c is a for a in same))
                     and not any(c is a for a in aside))
    named = _own_names(asked, given, folded, question)
    kind = _KIND_POINTER.search(folded, sentence)
    if not named and kind:
        named = _last_kind(story, per_piece, starts, folded, kind)
    elif not named and not pointer and not any(is_place(c.folded) for _, c in in_question):
        named = _last_told(story, per_piece, starts, given, folded, aliases)
    elif not named and not pointer and not asked:
        # A question that names a place and no thing asks about the place, a destination
        # (「…山社學長一直說那個高山湖泊一定要去一次。想看大家爬嘉明湖的心得」: 嘉明湖).
        named = [(at, c) for at, c in in_question if is_place(c.folded)]
    elif not named and not pointer:
        named = _asked_there(in_question, things, given, folded, question)
    after = "，".join(phrase for phrase in PHRASE.split(folded[_clause_start(folded, ask):]) if not _aside_clause(phrase))
    if not named or not _STORY_END.search(folded, 0, question) or pointer and pointer.start() <= named[0][0] \
            or any(given(s) and s.folded in after for s in things if not any(s is n for _, n in named)):
        return per_piece
    return _only(per_piece, lambda c: any(c is n for _, n in named) or any(
        c is p for _, p in in_question if is_place(p.folded)))


def _marked_before(per_piece: list[list[_Concept]], at_clause: list[int], opening: int, first: int, intent: str) -> bool:
    """Whether the question's sentence (its clauses from `opening`) sets a title in title marks before
    it asks (`first`): the title is asked about (「聽說有本書叫《一人公司》，想看讀過的人心得」)."""
    marked = {text.fold(t) for t in quoted_titles([intent])}
    return any(opening <= i < first and c.folded in marked for p, i in zip(per_piece, at_clause) for c in p)


def _about(per_piece: list[list[_Concept]], folded: str, given: Callable[[_Concept], bool]) -> list[list[_Concept]] | None:
    """The stretches the question asks people to tell about: what its clause, or the next of its
    sentence, writes between 對, 關於, 聊 or the people it asks (大家, 其他人) and what they tell
    (的心得, 的討論, 的近況), less what is done there (去, 用): 「想看大家對今年聖地牙哥動漫展的心得」,
    「想看大家聊梅西本人的近況」; None where it names nothing there, or points back there or before
    it in its sentence (她的歌; 「他轉去洛杉磯之後…想看大家聊 Sonny…」), or where a question before
    it asks already (「未知的首爾有人在追嗎？想看大家對朴寶英…的評價」)."""
    ask = _question(folded)
    start = _clause_start(folded, max(ask, 0))
    if ask < 0 or "?" in folded[:start] or _BACK.search(folded, _sentence_start(folded, start), start):
        return None
    # 「最近又想找來重溫，想看大家聊《向往的生活》各季的心得」: 想找 opens the question, the next clause asks.
    end = m.start() if (m := _STORY_END.search(folded, start)) else len(folded)
    clauses, found = CLAUSE.split(folded), None
    while found is None and ask < len(clauses) and start < end:
        reading = _READING.search(clauses[ask])
        found = _ABOUT.search(clauses[ask], reading.end()) if reading else None
        if found is None:
            start += len(clauses[ask]) + 1
            ask += 1
    if found is None or _BACK.search(found.group("object")):
        return None
    written, at = found.group("object"), start + found.start("object")
    seen: set[str] = set()

    def named_there(concept: _Concept) -> bool:
        first = concept.folded not in seen
        seen.add(concept.folded)
        return first and concept.folded in written and not _doing(concept.folded)
    about = _only(per_piece, named_there)
    return about if any(given(c) and not _aspect(c, folded, at + written.find(c.folded)) for p in about for c in p) \
        else None


def _worker_asked(per_piece: list[list[_Concept]], folded: str, question: int,
                  given: Callable[[_Concept], bool]) -> list[_Concept] | None:
    """The first stretch of the question's sentence that names a worker as what is asked about: it
    ends in the work one does or is (技術員, 攝影師, 老師), three characters at least with the words
    before it (not 專員 alone), gives no name (not 黃瑽寧醫師, a person), and comes after 當 or 做
    or before 的 or a pointer at the line of work (當體育老師的, 救護技術員的工作心得, 修復師這行);
    not the people a question asks to tell (想看現職剪輯師分享, 網拍設計師的看法), nor one of a list
    or of a clause of what else would do (算命師、塔羅師的收入, 老闆或設計師的分享都想看), nor one
    whose field the story names before (學美髮…美髮設計師這行: the field, named again and again, is
    the topic); or, whatever word ends it and however long, the work people are asked by (`_by_work`)."""
    end = m.start() if (m := _STORY_END.search(folded, question)) else len(folded)

    def at(piece: list[_Concept]) -> int:
        """Where the question writes the stretch as what it asks about, its words in a row; -1 elsewhere."""
        start, after = _written_at(piece, folded, question)
        asked = start > 0 and folded[start - 1] in _ROLE or _KIND_POINTER.match(folded, after) is not None \
            or folded.startswith("的", after) and not folded.startswith(_TELLING, after + 1)
        return start if question <= start < end and asked and not _in_list(folded, start, after) \
            and not _aside_clause(_clause_at(folded, start)) else -1
    # The concepts of the story before the question (not a word its cut leaves out: 急診 of 急診太累).
    told = {c.folded for p, start in zip(per_piece, _starts(per_piece, folded)) if 0 <= start < question for c in p}
    workers = [(found, piece) for piece in per_piece
               if piece and (_by_work(piece, folded, question) or (
                   piece[-1].folded[-1] in _WORKER_ENDINGS - {"工", "手"} or _role(piece, folded, question))
                   and sum(len(c.folded) for c in piece) >= 3 and not (len(piece) > 1 and piece[0].folded in told))
               and not any(given(c) for c in piece) and (found := at(piece)) >= 0]
    return min(workers, key=lambda w: w[0])[1] if workers else None


def _by_work(piece: list[_Concept], folded: str, question: int) -> bool:
    """Whether the question asks people by the work they do (做校對的人, 當舞者的人, 做過傳送的人): what
    they do is the line of work asked about, whatever word ends it."""
    at, after = _written_at(piece, folded, question)
    return at > 0 and _DOING_WORK.search(folded, 0, at) is not None and folded.startswith("的人", after)


def _role(piece: list[_Concept], folded: str, question: int) -> bool:
    """Whether the question writes a stretch ending in a title as the role one takes (當飛輪教練, 做健身
    教練): a trade, though a title after a name says who (江振誠主廚) and one of several aspects asked
    about says whose word (安裝師傅的經驗)."""
    at, _ = _written_at(piece, folded, question)
    return piece[-1].folded in titles() and at > 0 and folded[at - 1] in _ROLE


def _written_at(piece: list[_Concept], folded: str, question: int) -> tuple[int, int]:
    """Where the question, from its start on, first writes a stretch's words in a row, and where
    they end (a start of -1 where it does not)."""
    written = "".join(c.folded for c in piece)
    start = folded.find(written, question)
    return start, start + len(written)


def _placed_otherwise(at: int, asked: _Concept, told: _Concept, folded: str) -> bool:
    """Whether the question writes the end of a story's name (at, in the folded intent) right after
    a place that name does not begin with: another one of that kind (桃園電影節 after 高雄電影節)."""
    return told.folded.endswith(asked.folded) and told.folded != asked.folded and any(
        is_place(folded[at - length:at]) and not told.folded.startswith(folded[at - length:at])
        for length in (2, 3) if at >= length)


def _asked_there(in_question: list[tuple[int, _Concept]], things: list[_Concept], given: Callable[[_Concept], bool],
                 folded: str, question: int) -> list[tuple[int, _Concept]]:
    """What a question naming a place and common things asks about, after a story told in sentences
    that gives names of its own: those things there (「…每次都吃一蘭跟敘敘苑。…想看大家推薦埔里的美食」:
    埔里 美食); none when the story gives no name."""
    return in_question if _STORY_END.search(folded, 0, question) and any(given(s) for s in things) else []


def _told_aside(story: list[_Concept], per_piece: list[list[_Concept]], starts: list[int], folded: str,
                first: int) -> list[_Concept]:
    """The things (not places) the story told that are named again, after the question begins, in a
    phrase of what else would do or is not wanted (a list in it whole): they stay the setting
    (「…吃了王品，後來西堤也吃過…。想看吃過鬥牛士的人分享，拿王品或西堤來比較的就不用了」)."""
    told = {s.folded for s in story}
    start = _clause_start(folded, first)
    return [c for p, at in zip(per_piece, starts) if at >= start for c in p
            if c.folded in told and not is_place(c.folded) and not any(c is s for s in story)
            and _aside_clause(_clause_at(folded, folded.find(c.folded, at), PHRASE))]


def _own_names(asked: list[tuple[int, _Concept]], given: Callable[[_Concept], bool], folded: str,
               question: int) -> list[tuple[int, _Concept]]:
    """The names among the things a question names: names the member gave, words the dictionary
    hardly knows that begin with neither a verb nor a set phrase, hold no number or quantity and are
    no common word CC-CEDICT translates (溫班亞瑪, 央視春晚; not 要排多久, 哪幾天, 黃亦玫每一段, 保戶),
    and the work one does or is (做字幕翻譯, 當船員)."""
    def unknown_name(word: str) -> bool:
        tokens = text.base_cut(word)
        return text.dictionary_frequency(word) < NAME_MAX_FREQUENCY and not glosses.common_word(word) \
            and not _doing(tokens[0]) and not any((text.dictionary_tag(t) or "").startswith("m") for t in tokens)

    def role(word: str) -> bool:
        at = folded.find(word, question)
        return at > 0 and folded[at - 1] in _ROLE
    return [(at, c) for at, c in asked if given(c) or unknown_name(c.folded) or role(c.folded)]


def _last_told(story: list[_Concept], per_piece: list[list[_Concept]], starts: list[int],
               given: Callable[[_Concept], bool], folded: str, aliases: AliasLexicon) -> list[tuple[int, _Concept]]:
    """What a question that names nothing of its own, nor a place, asks about: the last name the
    story gives before it, where the member's story arrived (「鬥陣特攻玩了好幾年有點膩，朋友把我拉進
    漫威爭鋒…。想看大家現在的遊玩心得」: 漫威爭鋒); not an abbreviation the lexicon does not know,
    which is a common term (「…跟李昀銳的CP弄得好上頭」, 寶拉珍選的BHA), nor a person named after a
    title in title marks, one of the work's people (「把《電話響起時》追完，劉演錫跟蔡秀彬的CP…」), nor
    one of a list, an example (「…邀請紐西蘭、夏威夷、菲律賓這些國家的團體」)."""
    titled = frozenset(quoted_titles([folded]))
    told = [(at, c) for at, c in _first_namings(_told(story, per_piece, starts, folded), aliases)
            if not is_place(c.folded) and given(c) and not _abbreviation(c, aliases) and not _option(c, folded)
            and not _venue(c, at, folded)]
    first_title = next((at for at, c in told if c.folded in titled), len(folded))
    return [(at, c) for at, c in told if at < first_title or not _may_be_person(c, titled)
            or any(c.folded in title for title in titled)][-1:]


def _first_namings(told: list[tuple[int, _Concept]], aliases: AliasLexicon) -> list[tuple[int, _Concept]]:
    """The story's concepts less those naming by another name of the alias lexicon a thing it told
    before: a comparison with an earlier thing is not where the story arrived (「…玩 Minecraft…看到
    《泰拉瑞亞》…聽說跟麥塊很像」: 泰拉瑞亞). The same name again may begin a new title of a series
    (三國無雙, then 《真‧三國無雙 起源》)."""
    seen: set[str] = set()
    first: list[tuple[int, _Concept]] = []
    for at, concept in told:
        others = {text.fold(n) for n in aliases.others(concept.folded)} - {concept.folded}
        if not others & seen:
            first.append((at, concept))
        seen.add(concept.folded)
    return first


def _venue(concept: _Concept, at: int, folded: str) -> bool:
    """Whether the folded intent names a concept at `at` as where something is, between 在 and 上
    (在Steam上很紅, 在 YouTube 上看到): a platform, not what the story tells of."""
    return folded[:at].rstrip().endswith("在") and folded[at + len(concept.folded):].lstrip().startswith("上")


def _last_kind(story: list[_Concept], per_piece: list[list[_Concept]], starts: list[int],
               folded: str, kind: re.Match[str]) -> list[tuple[int, _Concept]]:
    """What a pointer at a line of work (這行, 這份工作, 這個產業) points back at: the last work one
    does or is that the story names before it (「遇到一位很有耐心的聽力師…開始好奇這份工作」: 聽力師)."""
    return [(at, c) for at, c in _told(story, per_piece, starts, folded)
            if at < kind.start() and len(c.folded) >= 2 and c.folded[-1] in _WORKER_ENDINGS][-1:]


def _told(story: list[_Concept], per_piece: list[list[_Concept]], starts: list[int],
          folded: str) -> list[tuple[int, _Concept]]:
    """The story's concepts, each with where the folded intent names it, in order."""
    return [(max(folded.find(c.folded, start), start), c) for p, start in zip(per_piece, starts) for c in p
            if start >= 0 and any(c is s for s in story)]


def _abbreviation(concept: _Concept, aliases: AliasLexicon) -> bool:
    """Two or three capitals the alias lexicon does not know (CP, BHA; not IU)."""
    written = concept.names[0]
    return 2 <= len(written) <= 3 and written.isascii() and written.isupper() and not aliases.others(concept.folded)


def _question(folded: str) -> int:
    """The index of the clause that asks to read (想看, 想了解, 請問): the first that begins a
    sentence, else the first; -1 when none does. A story may say what the member once wanted to see
    (「本來只是想看看神仙姐姐有沒有變老，結果…。想看大家對…的心得」)."""
    marks = [""] + [m.group(0) for m in CLAUSE.finditer(folded)]
    asking = [i for i, clause in enumerate(CLAUSE.split(folded))
              if (reading := _READING.search(clause)) and "说" not in clause[:reading.start()] and not _aside_clause(clause)]
    return next((i for i in asking if _begins_sentence(marks[i])), asking[0] if asking else -1)


def _clause_start(folded: str, index: int) -> int:
    """Where the clause of this index begins in the folded intent."""
    return sum(len(clause) + 1 for clause in CLAUSE.split(folded)[:index])


def _sentence_start(folded: str, at: int) -> int:
    """Where the sentence that holds a position of the folded intent begins."""
    return max((m.end() for m in _STORY_END.finditer(folded, 0, at)), default=0)


def _begins_sentence(mark: str) -> bool:
    """Whether a clause after this mark (folded; "" for the first) begins a sentence."""
    return not mark or bool(_STORY_END.match(mark))


def _same_word(asked: str, told: str) -> bool:
    """Whether the question names again a thing the story told: as a part of the story's name (念庭
    of 吳念庭, 金唱片 of 金唱片獎), or the story's word inside its own (營養 of 營養師, 沛慈 of 曾沛慈)."""
    return asked in told or len(told) > 1 and told in asked


def _starts(per_piece: list[list[_Concept]], folded: str) -> list[int]:
    """Where in the folded intent each stretch begins, read in order (-1 for one not found)."""
    starts: list[int] = []
    position = 0
    for piece in per_piece:
        found = folded.find(piece[0].folded, position) if piece else -1
        starts.append(found)
        if found >= 0:
            position = found + len(piece[0].folded)
    return starts


def _clause_at(folded: str, at: int, marks: re.Pattern[str] = CLAUSE) -> str:
    """The clause of the folded intent that holds a position ("" for -1), or the phrase where the
    marks are PHRASE (a list in it whole)."""
    if at < 0:
        return ""
    start = max((m.end() for m in marks.finditer(folded, 0, at)), default=0)
    end = next(marks.finditer(folded, at), None)
    return folded[start:end.start() if end else len(folded)]


def _occasion(piece: list[_Concept], folded: str) -> bool:
    """Whether the last thing a stretch names is followed by a word that makes it a time: 之後,
    以後, 之前, 以前 (folded), not by one and 的; not a person's name, after which the word says
    when the person did something (高允貞之前還演過)."""
    span = _span(piece[-1], folded) if piece else None
    after = folded[span[1]:].lstrip(_CLOSING) if span else ""
    return any(after.startswith(word) and not after.startswith("的", len(word)) for word in _OCCASION) \
        and not is_personal(piece[-1].folded)


def _past_setting(naming: list[list[_Concept]], folded: str, given: Callable[[_Concept], bool]) -> list[list[_Concept]]:
    """The named stretches less the names of the statements before the first clause that asks,
    when that clause gives a name of its own: they are the setting (「最近在做ESG報告，想看大家怎麼
    討論COP30」: COP30), less a name the asking clause gives again (「去年在河口湖看到富士山…。想看
    今年爬過富士山的人分享」: 富士山); not when a pointer comes back at them (「石崇良當上部長之後，大家覺得他…」),
    nor when the name asked about is an aspect listed beside another (「…對結局跟Mark那條線的討論」)."""
    ask = next(iter(_asking_clauses(folded)), -1)
    named = [c for p in naming for c in p]
    # A name the story gives and the asking clause gives again (富士山) is asked about.
    in_ask = [c for c in named if ask in _clauses_naming(c, named, folded)]
    earlier = [c for c in named if 0 <= _clause_of(c, folded) < ask and not any(c is a for a in in_ask)]
    asked = [c for c in in_ask if given(c)]
    # A pointer comes back at the earlier names, unless at the one the asking clause gives again
    # (「…超愛漢典…最近很常看到他，想看大家聊陳漢典」).
    again = any(e.folded in asked[0].folded or asked[0].folded in e.folded for e in earlier) if asked else False
    if not earlier or not asked or (_points_back(folded, earlier[-1], asked[0]) and not again) or _aspect(asked[0], folded):
        return naming
    return _only(naming, lambda c: not any(c is e for e in earlier))


def _from_person(naming: list[list[_Concept]], folded: str, given: Callable[[_Concept], bool]) -> list[list[_Concept]]:
    """The named stretches from what the first pointer refers back to: 他, 她 or 這位 to the person's
    name written last before it, or the first of two joined by 跟, not one named as whose kin
    another is, and the names after that person, or after the question when the pointer is the
    question's (「以前在日職就很關注吳念庭，他回台灣…」: 吳念庭, not 日職); 這部, 這本, 這款, 這系列,
    這張 to the last title
    in title marks before it, and the names after the pointer (「看完《九龍城寨之圍城》…朋友又推我看
    《九龍大眾浪漫》，想看大家對這部的心得」: 九龍大眾浪漫; 「補完《幕府將軍》，真田廣之真的太帥…
    對這部影集的心得」: 幕府將軍). The other names before it are the setting."""
    question = _clause_start(folded, max(_question(folded), 0))
    pointers = [m for m in _BACK.finditer(folded)
                if _PERSON_POINTER.fullmatch(m.group(0)) or _WORK_POINTER.fullmatch(m.group(0))]
    pointer = next((m for m in pointers if m.start() >= question), pointers[0] if pointers else None)
    if pointer is None:
        return naming
    titled = frozenset(quoted_titles([folded]))
    to_person = _PERSON_POINTER.fullmatch(pointer.group(0)) is not None
    # Without a title in marks before it, a pointer at a work points at the last name that is no
    # person's (「借我玩了幾場鐵拳8…想看大家對這款的心得」).
    marked = any(0 <= folded.find(title) < pointer.start() for title in titled)
    # A person named as whose kin another is (「蘇貞昌的女兒」) only says who the other one is.
    # Each name where it is last written before the pointer: the question may name again whom the
    # story named beside another (「…聽說韓韶禧跟全鐘瑞一起拍了新電影。想看大家聊韓韶禧…她以前的…」).
    named = sorted(((at, c) for p in naming for c in p
                    if given(c) and (_may_be_person(c, titled) if to_person
                                     else c.folded in titled or not marked and not _may_be_person(c, titled))
                    and (at := folded.rfind(c.folded, 0, pointer.start())) >= 0
                    and not (to_person and _KIN.match(folded, at + len(c.folded)))), key=lambda n: n[0])
    if not named:
        return naming
    start, referent = named[-1]
    if not to_person:
        return _only(naming, lambda c: c is referent or (span := _span(c, folded)) is None or span[0] >= pointer.start())
    if len(named) > 1 and _aspect(referent, folded, start):
        start = named[-2][0]
    # A pointer in the question leaves the story's other names after the person the setting too.
    people = [c for at, c in named if at >= start]
    since = max(start, question) if pointer.start() >= question else start
    return _only(naming, lambda c: any(c is p for p in people) or (span := _span(c, folded)) is None
                 or span[0] >= since)


def _pointed_person(per_piece: list[list[_Concept]], folded: str, sentence: int,
                    titled: frozenset[str]) -> list[list[_Concept]]:
    """Where no name the member gave is left, the person 他 or 她 in the question's sentence points
    back at, outside a clause of what else would do or is not wanted: the last name before it that
    reads as a person's, of three characters or a common surname's (「…看到珍古德過世的消息…想在課堂上
    跟小朋友聊聊她」: 珍古德, not 課堂); none where no such name is written before it. `sentence`: where
    the question's sentence starts; `titled`: the titles in title marks, folded."""
    pointer = next((m for m in _BACK.finditer(folded, sentence) if _PERSON_POINTER.fullmatch(m.group(0))
                    and not _aside(m.start(), folded, sentence)), None)
    if pointer is None:
        return []
    people = [(at, c) for p in per_piece for c in p if not is_place(c.folded) and _may_be_person(c, titled)
              and (len(c.folded) == 3 or is_personal(c.folded) or text.dictionary_tag(c.folded) == "nr")
              and 0 <= (at := folded.rfind(c.folded, 0, pointer.start()))]
    return [[max(people, key=lambda n: n[0])[1]]] if people else []


def _may_be_person(concept: _Concept, titled: frozenset[str]) -> bool:
    """A given name (no place) that reads as a person's (is_personal) or the dictionary files as one
    (莫文蔚), or one of three to five Chinese characters no dictionary knows, not a title in marks
    (`titled`, folded) nor a thing of a kind (運動部, 新北市): a foreign person's name in characters
    (井上尚彌, 車銀優)."""
    name = concept.folded
    return is_personal(name) or name[-1] not in KIND_ENDINGS and name not in titled and (
        text.dictionary_tag(name) == "nr" or 3 <= len(name) <= 5 and all(text.has_cjk(ch) for ch in name)
        and not text.dictionary_frequency(name))


def _only(naming: list[list[_Concept]], keep: Callable[[_Concept], bool]) -> list[list[_Concept]]:
    """The stretches with only the concepts kept, those left empty dropped."""
    return [kept for p in naming if (kept := [c for c in p if keep(c)])]


def _clause_of(concept: _Concept, folded: str) -> int:
    """The index of the clause of the folded intent that first names a concept (-1 when none does)."""
    span = _span(concept, folded)
    return -1 if span is None else len(CLAUSE.findall(folded, 0, span[0]))


def _clauses_naming(concept: _Concept, concepts: list[_Concept], folded: str) -> set[int]:
    """The indices of the clauses of the folded intent that name a concept, not as part of a longer
    one of `concepts` (漢典 of 陳漢典)."""
    longer = [(m.start(), m.end()) for c in concepts if concept.folded in c.folded and c.folded != concept.folded
              for m in re.finditer(re.escape(c.folded), folded)]
    return {len(CLAUSE.findall(folded, 0, m.start())) for m in re.finditer(re.escape(concept.folded), folded)
            if not any(start <= m.start() and m.end() <= end for start, end in longer)}


def _points_back(folded: str, earlier: _Concept, later: _Concept) -> bool:
    """Whether a pronoun or a pointer (他, 她, 這部) comes between two concepts."""
    start, end = _span(earlier, folded), _span(later, folded)
    return bool(start and end and _POINTER.search(folded, start[1], end[0]))


def _aspect(concept: _Concept, folded: str, at: int | None = None) -> bool:
    """Whether a concept, where first named or at `at`, is joined by 跟 or 和 to another: one of the
    aspects a clause lists (結局跟Mark那條線, MyCareer跟線上模式)."""
    span = _span(concept, folded) if at is None else (at, at + len(concept.folded))
    return span is not None and (folded[:span[0]].endswith(_AND) or folded[span[1]:].startswith(_AND))


def _asking_clauses(folded: str) -> list[int]:
    """The indices of the clauses of the folded intent that ask or want: a question, or a clause
    with a word of wanting or asking (想, 找, 推薦, 哪, 怎樣, 如何, 是不是, 嗎…)."""
    marks = [m.group(0) for m in CLAUSE.finditer(folded)] + [""]
    return [i for i, (clause, mark) in enumerate(zip(map(without_titles, CLAUSE.split(folded)), marks))
            if mark in ("?", "？") or any(word in _ANYTHING.sub("", clause) for word in _WANTING)]


def _in_asking_clause(piece: list[_Concept], folded: str) -> bool:
    """Whether a stretch is in a clause that asks or wants."""
    return bool(piece) and _clause_of(piece[0], folded) in _asking_clauses(folded)


def _place_led(concepts: list[_Concept], aliases: AliasLexicon, intent: str) -> list[_Concept]:
    """Concepts in a row that spell a name of the alias lexicon beginning with a place, which the
    cut reads as the place and the thing (台北 國際 書展), one concept again: the name is what the
    request is about, and posts also write its other names (TIBE, 北馬)."""
    merged: list[_Concept] = []
    start = 0
    while start < len(concepts):
        end = next((end for end in range(len(concepts), start + 1, -1)
                    if aliases.others("".join(c.folded for c in concepts[start:end]))), start + 1) \
            if is_place(concepts[start].folded) else start + 1
        if end > start + 1:
            name = "".join(c.folded for c in concepts[start:end])
            merged.append(_Concept(folded=name, entity=True, names=[text.original_spelling(name, [intent], keep_case=True)]))
        else:
            merged.append(concepts[start])
        start = end
    return merged


def _asked_for(per_piece: list[list[_Concept]], folded: str) -> list[_Concept] | None:
    """The stretch naming what a request without a name asks for: in the first phrase that asks
    (想找, 推薦, 有沒有; a list a 、 joins in it: 「推薦適合讀書時聽、不會分心的古典樂」), what follows its
    last 的 (可以帶狗的民宿: 民宿), else what follows the asking (想找 產後護理之家), not the setting
    around it (快生了, 去大巨蛋看球之前)."""
    at = [(found, piece) for found, piece in zip(_starts(per_piece, folded), per_piece) if found >= 0]
    def things(begin: int, end: int, named: bool = False) -> list[list[_Concept]]:
        """The stretches naming a thing; after 的 a verb names one too (可以做的伸展: 伸展)."""
        return [p for found, p in at if begin <= found < end
                and any(not is_place(c.folded) and (named or not _doing(c.folded)) for c in p)]

    start = 0
    for clause in PHRASE.split(folded):
        end = start + len(clause)
        if _aside_clause(clause):
            # 「單純推薦哪家飛輪教室好上的就不用了」 turns a thing away, however it asks.
            start = end + 1
            continue
        # The asking opens the clause, after framing and places only (not 推薦 of 攤位推薦); 有沒有人
        # asks for people who know of the topic, not for a thing.
        cue = min((clause.find(c) + len(c) for c in _ASKING if c in clause and not _asks_for_people(clause, c)
                   and not things(start, start + clause.find(c))), default=-1)
        if (become := _BECOMING.search(clause)) and (cue < 0 or become.end() < cue):
            # What the member wants to become is what they ask about, whatever they say before it
            # (喜歡狗想轉行當訓犬師: 訓犬師).
            cue = become.end()
        if cue >= 0:
            head = clause.rfind("的")
            for after in (head, cue) if head > cue else (cue,):
                # What is asked for may be a service the dictionary files as a verb (想找花蓮包車: 包車).
                asked = things(start + after, end, named=after == head) or things(start + after, end, named=True)
                if asked:
                    return asked[0]
            return None
        start = end + 1
    return None


def _asks_for_people(clause: str, cue: str) -> bool:
    """Whether an asking word asks for people who know of the topic, not for a thing: 有沒有人,
    找大家聊, 找去過的人分享 (folded)."""
    after = clause[clause.find(cue) + len(cue):]
    return after.startswith(_PEOPLE) or "的人" in after


def _given_name(concept: _Concept, segmenter: Segmenter, aliases: AliasLexicon, intent: str) -> bool:
    """A name the member gave: a title, a name of the alias lexicon, a Latin name (not a code such
    as 5G), or a person's name the intent gives a title or form of address, after it or before it
    (黃瑽寧 of 黃瑽寧醫師, 戴勝益 of 王品創辦人戴勝益).
    Not a proper noun of the dictionary alone, which files many common words as names (卡住, 衛教)."""
    folded = concept.folded
    # IU or A24 (a letter before a number of two digits or more), not 5G nor an English word written
    # in lower case (拿到offer)
    latin = not text.has_cjk(folded) and (sum(ch.isalpha() for ch in folded) >= 2 or bool(_LETTER_NUMBER.fullmatch(folded))) \
        and not _english_words(concept)
    return folded in segmenter.names or latin or bool(aliases.others(folded)) or bears_title(folded) and any(
        folded + title in intent for title in titles()) or is_personal(folded) and any(
        title + folded in intent for title in titles())


def _known_name(concept: _Concept, segmenter: Segmenter, aliases: AliasLexicon, intent: str) -> bool:
    """A name the member gave, or a proper noun of the dictionary."""
    return _given_name(concept, segmenter, aliases, intent) or (
        text.dictionary_tag(concept.folded) is not None and is_proper_noun(concept.folded))


def _framed(intent: str, segmenter: Segmenter) -> bool:
    """Whether the intent is a sentence: it ends a clause or a question (DeepSeek 到底好不好用？), or
    some stretch of it says something and also holds framing or function words (想追戴資穎最近的比賽),
    unlike keywords beside a framing word (鬼滅之刃 心得)."""
    if _SENTENCE_MARK.search(intent):
        return True
    for chunk in chunks(intent):
        kept = sum(len(u) for p in segmenter.pieces(chunk) for u in p.units if text.has_cjk(u))
        if 0 < kept < text.cjk_count(chunk):
            return True
    return False


def _doing(folded: str) -> bool:
    """A verb or a set phrase of the dictionary (去過, 常看到), as a sentence says what it does."""
    tag = text.dictionary_tag(folded) or ""
    return tag[:1] in _DOING_TAGS


def _verb(folded: str) -> bool:
    """A verb of the dictionary (轉職, 回鄉); a set phrase is as often a thing (雞肉飯), and so is a
    verb the dictionary files as a noun too (生育, 投資: vn)."""
    tag = text.dictionary_tag(folded) or ""
    return tag.startswith("v") and tag != "vn"


def _is_country(folded: str) -> bool:
    """A place no city, county or destination of the place lexicon is: a country or a region."""
    return is_place(folded) and folded not in places()


def _concepts(pieces: list[Piece], segmenter: Segmenter, intent: str, years: bool = False) -> list[_Concept]:
    """One concept per content unit, a year left out unless `years`."""
    concepts: list[_Concept] = []
    for piece in pieces:
        # A run the tokenizer left whole or cut into characters (外包後端工程師), in its words.
        units = [part for unit in piece.units
                 for part in (None if unit in segmenter.words else _parts(unit)) or [unit]]
        for unit in units:
            if not years:
                # A year is no topic, nor one in a run with a name (TGA 2025, 2026經典賽), nor any
                # other time, which only says when (十二月, 明年, 週末).
                if is_year(unit) or (unit not in segmenter.words and _is_time(unit)):
                    continue
                unit = _YEAR_BESIDE.sub("", unit).strip() or unit
            unit = unit if unit in segmenter.words else _unglued(unit)
            concepts.append(_Concept(folded=unit, entity=segmenter.is_entity(unit)))
    for concept in concepts:
        concept.names.append(text.original_spelling(concept.folded, [intent], keep_case=True))
    return concepts


def _is_time(unit: str) -> bool:
    """A word of the dictionary that says when (明年, 週末, 暑假: tagged t), a month (十二月), or a
    number of one or two digits, a day's or a month's (9/7)."""
    return text.dictionary_tag(unit) == "t" or bool(_MONTH.match(unit)) or unit.isdigit() and len(unit) <= 2


def _parts(unit: str) -> list[str] | None:
    """The words of a run the tokenizer left whole or cut into characters (外包後端工程師), the
    unknown words between them too (貝親奶瓶: 貝親 奶瓶), which a post writes apart; a verb among
    them says what the sentence does, not what it is about (覺得 of 覺得生技業), and a generic head
    after an unknown word names what kind of thing it is (托嬰中心 stays whole)."""
    parts = compound_parts(unit, common=1)
    if parts is not None:
        return parts
    joined: list[str] = []
    for part in parts_around_names(unit) or []:
        if _doing(part):
            continue
        if joined and not text.dictionary_frequency(joined[-1]) and is_generic_head(part, joined[-1]):
            joined[-1] += part
        else:
            joined.append(part)
    return joined or None


def _unglued(unit: str) -> str:
    """A name the dictionary lacks without the verb before it or the verb and particles after it,
    which the cut glued to it (聊 孫藝珍, 覺得 生技業, 普考 考完, 世壯運 辦得); what is left keeps
    at least three characters, or two when the end is cut."""
    if not text.has_cjk(unit) or text.dictionary_frequency(unit) or is_personal(unit):
        return unit  # (a person's name may end in a verb's character: 李崇建)
    words = text.base_cut(unit)
    # A verb of one character only before a surname (聊 孫藝珍, not 托 嬰中心).
    if len(words) > 1 and _doing(words[0]) and len("".join(words[1:])) >= 3 and (
            len(words[0]) > 1 or (text.dictionary_tag(words[1]) or "").startswith("nr")
            or is_personal("".join(words[1:]))):
        words = words[1:]
    while len(words) > 1 and len(words[-1]) == 1 and (text.dictionary_tag(words[-1]) or "")[:1] in "vu" \
            and len("".join(words[:-1])) >= 2:
        words = words[:-1]
    return "".join(words)


def _merged(concepts: list[_Concept], aliases: AliasLexicon) -> list[_Concept]:
    """Concepts the intent names twice, merged: two names of one lexicon entry (周杰倫 周董), or a
    Latin name beside a Chinese personal or unknown name (Jolin 蔡依林)."""
    merged: list[_Concept] = []
    for concept in concepts:
        if merged and _same_thing(merged[-1], concept, aliases):
            for name in concept.names:
                merged[-1].add(name)
        else:
            merged.append(concept)
    return merged


def _same_thing(previous: _Concept, concept: _Concept, aliases: AliasLexicon) -> bool:
    """Two names of one lexicon entry, or a Latin name beside a Chinese personal or unknown one."""
    return concept.folded in {text.fold(n) for n in aliases.others(previous.folded)} or (
        previous.entity and concept.entity and text.has_cjk(previous.folded) != text.has_cjk(concept.folded)
        and all(_personal_or_unknown(c.folded) if text.has_cjk(c.folded) else _has_letter(c.folded)
                for c in (previous, concept)))


def _has_letter(latin: str) -> bool:
    """A Latin name rather than a number (1500 萬內 is an amount)."""
    return any(ch.isalpha() for ch in latin)


def _joined(per_piece: list[list[_Concept]], aliases: AliasLexicon, folded: str) -> list[list[_Concept]]:
    """Stretches that name one thing twice across their boundary (LANEIGE 蘭芝保養品) as one, not
    across a clause (「…網美在騎小布。想看大家對 Brompton 的…」: the question names it again); a
    word the dictionary lacks after a stretch is more often what is done with it (Pocket 抽卡)."""
    joined: list[list[_Concept]] = []
    starts = _starts(per_piece, folded)
    for i, piece in enumerate(per_piece):
        if joined and joined[-1] and piece and _same_thing(joined[-1][-1], piece[0], aliases) and all(
                text.dictionary_tag(c.folded) for c in (joined[-1][-1], piece[0]) if text.has_cjk(c.folded)) \
                and not CLAUSE.search(folded, max(starts[i - 1], 0), max(starts[i], 0)):
            joined[-1] = joined[-1] + piece
        else:
            joined.append(piece)
    return joined


def _personal_or_unknown(word: str) -> bool:
    """A person's name or a word the dictionary lacks, but not a place (BLACKPINK 高雄 are two things)."""
    tag = text.dictionary_tag(word)
    return not is_place(word) and (tag is None or (is_proper_noun(word) and tag.startswith("nr")))


def _most_specific(concepts: list[_Concept], keywords: list[list[_Concept]], framed: bool) -> list[_Concept] | None:
    """The most specific of several concepts (not a number) with the places beside it; none in one
    keyword, whose words name one thing (外包後端設計師), or where rare keywords all describe the
    generic head that ends the request, which must all hold (外包 後端 工程師; not 收入 of 外送員
    收入 跑單)."""
    things = [c for c in concepts if not is_place(c.folded) and not c.folded.isdigit()]
    if len(things) < 2 or not framed and _described(concepts, keywords) \
            or not framed and sum(any(c in things for c in k) for k in keywords) < 2:
        return None
    chosen = (not framed and _compound_first(keywords, things)) or [min(things, key=_specificity)]
    return [c for c in concepts if any(c is k for k in chosen) or is_place(c.folded)]


def _described(concepts: list[_Concept], keywords: list[list[_Concept]]) -> bool:
    """Whether rare keywords (not places) all describe the generic head that ends the request,
    left out of the keywords (外包 後端 of 外包 後端 工程師; not 收入 of 外送員 收入 跑單), each a
    word of the dictionary: a name it lacks says who, not what kind (杜微 of 杜微 台鐵 董事長)."""
    modifiers = [c for keyword in keywords for c in keyword if not is_place(c.folded)]
    return not any(concepts[-1] is c for k in keywords for c in k) and len(modifiers) > 1 and all(
        text.has_cjk(c.folded) and 0 < text.dictionary_frequency(c.folded) < NAME_MAX_FREQUENCY for c in modifiers)


def _compound_first(keywords: list[list[_Concept]], things: list[_Concept]) -> list[_Concept] | None:
    """The words of a first keyword the member wrote as one Chinese word of several: more specific
    than any single word after it (基層公務員 beside 離職, 健身工廠 beside 會籍)."""
    first = [c for c in keywords[0] if any(c is t for t in things) and text.has_cjk(c.folded)] if keywords else []
    return first if len(first) > 1 else None


def _specificity(concept: _Concept) -> tuple[bool, bool, int]:
    """Names first, then the rarer words, places last."""
    common = text.dictionary_frequency(concept.folded) if text.has_cjk(concept.folded) else 0
    return (is_place(concept.folded), not concept.entity, common)


def _inside_named_city(place: _Concept, concepts: list[_Concept]) -> bool:
    city = places().get(place.folded)
    return city is not None and city != place.folded and any(
        c.folded.startswith(city) and c.folded != city for c in concepts)


def _core(concepts: list[_Concept]) -> list[_Concept]:
    """The most specific concepts, in the intent's order: names, then the rarer words; not a place inside the city another concept's name begins with, which only
    says where in it (愛河 of 高雄燈會 愛河)."""
    concepts = [c for c in concepts if not _inside_named_city(c, concepts)] or concepts
    if len(concepts) <= MAX_CONCEPTS:
        return concepts
    kept = sorted(concepts, key=_specificity)[:MAX_CONCEPTS]
    return [c for c in concepts if any(c is k for k in kept)]
