"""Phase 1 — content units: a phrase of the brief cut into the words that can carry its topic.

A phrase is folded (see `text.fold`), split where separators stand, and cut by a tokenizer that
knows the brief's own vocabulary: the approved terms' names that the dictionary cannot take apart
(鬼滅之刃, 想見你, 小戴), so that a name is never cut into pieces or mistaken for framing. Framing
and function words — the maintained lexicon in `framing.txt` and the part-of-speech classes that
never name a topic (adverbs, pronouns, particles, prepositions, conjunctions, time words) — are
dropped, and the phrase splits where they stood: 「想找台北的陶藝課心得」 gives 台北 and 陶藝課.
Single characters the dictionary cannot place join their neighbour, so an unknown name (台積電)
stays whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from scout.pipeline import glosses, text
from scout.pipeline.aliases import lexicon, places, synonyms
from scout.pipeline.text import NAME_MAX_FREQUENCY

_LEXICON_FILE = Path(__file__).with_name("framing.txt")
_TITLES_FILE = Path(__file__).with_name("titles.txt")
# Part-of-speech classes (jieba's tags, by first letter) of words that never name a topic:
# adverbs, pronouns, conjunctions, prepositions, particles, modal particles, interjections,
# onomatopoeia, time words and measure words.
_FUNCTION_TAGS = frozenset("drcpuyeotq")
FUNCTION_MIN_FREQUENCY = 20
# Proper-noun tags: person, place, organisation, other proper noun. Words of location (s: 室內,
# 戶外, 海邊) are common words.
_PROPER_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz"})
# Frequency the framing words get in a brief's tokenizer: whole, yet below the brief's own names.
_FRAMING_FREQ = 2_000

# Latin words written apart (Apple Watch, Elephant Gym), or one word joined by a hyphen, dot or
# apostrophe (Z-A, K-pop, Wi-Fi): one chunk, not cut at its punctuation. Any other single Latin
# word stays in its chunk, where the tokenizer keeps it whole beside its Chinese (50嵐).
_LATIN_RUN = re.compile(r"[a-z0-9][a-z0-9.+#&'_-]*(?: [a-z0-9][a-z0-9.+#&'_-]*)+|[a-z0-9]+(?:[.&'_-][a-z0-9]+)+[+#]*")
_SEPARATORS = re.compile(r"[\s,，、/|+&·・;；:：()（）\[\]【】「」『』《》〈〉\"'“”‘’!！?？。~～#＃@…—.-]+")
_PLACEHOLDER = "\x00"


def _lexicon(path: Path) -> frozenset[str]:
    words: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        words.update(text.fold(word) for word in line.split("#", 1)[0].split())
    return frozenset(words)


@cache
def framing_words() -> frozenset[str]:
    return _lexicon(_LEXICON_FILE)


@cache
def titles() -> frozenset[str]:
    return _lexicon(_TITLES_FILE)


def is_framing(word: str) -> bool:
    """A framing or function word: never evidence of a topic."""
    if word in framing_words():
        return True
    tag = text.dictionary_tag(word) if text.has_cjk(word) and len(word) >= 2 else None
    # A rare word the dictionary files under a function class is mostly a name it misfiles
    # (五月天 as a time word), not a word people frame requests with.
    return bool(tag and tag[0] in _FUNCTION_TAGS and text.dictionary_frequency(word) >= FUNCTION_MIN_FREQUENCY)


def is_proper_noun(word: str) -> bool:
    """Filed by the dictionary as a name, and not a title or form of address (阿姨, filed as a person)."""
    return text.dictionary_tag(word) in _PROPER_TAGS and word not in titles()


def is_common_word(word: str) -> bool:
    """A word of two characters or more the dictionary knows (NAME_MAX_FREQUENCY) and does not file as a name."""
    return len(word) >= 2 and text.dictionary_frequency(word) >= NAME_MAX_FREQUENCY and not is_proper_noun(word)


def bears_title(word: str) -> bool:
    """Whether a title after this word says who a person is (江振誠主廚, Andre 主廚) rather than
    what kind of one (健身教練, 外科醫師: after a common word the title names a trade), nor which
    one (哪間醫生, 這位老師: a pronoun and a measure word point at someone unnamed), nor where (台大
    醫師, 中文教練: a word the dictionary knows well, not as a person's name, names no one)."""
    known = len(word) >= 2 and text.dictionary_frequency(word) >= NAME_MAX_FREQUENCY \
        and not (text.dictionary_tag(word) or "").startswith("nr")
    return not known and not (len(word) == 2 and text.dictionary_tag(word[0]) == "r")


_ARTICLES = frozenset(("the", "a", "an"))


# Latin words that only join the words of a name (The Life of a Showgirl).
_LATIN_GLUE = frozenset("a an the of and or for in on at to with de la le du von van".split())


def content_words(latin: str) -> list[str]:
    return [w for w in latin.split() if w not in _LATIN_GLUE]


# A character after a number that makes a name of it (12強, 4強), rather than an amount or a time (3天, 2026年).
_AMOUNT_TAGS = frozenset({"m", "q", "t"})


def _ranks_a_number(char: str) -> bool:
    return text.dictionary_tag(char) not in _AMOUNT_TAGS and char not in "时分秒"


def _dictionary_word(token: str) -> bool:
    return len(token) >= 2 and text.dictionary_frequency(token) > 0


# A term's chunk of at most this many characters is one unit (大谷翔平, 鬼滅之刃, 金曲獎) unless
# it is two common words side by side (雨天 + 景點, 親子 + 餐廳): the member wrote it as one thing.
WHOLE_MAX_CHARS = 4
COMMON_PART_FREQUENCY = 50


def compound_parts(chunk: str, common: int = COMMON_PART_FREQUENCY) -> list[str] | None:
    """The dictionary words a run of Chinese is made of (台中親子餐廳 → 台中 親子 餐廳), or None when
    it is one thing: a name the dictionary cannot take apart (草東沒有派對) or a short chunk
    not made of words at least `common` in the dictionary."""
    # Fewest dictionary words of two or more characters covering the chunk exactly.
    best: list[list[str] | None] = [[]] + [None] * len(chunk)
    for end in range(2, len(chunk) + 1):
        for start in range(0, end - 1):
            word, before, current = chunk[start:end], best[start], best[end]
            if before is not None and _dictionary_word(word) and (current is None or len(before) + 1 < len(current)):
                best[end] = [*before, word]
    parts = best[len(chunk)]
    if parts is None or len(parts) < 2:
        return None
    if len(chunk) <= WHOLE_MAX_CHARS and not all(text.dictionary_frequency(p) >= common for p in parts):
        return None
    return parts


def parts_around_names(chunk: str) -> list[str] | None:
    """A run of Chinese the dictionary lacks, in the tokenizer's words, the single characters it
    cut in a row joined as the unknown word they spell (長照 產業 缺工, 貝親 奶瓶), with a word the
    dictionary barely knows before them or after one (皮拉 提 斯); None when a lone character is
    left (汪汪 隊 立大功) or nothing but unknown characters (姜亨旭訓犬師): no word boundary to
    trust."""
    if not all(text.has_cjk(c) for c in chunk) or _dictionary_word(chunk):
        return None
    parts: list[str] = []
    unknown = ""
    tokens = text.base_cut(chunk)
    for token, after in zip([*tokens, None], [*tokens[1:], None, None]):
        if token is not None and (len(token) == 1 or text.dictionary_frequency(token) < NAME_MAX_FREQUENCY
                                  and (len(unknown) == 1 or after is not None and len(after) == 1)):
            unknown += token
            continue
        if len(unknown) == 1:
            return None
        parts += [unknown] if unknown else []
        unknown = ""
        if token is not None:
            parts.append(token)
    return parts if len(parts) >= 2 else None


def chunks(raw: str) -> list[str]:
    """A phrase folded and split at separators; Latin words written apart stay one chunk (Apple Watch)."""
    folded = text.fold(raw)
    runs: list[str] = []

    def protect(match: re.Match[str]) -> str:
        runs.append(match.group(0))
        return f" {_PLACEHOLDER}{len(runs) - 1}{_PLACEHOLDER} "

    protected = _LATIN_RUN.sub(protect, folded)
    out: list[str] = []
    for chunk in _SEPARATORS.split(protected):
        for part in re.split(f"({_PLACEHOLDER}\\d+{_PLACEHOLDER})", chunk):
            if part.startswith(_PLACEHOLDER):
                out.append(runs[int(part.strip(_PLACEHOLDER))])
            elif part:
                out.append(part)
    return out


# A title set in title marks (《解憂雜貨店》, 〈七里香〉) is one name, whatever words it is made of.
_TITLE_MARKS = re.compile(r"[《〈]([^《》〈〉]+)[》〉]")
# Marks at a title's ends (雷霆特攻隊*, 孤獨搖滾！), which posts naming it leave out.
_TITLE_EDGES = re.compile(r"^[\W_]+|[\W_]+$")


def quoted_titles(phrases: list[str] | tuple[str, ...]) -> list[str]:
    """The folded titles the brief sets in title marks, without marks at their ends."""
    titles = (_TITLE_EDGES.sub("", text.fold(m.group(1))) for p in phrases for m in _TITLE_MARKS.finditer(p))
    return list(dict.fromkeys(t for t in titles if t))


# A clause that says what the member does not want (folded): 瓦城就不用, Staub的比較請略過, 別推其他…,
# 那部恐怖片也不是我要的.
UNWANTED = re.compile(r"(?:(?<!要)不要|不用|不需要|不必|略过|不看|不考虑|别推|免|就算|不是我(?:想)?要(?:的|找的|看的))[了啦喔吧]?$"
                      r"|^(?:但|可是|而且|也)?(?:不要|不想看|别推)")
# Marks and emoji that end a clause (not letters, digits or characters).
_TRAILING_MARKS = re.compile(r"[^\w]+$")
# Where clauses end (folded).
CLAUSE = re.compile(r"[,，。？?！!；;、\n]")
# Where phrases end: a clause, less the lists a 、 joins (folded).
PHRASE = re.compile(r"[,，。？?！!；;\n]")


def bare_clause(clause: str) -> str:
    """A clause (folded) without the marks or emoji that end it (就不用了😂)."""
    return _TRAILING_MARKS.sub("", clause.strip())


def turns_away(clause: str) -> bool:
    """Whether a clause (folded) says what the member does not want (…就不用了, 別推…, 不要…)."""
    return bool(UNWANTED.search(bare_clause(clause)))


def turned_away(folded: str) -> list[str]:
    """The phrases of a folded intent that say what the member does not want, each with the list
    its clause ends (萬聖節派對、變裝活動就不用了)."""
    return [phrase for phrase in PHRASE.split(folded) if turns_away(phrase)]


def without_titles(written: str) -> str:
    """The text less its titles in title marks, whose words name a work, not what the text says
    (求 of 《求婚大作戰》)."""
    return _TITLE_MARKS.sub("", written)


def brief_words(terms: list[str] | tuple[str, ...], marked: list[str] | tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The approved terms' own words, for cutting the whole brief alike: every chunk that is not
    framing, with the words a compound chunk is made of; and among them the names, the chunks the
    dictionary cannot take apart (鬼滅之刃, 小戴, 50嵐) and the titles set in title marks. A Latin
    chunk keeps only its non-framing words (iphone 17 review → iphone 17)."""
    words: list[str] = [t for t in marked if text.has_cjk(t)]
    names: list[str] = list(words)
    term_chunks = [[strip_latin_framing(c) if c.isascii() else c for c in chunks(term)] for term in terms]
    # A chunk searched as a term of its own, or spelled inside another term's chunk, is a name
    # (魷魚遊戲 beside 魷魚遊戲3), however common its words.
    alone = {c[0] for c in term_chunks if len(c) == 1}
    every = [c for cs in term_chunks for c in cs]
    for chunk in every:
        # A word the dictionary files under a function class but the member searched on its own
        # (乖乖, 深夜) is a word of the topic; the framing lexicon's words stay framing (推薦).
        if not chunk or (is_framing(chunk) and (chunk not in alone or chunk in framing_words())):
            continue
        named = chunk in alone or any(chunk != other and chunk in other for other in every)
        parts = None if chunk.isascii() or chunk in marked or (chunk in alone and _known_concept(chunk)) or (
            named and (len(chunk) <= WHOLE_MAX_CHARS or _known_name(chunk))) else compound_parts(chunk)
        if parts and named and any(is_framing(p) and p not in framing_words() for p in parts):
            # A name searched on its own that the dictionary would cut into a word it files as a
            # function word (正直 of the title 正直不動產) is one name, not that word and the rest.
            parts = None
        if chunk.isascii():
            names.append(chunk)
        elif parts:
            words.extend(t for t in parts if not is_framing(t))
        elif len(chunk) >= 2:
            words.append(chunk)
            if not _dictionary_word(chunk):
                names.append(chunk)
    return list(dict.fromkeys(words + names)), list(dict.fromkeys(names))


def _known_concept(chunk: str) -> bool:
    """A concept of the synonym lexicon with other words or kinds (物理治療師, 親子友善)."""
    return bool(synonyms().others(chunk) or synonyms().kinds(chunk))


def _known_name(chunk: str) -> bool:
    """A name of the alias lexicon (最後生還者), however common its words; one that begins with a
    place is still read as the place and the thing (台北 國際 電玩展), as posts write it apart."""
    return bool(lexicon().others(chunk)) and not any(chunk[:end] in places() for end in range(2, len(chunk) + 1))


def strip_latin_framing(run: str) -> str:
    words = run.split(" ")
    # An article before one word is part of a title (The Bear, The Glory), not framing.
    while words[1:] and words[0] in framing_words() and not (words[0] in _ARTICLES and len(words) == 2):
        words.pop(0)
    while words and words[-1] in framing_words():
        words.pop()
    return " ".join(words)


@dataclass(frozen=True)
class Piece:
    """A stretch of a phrase between framing words, and the units it is made of."""

    units: tuple[str, ...]

    @property
    def text(self) -> str:
        return "".join(self.units) if all(text.has_cjk(u) for u in self.units) else " ".join(self.units)


def runs(written: str, pieces: list[Piece]) -> list[list[Piece]]:
    """A phrase's pieces by the stretches written without a space between them (紫金山-阿特拉斯彗星
    is one stretch, 哈拉瑞 連結 two)."""
    folded = text.fold(written)
    grouped: list[list[Piece]] = []
    position = 0
    for piece in pieces:
        at = folded.find(piece.units[0], position)
        if at < 0 or not grouped or any(c.isspace() for c in folded[position:at]):
            grouped.append([])
        grouped[-1].append(piece)
        if at >= 0:
            position = at + len(piece.units[0])
            for unit in piece.units[1:]:
                found = folded.find(unit, position)
                position = found + len(unit) if found >= 0 else position
    return grouped


class Segmenter:
    """Cuts the intent and the terms of one brief alike, knowing the brief's vocabulary."""

    def __init__(self, terms: list[str] | tuple[str, ...], marked: list[str] | tuple[str, ...] = ()) -> None:
        words, names = brief_words(terms, marked)
        self.words = frozenset(words)
        self.names = frozenset(names)
        self._tokenizer = text.tokenizer_with(words, extra={w: _FRAMING_FREQ for w in framing_words() | titles()})

    def pieces(self, raw: str) -> list[Piece]:
        pieces: list[Piece] = []
        for chunk in chunks(raw):
            if chunk.isascii():
                run = strip_latin_framing(chunk)
                if run and not is_framing(run):
                    pieces.append(Piece((run,)))
                continue
            current: list[str] = []
            for token in _given_names(self._tokenizer.lcut(chunk, HMM=False)):
                title = bool(current) and token in titles() and (current[-1] in self.names or bears_title(current[-1]))
                if not token.strip() or title or (token not in self.words and is_framing(token)):
                    if current:
                        pieces.append(Piece(tuple(self._glue(current))))
                    current = []
                else:
                    current.append(token)
            if current:
                pieces.append(Piece(tuple(self._glue(current))))
        return [p for p in pieces if p.units]

    def is_entity(self, unit: str) -> bool:
        """A named thing rather than a common word: a Latin or numbered name, one of the brief's
        own names, a proper noun of the dictionary, or a word mostly unknown to it (台積電)."""
        if not text.has_cjk(unit) or unit in self.names:
            return True
        if text.dictionary_tag(unit) is not None:
            return is_proper_noun(unit)
        known = max((len(t) for t in text.base_cut(unit) if _dictionary_word(t)), default=0)
        return known * 3 < len(unit) * 2

    def _glue(self, tokens: list[str]) -> list[str]:
        """Units of one piece. Characters the dictionary cannot place, in a row, are an unknown name:
        they stay together, with the word after them (鬼滅 + 之刃) or before them (大谷 + 翔平), but a
        word of the approved terms or a place is whole as written: two such characters beside it
        are a verb or a particle (高普考 考完, 抽中 台北), dropped. A lone character joins the word
        before it when it is a noun (陶藝 + 課), a surname with nothing before it the word after it
        (彭 + 啟明), a numeral after a year too (2026 九合一), the two-character noun after it when
        the dictionary cut one character late (燒 + 肉店: 燒肉 店), else it is dropped (帶 長輩). Kana
        in a row join a noun or characters the dictionary cannot place (藤本タツキ, 東横イン), never a
        verb or a number (看過 ヨルシカ, 一次 アニサマ)."""
        units: list[str] = []
        run = ""
        for token in [*_kana_words(tokens), None]:
            if token is not None and not (token.isascii() or token in self.words or _dictionary_word(token)):
                # A lone character the kana follow is a verb or particle (聊 ちいかわ) unless a noun takes them.
                run = token if KANA.fullmatch(token[0]) and len(run) == 1 and not _takes(token, run) else run + token
                continue
            # The word after the run, when it can take the run in front of it (鬼滅 + 之刃).
            taker = token if token is not None and text.has_cjk(token) and not self._whole(token) else None
            if len(run) == 1:
                if _nominal(run) and units and text.has_cjk(units[-1]):
                    units[-1] += run
                elif not units and text.dictionary_tag(run) == "nr" and taker:
                    token = run + taker
                elif taker and _cut_late(run, taker):
                    token = run + taker
                elif units and units[-1].isdigit():
                    if _ranks_a_number(run):
                        units[-1] += run
                    elif text.dictionary_tag(run) == "m" and taker:
                        token = run + taker
                    elif len(units[-1]) < 4:
                        units.pop()  # an amount or a date (3天, 7月26號), not a topic; a year stays
            elif run and len(run) <= 2 and self._whole(token if token is not None else units[-1] if units else ""):
                pass  # a verb or particle beside a word of the terms or a place
            elif run and taker and _takes(run, taker):
                token = run + taker
            elif run and token is None and units and text.has_cjk(units[-1]) and not self._whole(units[-1]) \
                    and _takes(run, units[-1]):
                units[-1] += run
            elif run:
                units.append(run)
            run = ""
            if token is not None:
                units.append(token)
        return [u for u in units if len(u) >= 2 or (u.isascii() and u.isalnum())]

    def _whole(self, unit: str) -> bool:
        """A word of the approved terms or a place: nothing the dictionary cannot place joins it."""
        return unit in self.words or unit in places()


# Japanese kana (and the prolonged sound mark), a script of its own beside Chinese characters.
KANA = re.compile(r"[\u3040-\u30ff]")


def _takes(run: str, word: str) -> bool:
    """Whether a word joins the run of characters beside it: always, unless the run is all kana and
    the word one the dictionary files as no noun (看過, 一次)."""
    tag = text.dictionary_tag(word)
    return not KANA.fullmatch(run[0]) or not KANA.fullmatch(run[-1]) or tag is None or tag.startswith("n")


def _kana_words(tokens: list[str]) -> list[str]:
    """Tokens with kana in a row joined: the dictionary cuts a kana word letter by letter (ア ニ サ マ)."""
    joined: list[str] = []
    for token in tokens:
        if joined and KANA.fullmatch(token[:1]) and KANA.fullmatch(joined[-1][-1:]):
            joined[-1] += token
        else:
            joined.append(token)
    return joined


# The most common surnames in Taiwan, folded: a three-character name that starts with one is most
# often a person's, written by fans by the given name alone (昀儒 for 林昀儒, 紫棋 for 鄧紫棋).
_SURNAMES = frozenset(text.fold(c) for c in (
    "陳林黃張李王吳劉蔡楊許鄭謝郭洪曾邱廖賴周徐蘇葉莊呂江何蕭羅高潘簡朱鍾彭游詹胡施沈余趙盧梁顏柯翁魏孫戴"
    "范方宋鄧杜傅侯曹薛丁卓阮馬董温唐藍石蔣古紀姚連馮歐程湯黄田康姜汪白鄒尤巫鐘黎涂龔嚴韓袁金童陸夏柳"))


# Last characters that make a thing of a kind (an award, a shop, a lesson, a team), not a person's name.
KIND_ENDINGS = frozenset(text.fold(c) for c in "獎店課班館節賽隊團社展場局站廳部市院會署處")


def is_personal(expression: str) -> bool:
    """A three-character name that reads as a person's: a common surname, no place or organisation,
    no common word the dictionary translates (馬拉松: marathon) and no thing of a kind (金馬獎, 游泳課)."""
    return len(expression) == 3 and all(text.has_cjk(c) for c in expression) and expression[0] in _SURNAMES \
        and text.dictionary_tag(expression) not in ("ns", "nt") and expression not in places() \
        and not glosses.common_word(expression) and expression[-1] not in KIND_ENDINGS


def _given_names(tokens: list[str]) -> list[str]:
    """A surname and a given name the dictionary cut apart are one name: a given name of no common
    word (謝 金河, 黃 珊 珊; not 謝 大家), where the surname is a word of its own elsewhere (thank,
    yellow), or the particle 之 and a lone character (林 之 晨): the particle there is the given
    name's first character, not a word that ends the piece. (Tagged a bare particle, u; 的, 了 and
    著 are tagged as the particles they only are.) `tokens` are folded."""
    joined: list[str] = []
    for token in tokens:
        # is_personal takes three characters only: the surname and the given name's two.
        if len(joined) >= 2 and len(token) == 1 and not is_framing(token) and len(joined[-1]) == 1 and (
                text.dictionary_tag(joined[-1]) == "u" or not is_framing(joined[-1]) and joined[-2] in _SURNAMES
                and not glosses.common_word(joined[-1] + token)) and is_personal(joined[-2] + joined[-1] + token):
            given, surname = joined.pop(), joined.pop()
            token = surname + given + token
        elif joined and len(token) == 2 and len(joined[-1]) == 1 and joined[-1] in _SURNAMES \
                and not glosses.common_word(token) and not is_framing(token) and is_personal(joined[-1] + token):
            token = joined.pop() + token
        joined.append(token)
    return joined


def _cut_late(char: str, noun: str) -> bool:
    """Whether the dictionary cut a lone character off a word that goes on into a two-character
    noun after it (燒 肉店 is 燒肉 店)."""
    return len(noun) == 2 and text.dictionary_frequency(char + noun[0]) >= NAME_MAX_FREQUENCY and _nominal(noun[1])


def _nominal(char: str) -> bool:
    tag = text.dictionary_tag(char)
    return tag is None or tag.startswith("n")


# A name and, in brackets right after it, another name of it (公文式（KUMON）).
BRACKETED = re.compile(r"([\u3400-\u9fff]{2,12})[（(]([^（）()、，,。；;]{2,30})[)）]")
# jieba's tags of words no name holds (see _breaks_name).
_NAME_BREAKING_TAGS = frozenset("vmprdcf")


def bracketed(intent: str) -> list[tuple[str, str]]:
    """Each name and the other name the member gives it in brackets right after it (公文式（KUMON）,
    樂天銀行（樂天國際商銀）): the name is what follows the last verb, number, pronoun, adverb,
    preposition or conjunction before the brackets (去上 公文式, 一顆 檸檬彗星, 聊 鼓鼓), and the word
    before a lone last character (吃 一蘭); the other
    name a Latin name, one with kana, or at most six Chinese characters of none of those, not an aside
    (接案、伴奏、巡演; 牛丼連鎖那個; 試管嬰兒實驗室)."""
    pairs = []
    for match in BRACKETED.finditer(intent):
        written = match.group(1)
        words = text.base_cut(text.fold(written))
        cut = max((i + 1 for i, word in enumerate(words[:-1]) if _breaks_name(word)), default=0)
        # A name of one character after the break begins with the word before it (一 蘭).
        cut -= cut > 0 and len(words[-1]) == 1 and cut == len(words) - 1
        name = written[sum(map(len, words[:cut])):]
        other = match.group(2).strip()
        named = not text.has_cjk(other) and any(ch.isalpha() for ch in other) or KANA.search(other) is not None or (
            len(other) <= 6 and not any(_breaks_name(w) for w in text.base_cut(text.fold(other))))
        if len(name) >= 2 and named:
            pairs.append((name, other))
    return pairs


def _breaks_name(word: str) -> bool:
    """A word no name holds: a verb (not one used as a noun, 教育), number, pronoun, adverb,
    preposition, conjunction, locative or aspect particle (過, 了, 的)."""
    tag = text.dictionary_tag(word) or "x"
    return tag[0] in _NAME_BREAKING_TAGS and tag != "vn" or tag in ("ug", "ul", "uj", "uz")


def bracketed_names(intent: str) -> str:
    """The names the member gives in brackets as lexicon lines (`name | other name`): one thing's
    two names, to the proposals and the signature alike."""
    return "\n".join(" | ".join(pair) for pair in bracketed(intent))
