"""The relevance gate (flow C): noise out, every required concept group hit (all but one in a
request of many; one of the sufficient ones, where the member searched several names each on its
own), no other place named instead of the brief's, then a score. A post short of that which writes
a long approved term whole is weakly eligible: it only makes up a shortfall.

The gate never looks at a post's age to accept or reject it; age only lowers the score, softly.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from scout.pipeline import glosses, text
from scout.pipeline.aliases import places
from scout.pipeline.signature import ConceptGroup, TopicSignature
from scout.pipeline.signature.segment import compound_parts, framing_words, is_proper_noun, quoted_titles

# Reasons a candidate is turned away (for diagnostics; counted as irrelevant).
NOISE_EMPTY, NOISE_HASHTAGS, NOISE_AD, NOISE_NAVIGATION, OFF_TOPIC = (
    "empty_body", "hashtag_only", "advertisement", "navigation_page", "off_topic")

_URL = re.compile(r"https?://\S+|www\.\S+")
_TAG_OR_MENTION = re.compile(r"[#＃][^\s#＃]+|@[\w.]+")
_SCRIPT_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[\u3400-\u9fff])|(?<=[\u3400-\u9fff])(?=[a-z0-9])")
_DOT_JOINT = re.compile(r"\.(?=[a-z])")
_CONTENT_CHAR = re.compile(r"[\w\u3400-\u9fff]")
# A post with something to say about the topic, rather than a line naming it, gains up to this
# much, in full from this many letters or characters.
SAYS_SOMETHING = 0.1
SAYS_SOMETHING_CHARS = 60
# What each sign of selling (a soft call, a price, 現貨) costs an eligible post's relevance.
SELLING_PENALTY = 0.05
# A post needs this many letters or characters of its own besides tags, mentions and links.
MIN_CONTENT_CHARS = 6
# Shorter Latin words match no -ed or -ing form: "bed" is not a form of "be", nor "tend" of "ten".
MIN_INFLECTED = 4
# Characters a name has at least to be written with spaces between them (烏 龍 院).
SPACED_MIN_CHARS = 3

# Advertising vocabulary, folded. A call that only a seller makes (加賴, 私訊下單, 折扣碼) is an ad
# on its own; softer calls (私訊, 預約) and selling words are common in honest posts about a brand,
# so they need each other: a soft call plus a selling signal, two soft calls, three signals, or
# two of which one is a price.
_AD_STRONG_CALLS = [text.fold(w) for w in (
    "加賴", "加line", "+line", "加LINE", "私訊下單", "私訊報價", "私訊預約", "私訊報名", "私訊訂購", "私訊詢價",
    "聊聊下單", "喊單", "下單連結", "團購連結", "報名連結", "link in bio", "連結在首頁", "連結在簡介", "連結在主頁", "主頁連結",
    "連結放主頁", "點擊連結",
    "優惠碼", "折扣碼", "代搶", "代刷", "代請", "代操", "代儲", "報牌", "招生中", "接案中", "歡迎預約",
    "立即搶購", "立即購買", "馬上下單", "免費領取", "加入群組", "現場快修", "dm 下單", "dm for price", "賣貨便",
    "加價出售", "原價出售", "頂讓", "轉售", "收購中", "推薦碼", "邀請碼", "讓票", "轉讓", "轉賣", "代買", "便宜賣",
    "便宜出", "價格私訊", "價格請私訊", "報價私訊", "加入送", "保證就業", "加盟說明會", "限時搶購", "訂位中", "日領",
    "日本代購", "韓國代購", "美國代購", "代購服務", "日本連線", "韓國連線", "連線代購", "讓售", "合售", "可議",
    "有意私訊", "有意者", "加價轉", "專人辦理", "加 line", "手續簡便", "+1就好", "出售", "免費估價", "歡迎新鮮人",
    "代訂位", "加群", "報明牌", "連結在留言", "連結放留言", "連結在下方", "首堂免費", "首堂體驗", "免費試聽", "額滿為止",
    "總部供貨", "歡迎加盟", "開放預購", "line洽", "洽line", "賴洽", "電洽", "來電洽詢", "私訊看房", "歡迎看房", "預約看房")]
_AD_CALLS = [text.fold(w) for w in (
    "私訊我", "私訊詢問", "私訊", "歡迎私訊", "洽詢", "歡迎洽詢", "點我", "點連結", "填表", "聯繫客服", "官方line",
    "面交", "預約", "出租", "出貨", "宅配", "訂房", "報名", "下單", "代購", "收購", "售出", "交貨", "招生", "快搶",
    "領取", "歡迎諮詢", "歡迎詢問", "免費諮詢", "快來", "幫你比較", "誠徵", "意者", "投履歷", "投遞履歷")]
_AD_SIGNALS = [text.fold(w) for w in (
    "限時優惠", "限時特價", "限時折扣", "現折", "買一送一", "免運", "特價", "名額有限", "數量有限", "限量", "最後一天",
    "賺錢", "被動收入", "日薪", "穩賺", "保證獲利", "投資群", "飆股", "娛樂城", "博弈", "貸款", "快速借款", "減肥",
    "瘦身", "團購", "批發", "現貨", "預購", "開團", "優惠", "特惠", "%off", "折起", "全新", "二手", "九成新",
    "加盟", "月入", "出清", "正品", "正版授權", "保證", "分期", "0利率", "攜碼", "秒交", "客製", "報價",
    "包早餐", "送材料包", "打九折", "打八折", "九折", "八折", "七折", "運彩", "加價", "兌換券", "兩張",
    "月薪", "同款", "抽獎", "週年慶", "全品項", "禮券", "折價券", "到月底", "借你", "專案", "合租", "可兼職",
    "送好禮", "送贈品", "接案", "組合價", "專案價", "預購中", "報名中", "印製", "儲值", "續約", "首選", "培訓班",
    "證照班", "底薪", "高錄取", "合購", "破解版", "免費給", "限定版", "首付",
    "一對一教學", "免經驗", "體驗價", "全館", "滿額", "加購", "展場價", "專案中")]
# Shapes of a classified ad rather than words: a LINE id, a pointer to a link or a shortened link, an offer at a
# price (售 $800, $1999 起); an asking price ($1290, 800元), a discount (8 折), a bundle (買10送2).
_AD_CALL_SHAPES = (r"line\s*[:：]\s*@?[\w.]+|👉\s*(?:连结|链接|link|line|https?://)|(?:连结|链接|link)\s*👉|售\s*[$\d]"
                   r"|09\d\d[-\s]?(?:\d{3}|x{3})|(?:bit\.ly|reurl\.cc|lihi\d?\.cc|pse\.is|tinyurl\.com)/"
                   r"|(?:\$\s?\d[\d,]*|\d[\d,]*\s?元)\s?起(?!跳)")
_AD_SIGNAL_SHAPES = (r"(?:nt)?\$\s?\d[\d,]*|\d[\d,]*\s?元|\d(?:\.\d)?\s?折|限时(?=\s?\d)|每人\s?\d|原价\s?\+\s?\d"
                     r"|\d\s?万起|\d\s?k\s?起|买\s?\d+\s?送\s?\d+|(?:时薪|一堂|每堂|一个月)\s?\$?\d")


_AD_CALL_PATTERN = re.compile(_AD_CALL_SHAPES)
# A heading in lenticular brackets opens a notice more often than a member's post (【心得】 aside);
# one that hires, sells or sells tickets (【徵才】, 【團購】, 【售票】) opens a notice, not a member's post.
_HEADING_OPEN = r"^\W{0,2}【"
_HEADING = re.compile(_HEADING_OPEN)
_NOTICE_HEADING = re.compile(_HEADING_OPEN + r"[^】]*(征|招募|招生|招商|售票|开卖|特价|优惠|特卖|预购|团购)[^】]*】")
_AD_SIGNAL_PATTERN = re.compile(_AD_SIGNAL_SHAPES)
# A giveaway's entry steps joined by plus signs (按讚+留言, 追蹤+分享) are an ad on their own (folded).
_GIVEAWAY = re.compile(r"(?:按赞|留言|追踪|分享|tag|标记)\s*[+＋]\s*(?:按赞|留言|追踪|分享|tag|标记|好友)")


def _count_words(words: list[str], folded: str) -> int:
    """Words found in a text; one inside another found one (私訊 in 私訊我) counts once."""
    found = [w for w in words if w in folded]
    return sum(1 for w in found if not any(w != other and w in other for other in found))


@lru_cache(maxsize=64)
def _selling_words(topic: tuple[str, ...]) -> tuple[list[str], list[str], list[str]]:
    """The advertising vocabulary for a topic: a word of the topic itself (二手 in 二手精品, 團購 in
    團購美食) is what a post is about, not a sign that it sells."""
    def keep(words: list[str]) -> list[str]:
        return [w for w in words if not any(w in expression for expression in topic)]

    return keep(_AD_STRONG_CALLS), keep(_AD_CALLS), keep(_AD_SIGNALS)


# A buyer telling of an order (昨天下單, 我預約了) says what a seller's call would ask for.
_BUYER_REPORT = re.compile(r"(?:我|昨天|前天|刚|上周|上礼拜|之前)(?:才|就|有|也)?(?:下单|预约|报名|订房)")


def _selling(folded: str, topic: tuple[str, ...]) -> tuple[int, int]:
    """The soft calls and the selling signals in a text."""
    _, soft_calls, selling_signals = _selling_words(topic)
    called = _BUYER_REPORT.sub(" ", folded)
    return (_count_words(soft_calls, called) + len(_AD_CALL_PATTERN.findall(folded)),
            _count_words(selling_signals, folded) + len(_AD_SIGNAL_PATTERN.findall(folded)) + bool(_HEADING.match(folded)))


def _is_ad(folded: str, topic: tuple[str, ...] = ()) -> bool:
    heading = _NOTICE_HEADING.match(folded)
    if _count_words(_selling_words(topic)[0], folded) or heading and not any(heading[1] in e for e in topic) \
            or _GIVEAWAY.search(folded):
        return True
    calls, signals = _selling(folded, topic)
    # An asking price beside another selling word is an offer (全新 $1290), not a buyer's story.
    priced = signals >= 2 and bool(_AD_SIGNAL_PATTERN.search(folded))
    return calls >= 2 or (calls >= 1 and signals >= 1) or signals >= 3 or priced


# What a search engine shows for a page that is not a post: login walls, profile, tag and search
# pages ("39,268 Followers • 506 Threads • … See the latest conversations with @…").
_NAVIGATION = [text.fold(w) for w in (
    "log in", "sign up", "登入", "註冊", "查看更多貼文", "see more posts", "在 threads 上查看", "on threads", "• threads",
    "threads •", "threads 上的", "追蹤者", "followers", "位粉絲", "則串文", "相關串文", "• 搜尋", "搜尋結果",
    "search results", "熱門話題", "say more", "加入 threads", "join threads", "see the latest conversations",
    "下載應用程式", "get the app", "暢所欲言", "- threads")]
# The title or tab bar of a page that is not a post, folded: a profile ("Name (@user) • Threads",
# "@user 的 Threads 個人檔案 · 貼文 · 回覆", "Threads Name (@user) 個人檔案"), a search ("X - Threads
# 搜尋", "X - 搜尋 • Threads", "Threads 搜尋 X 熱門 最新", "搜尋結果：X"), a tag page ("#X 的熱門貼文 ·
# Threads", "Threads 上的 #X 熱門貼文"), a place's listing ("X · 地址 · 營業時間"), an encyclopedia's
# entry ("X - 維基百科，自由的百科全書") or a brand's own site ("X 官方購物網站", "X - Official Site"). Page titles
# separate their parts with a dot, a bullet, a bar or a dash of any length; a profile's title is a
# name and its handle before a bullet, whatever follows ("X (@user) • 官方帳號").
_PAGE_TITLE = re.compile(
    r"\(@[\w.]+\)\s*(?:[•·]|个人档案)|[-–—•·|]\s*threads\s*(?:搜寻|search)"
    r"|[-–—•·|]\s*(?:搜寻|search)\s*[-–—•·|]\s*threads|^\W*threads\s*(?:搜寻|search)\s"
    r"|^\W*(?:搜寻结果|search results)|搜寻结果\s*[:：•·|]"
    r"|threads\s*(?:上的\s*)?个人档案|个人档案\s*[•·|]"
    r"|热门(?:贴文|话题)\s*[•·|]\s*threads|threads\s*上的\s*#\S+\s*热门|[•·|]\s*贴文\s*[•·|]\s*回复"
    r"|(?:地址|电话|营业时间)\s*[•·|]\s*(?:地址|电话|营业时间)"
    r"|\s[-–|]\s*(?:维基百科|wikipedia)\b|(?:官方(?:购物)?网站|official site)\s*(?:$|[-–•·|])")
# A text that is only a title's parts, the last one short and set apart by a bar or a spaced hyphen,
# with no sentence in it, or any text of parts set apart by two bars, is a page's title or a
# profile's or a listing's line ("X - 股價 | Yahoo奇摩股市", "X - Google Play 商店",
# "護理師的日常｜夜班碎碎念｜不接業配", "X｜站點地圖｜即時車輛數查詢"), not a post (folded).
_TITLE_PARTS = re.compile(r"^[^,，。.!！?？~～]*(?:\s-\s|\s?[|｜]\s?)[^,，。.!！?？~～|｜]{1,30}$|^[\s\S]*?[|｜][^|｜]*[|｜]")


# A name given to someone or something else, or a likeness: 「我家的貓取名X」「我同學也叫X」「我姪女叫X」
# 「X是我阿公的名字」「長得像X」, someone the writer knows by it (我們公司的X, 我同事X), and a street
# named after it (X路, X街, not X路透, X路徑 or X街拍). When every mention of a named concept reads
# so, the post is about the other bearer of the name, not the one the brief names. Folded
# (Simplified) spellings.
# The writer's own circles and the people in them.
_OUR_PLACES = "公司|部门|班上|班|办公室|学校|团队|系上|社团"
_MY_PEOPLE = "同事|同学|室友|邻居|主管|老板"
_NAMED_BEFORE = re.compile(rf"(?:取名|(?<!本)名叫|名字叫|名字也叫|小名|也叫|叫做|[间个位]叫|(?<!大)家叫|长得(?:超|很|好|有点)?像|撞名"
                           rf"|我[^\s，,。！!？?]{{0,5}}叫"
                           rf"|我们?(?:{_OUR_PLACES})(?:的|新来的|也?有一?个|那个|里的)?|我们?家(?:的|新来的|也?有一?个|那个|里的)"
                           rf"|我的?(?:{_MY_PEOPLE})|(?:同事|同学|朋友|室友|邻居|学生|客人)叫)\s*$")
# A thing in the style of it (護理師造型的服裝, 無印良品風格民宿) is a likeness, not it.
_LIKENESS_AFTER = re.compile(r"\s?(?:造型|风格)")
# What people call someone (大家都叫他海賊王, 從小被叫豪哥) is that someone's name when the writer
# tells of a person of their own (我男友, 我同事, 我們公司的); without one, it is the topic's (大家都叫她小戴).
_CALLED = re.compile(r"(?:叫[他她]|被叫(?:做|成)?)\s*$")
_SOMEONE_KNOWN = re.compile(rf"我的?(?:{_MY_PEOPLE}|男友|女友|男朋友|女朋友|老公|老婆|朋友|儿子|女儿)|我们?(?:{_OUR_PLACES})")
_NAMED_AFTER = re.compile(r"^\s*(?:是.{0,12}的名字|这个名字|同名|\(\s*我|是我.{0,4}(?:同学|同事|朋友|邻居|室友|学姐|学妹|学长|学弟|表妹|"
                          r"表姐|堂妹|女儿|儿子|侄女|老婆|老公|女友|男友))|^(?:路(?![过线跑人透演痴径况])|街(?![头拍舞访])|大道)")


# Where a post turns to what it is about (今天主要想分享, 今天要說的是, 今天想問大家): a name only before
# it was said in passing (folded).
_TURN = re.compile(r"今天(?:主要|只?(?:想|要)(?:分享|说|讲|问|介绍|推|聊))")


# The name as the measure of something else (比海底撈便宜, 跟海底撈一樣, 比起 The Bear) or as a figure of
# speech (根本是小高姊轉世, 就是一種人生切割術, 以為自己是祖克柏): the post is about that other thing.
_FIGURE_BEFORE = re.compile(r"(?:比|比起|不输|输给|根本是|简直是|就是一种|一种|自己是|变身|当成|当作|是我的|家族的)\s*$")
_FIGURE_AFTER = re.compile(r"\s*(?:一样|一般|似的|转世|上身|附身|等级)")


def _figurative(folded: str, start: int, end: int) -> bool:
    return bool(_FIGURE_BEFORE.search(folded[max(start - 6, 0):start]) or _FIGURE_AFTER.match(folded, end))


# In a list of three items or more, as an item or inside one (謝金河、股癌、游庭皓…我誰都不信;
# 補眠、看謝金河的節目、整理房間; 1.黃仁勳 2.魏哲家 3.楊金龍): the post is about the list. A name
# before a numbered list heads it (丹丹漢堡必點：1. 麵線羹 2. 炸雞 3. …).
_LIST_MARK = "、"
_CLAUSE_END = re.compile(r"[，,。！!？?；;：:\n]")
_NUMBERED_ITEM = re.compile(r"(?:^|(?<=[\s：:，,。]))(?:[1-9]|10)\s?[.、)）](?![0-9])")


def _listed(folded: str, start: int, end: int) -> bool:
    before, after = _CLAUSE_END.split(folded[:start].rstrip())[-1], _CLAUSE_END.split(folded[end:].lstrip())[0]
    # Before its clause's list, a name heads it only as its first item: what follows it up to the
    # first mark does nothing (游庭皓、股癌…; 看謝金河的節目、…), unlike a subject that lists what it
    # does (美甲師扣掉材料、時間、房租).
    if (before + after).count(_LIST_MARK) >= 2 and (_LIST_MARK in before or not any(
            (text.dictionary_tag(word) or "").startswith("v") for word in text.base_cut(after.split(_LIST_MARK)[0]))):
        return True
    items = [m.start() for m in _NUMBERED_ITEM.finditer(folded)]
    return len(items) >= 3 and items[0] < start


# A year of its own: 2025, not 12025 or 20251.
_YEAR = r"(?<![0-9])(?:19|20)[0-9]{2}(?![0-9])"


# A name the member only ever capitalized (Decathlon, Ratatouille, GEM) that a post writes in lower case
# alone is as often the common word (a decathlon, a ratatouille, a Ruby gem): the post ranks lower.
LOWERCASE_PENALTY = 0.05


def _only_lowercase(body: str, words: list[str]) -> bool:
    """Whether a post writes every mention of these Latin words in lower case."""
    return all(m.group(0).islower() for w in words
               for m in re.finditer(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", body, re.IGNORECASE))


# A shop called by the name (阿滴水果行, 星宇咖啡館) is most often another bearer of it, but a brand's
# own shop is called so too: it only ranks lower.
_SHOP_AFTER = re.compile(r"\s?(?:牛肉面|面店|面馆|水果行|便当|咖啡馆|咖啡厅|咖啡店|饮料店|烧肉|火锅|小吃|早餐店|餐厅|"
                         r"餐酒馆|冰店|鸡排|诊所|补习班|民宿|美发|发廊|美甲|药局|商行)")
SHOP_NAMED_PENALTY = 0.1


# A year or season of its own (2025, 第一季, or a year of the Republic before what it dates: 114學測,
# 115學年度): where the brief names one and a post only others, the post is most often about another
# edition (last year's 燈會, the first season), so it ranks lower.
_EDITION = re.compile(_YEAR + r"|第\s?[0-9一二三四五六七八九十]+\s?季|season\s?[0-9]+"
                      r"|(?<![0-9])1[0-2][0-9](?=\s?(?:年|学年|学测|统测|会考|分科|指考|国考|高普考))")
OTHER_EDITION_PENALTY = 0.1
# A year a post looks back to (2019年那屆, 翻到2023年的照片), where the brief names no edition, is a past one.
_LOOKING_BACK = re.compile(_YEAR + r"[^，,。！!？?\n]{0,12}(?:那届|那年|那次|那时|那场)"
                           r"|(?:回顾|翻到|怀念)[^，,。！!？?\n]{0,6}" + _YEAR)


# An approved term of this many Chinese characters or more besides framing, or one fewer when the
# dictionary does not know it as a word (跑者膝, not 無障礙), is specific enough that a post writing it
# whole (白沙屯進香, 婚禮產業) is about it, though it may leave a concept of the signature unsaid.
WHOLE_TERM_MIN_CHARS = 4


# A sentence: up to a full stop, a question or exclamation mark, a semicolon or a line break.
_SENTENCE = re.compile(r"[^。！？!?；;\n]+")


def _content_chars(folded: str) -> int:
    """The Chinese characters of a phrase's words besides the framing lexicon's (動畫 of 動畫推薦), a Latin
    word or number of two letters or more counting as two (GPS of 進香 GPS)."""
    return sum(len(word) if text.has_cjk(word) else 2 for word in text.base_cut(folded)
               if word not in framing_words() and (text.has_cjk(word) or (word.isalnum() and len(word) >= 2)))


def _specific_whole(folded: str) -> bool:
    """Whether a term written whole is specific enough to be evidence on its own (WHOLE_TERM_MIN_CHARS)."""
    chars = _content_chars(folded)
    return chars >= WHOLE_TERM_MIN_CHARS or (chars == WHOLE_TERM_MIN_CHARS - 1 and not text.dictionary_frequency(folded))


def _compound_parts(expression: str) -> tuple[str, ...] | None:
    """The dictionary words of a Chinese compound the dictionary does not know as a whole, each of
    at least two characters (運動傷害: 運動, 傷害); None for a word, a name or a shorter cut."""
    joined = expression.replace(" ", "")
    if not all(text.has_cjk(c) for c in joined) or text.dictionary_frequency(joined):
        return None
    parts = expression.split(" ") if " " in expression else compound_parts(expression, common=1)
    if not parts or len(parts) < 2 or not all(text.dictionary_frequency(p) and not is_proper_noun(p) for p in parts):
        return None
    return tuple(parts)


def _editions(folded: str) -> set[str]:
    return {re.sub(r"\s", "", m) for m in _EDITION.findall(folded)}


def _joins_concepts(phrase: str, groups: tuple[ConceptGroup, ...]) -> bool:
    """Whether a phrase writes two concepts side by side (台南 and 早午餐 in 台南早午餐), not one
    word two groups share (記者, a concept and a kind of 新聞業)."""
    written = [{e for e in g.expressions if e in phrase} for g in groups]
    return any(not (a in b or b in a) for one, other in itertools.combinations([w for w in written if w], 2)
               for a in one for b in other)


# What a post loses that names its topic only by a name as often something else, and nothing else
# of the brief: below the posts that write the topic's context, still eligible.
AMBIGUOUS_PENALTY = 0.05
# What a post that names a word of what the member does not want loses: more than any post's
# evidence beyond the required concepts, so it ranks below those that name none.
UNWANTED_PENALTY = 0.2


def _ambiguous(expression: str) -> bool:
    """A name that is as often something else: a word the dictionary translates (國王, 古都, 大王),
    or one English word (Ordinary, Marshall)."""
    if text.has_cjk(expression):
        return glosses.common_word(expression)
    return glosses.one_english_word(expression)


def _named_apart(named: list[tuple[int, int]], claimed: list[list[tuple[int, int]]]) -> bool:
    """Whether a concept is named somewhere no other concept needs as its only mention: one named
    only by a word another one has no other mention than (記者, also a kind of 新聞業) says
    nothing more."""
    def inside(span: tuple[int, int], other: tuple[int, int]) -> bool:
        return other[0] <= span[0] and span[1] <= other[1]

    return any(all(any(not inside(span, other) for other in spans) for spans in claimed) for span in named)


def _named_otherwise(folded: str, start: int, end: int, name: bool = True) -> bool:
    """A mention read as another bearer's name or a likeness; a common word is never a street's (婚紗街)."""
    before = folded[max(start - 10, 0):start]
    return bool(_NAMED_BEFORE.search(before) or (name and _NAMED_AFTER.match(folded[end:end + 20]))
                or _LIKENESS_AFTER.match(folded, end)
                or (_CALLED.search(before) and _SOMEONE_KNOWN.search(folded)))


def _says_something(folded: str) -> float:
    """What a post gains for saying something about the topic rather than a line naming it."""
    return SAYS_SOMETHING * min(len(_CONTENT_CHAR.findall(folded)), SAYS_SOMETHING_CHARS) / SAYS_SOMETHING_CHARS


def _broader_search(whole: str, signature: TopicSignature) -> bool:
    """A term of one Chinese word the member searched on its own that only spells a required concept
    shorter, leaving a word of it out (地勤 of 航空地勤, 拉麵 of 素食拉麵): it names something broader,
    which the member still asked to see when the run is short."""
    return text.has_cjk(whole) and len(whole) >= 2 and not any(whole in g.expressions for g in signature.groups) \
        and any(whole in e for g in signature.required for e in g.expressions if text.has_cjk(e))


def _own_searches(signature: TopicSignature) -> frozenset[str]:
    """The terms that name none of the intent's concepts: the member's own searches of the topic by
    another name (燃油車鬥魂 for MF Ghost, 科教館 for 科學類的展覽), each found whole."""
    return frozenset(term for term, searched in zip(signature.written[1:], signature.terms) if not searched)


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str  # match_reason when accepted, a rejection code otherwise
    relevance: float = 0.0  # 0..1 before recency
    concepts: tuple[str, ...] = ()
    # The post's words as the gate cut them (empty for noise), for the run's ranking.
    tokens: tuple[str, ...] = ()
    # Eligible only by an approved term written whole, short of a concept of the signature: it
    # makes up a shortfall, after every post that meets the signature (`Gate.judge`).
    weak: bool = False


def noise_reason(body: str, topic: tuple[str, ...] = ()) -> str | None:
    """Why a body is noise (ads, navigation pages, empty or hashtag-only), or None. `topic`: the
    folded expressions of the brief, whose words are never advertising vocabulary."""
    folded = text.fold(body)
    if not folded:
        return NOISE_EMPTY
    without_links = _URL.sub(" ", folded)
    own_words = _TAG_OR_MENTION.sub(" ", without_links)
    if len(_CONTENT_CHAR.findall(own_words)) < MIN_CONTENT_CHARS:
        return NOISE_HASHTAGS if _TAG_OR_MENTION.search(without_links) else NOISE_EMPTY
    bulleted = folded.replace("·", "•")
    if sum(1 for w in _NAVIGATION if w in bulleted) >= 2 or folded.startswith(("log in", "登入")) \
            or _PAGE_TITLE.search(folded) or _TITLE_PARTS.match(folded):
        return NOISE_NAVIGATION
    if _is_ad(folded, topic):
        return NOISE_AD
    return None


class Gate:
    """Judges candidates against one signature; built once per run."""

    def __init__(self, signature: TopicSignature) -> None:
        self.signature = signature
        self._tokenizer = text.tokenizer_with(signature.words)
        self._patterns = {e: self._pattern(e) for e in {*signature.words, *signature.unwanted}}
        # A common concept written as a compound the dictionary does not know (大學退場, 健身教練) is
        # also met by its words in one sentence (大學太多本來就該退場, 健身房的教練): people say it
        # in their own order. A name is only ever written whole.
        titles = set(quoted_titles(signature.written))
        # A title the brief sets in title marks, set so in a post too (《連結》), names the work
        # whatever else the term that searched it adds (哈拉瑞 連結: a common word's author).
        self._titled = [(frozenset(t for t in signature.groups[index].expressions if t in titles), frozenset(term))
                        for term in signature.terms for index in term
                        if titles & set(signature.groups[index].expressions)]
        # A short name no dictionary knows (老黃, 周董) is never the beginning of a word (老黃牛).
        self._nicknames = frozenset(e for g in signature.groups if g.entity for e in g.aliases
                                    if len(e) == 2 and text.has_cjk(e) and not text.dictionary_frequency(e))
        self._compounds = {e: parts for e in signature.words if e not in titles and (parts := _compound_parts(e))}
        self._part_patterns = {w: re.compile(re.escape(w)) for parts in self._compounds.values() for w in parts}
        self._topic = tuple(signature.words)
        # The words the member searched that hold a short word, each with where it holds it (羽球拍 of
        # 「羽球拍 新手」 holds 球拍 at 1).
        term_words = {word for term in signature.written[1:] for word in text.fold(term).split()
                      if text.has_cjk(word) and len(word) >= 3}
        self._holders = {e: tuple((word, word.find(e)) for word in term_words if e in word) for e in self._patterns}
        # An intent piece written whole is evidence when it joins several concepts (台南早午餐);
        # one name written whole is only one spelling of it among others.
        self._phrases = tuple(p for p in signature.phrases if " " not in p and _joins_concepts(p, signature.groups))
        # The cities, counties and destinations the member searched: a post that names none of them
        # but another one is about elsewhere (台北 for 台中 親子餐廳), though the place is not required.
        # A place only the intent names is where the member is (下個月要去京都), not what is asked.
        self._places = places()
        searched = {i for term in signature.terms for i in term}
        place_groups = [g for i, g in enumerate(signature.groups) if g.expression in self._places
                        and (i in searched or not searched)]
        self._place_groups = frozenset(id(g) for g in place_groups)
        self._place_lengths = sorted({len(name) for name in self._places})
        # A brief that asks for no place is about where its names are, if they say (東港 of 東港迎王).
        self._asked_places = frozenset(self._places[e] for g in place_groups for e in g.expressions
                                       if e in self._places) or frozenset(
            place for folded in map(text.fold, signature.written)
            for place in self._named_places(folded, self._spans(self.tokens(folded))))
        self._editions = _editions(" ".join(text.fold(w) for w in signature.written))
        # The names the brief writes right after one of its places (龍山寺 of 艋舺龍山寺).
        written = {e for g in signature.groups for e in g.expressions} | {
            text.fold(w).replace(" ", "") for w in signature.written}
        self._placed_names = frozenset(name for g in signature.groups for name in g.expressions if text.has_cjk(name)
                                       and any(self._ends_with_place(w[:-len(name)])
                                               for w in written if w != name and w.endswith(name)))
        # What each term searches; a term whose words only refine the topic searches nothing of its own.
        self._searched = [term for term in signature.terms if term]
        self._own_searches = _own_searches(signature)
        # A term of its own is counted as written, each Latin word apart (Edinburgh Fringe is two).
        self._whole_terms = [(term, whole) for term in signature.written[1:]
                             if _specific_whole(whole := text.fold(term).replace(" ", ""))
                             or (term in self._own_searches and _content_chars(text.fold(term)) >= WHOLE_TERM_MIN_CHARS - 1)
                             or _broader_search(whole, signature)]
        # Latin words of the brief the member only ever capitalized (Decathlon, GEM), see _only_lowercase.
        latin = re.findall(r"[A-Za-z]+", " ".join(signature.written))
        self._capitalized = frozenset(w.lower() for w in latin if not w.islower() and w.lower() in signature.words) \
            - {w for w in latin if w.islower()}

    @staticmethod
    def _pattern(expression: str) -> re.Pattern[str]:
        # Spaces inside an expression, where Latin letters or digits meet Chinese (50 嵐 for
        # 50嵐, iPhone 手機) and after a dot between letters (Dr. Wu for Dr.Wu), are optional in
        # the post, or a colon, dot or dash (F1：狂速飆風).
        # A name of three characters or more may be written with a space between them (烏 龍 院),
        # which a shorter one seldom is and a phrase's break often makes (星期一 休假).
        spaced = text.cjk_count(expression) >= SPACED_MIN_CHARS
        parts = [r"\s?".join(map(re.escape, p)) if spaced and text.has_cjk(p) else re.escape(p)
                 for p in _DOT_JOINT.sub(". ", _SCRIPT_BOUNDARY.sub(" ", expression)).split(" ") if p]
        body = r"[\s:·・-]*".join(parts)
        # Latin words and numbers must stand alone: "apple" is not in "pineapple", "16" not in "2016".
        before = r"(?<![a-z])" if expression[0].isascii() and expression[0].isalpha() else (
            r"(?<![0-9])" if expression[0].isdigit() else "")
        # A Latin word also matches its plural (foldable: foldables, box: boxes) and, from four
        # letters, its -ed and -ing forms (camp: camped, camping).
        inflected = r"(?:e?s|e?d|ing)?" if len(expression.rsplit(" ", 1)[-1]) >= MIN_INFLECTED else r"(?:e?s)?"
        after = inflected + r"(?![a-z])" if expression[-1].isascii() and expression[-1].isalpha() else (
            r"(?![0-9])" if expression[-1].isdigit() else "")
        return re.compile(before + body + after)

    @staticmethod
    def folded(body: str) -> str:
        """A post's text as the gate reads it: links out, folded."""
        return text.fold(_URL.sub(" ", body))

    def tokens(self, folded: str) -> list[str]:
        # Dictionary words only: an unknown name stays single characters, which a hit may span,
        # and guessing words (jieba's HMM) costs ten times as much for the same verdicts.
        return self._tokenizer.lcut(folded, HMM=False)

    @staticmethod
    def _spans(tokens: list[str]) -> list[tuple[int, int]]:
        spans = []
        position = 0
        for token in tokens:
            spans.append((position, position + len(token)))
            position += len(token)
        return spans

    def _hits(self, folded: str, expression: str, spans: list[tuple[int, int]]) -> list[int]:
        """Where an expression occurs as a word of the text. A short Chinese word may begin or
        end a longer one (電影 in 電影票) but not straddle two words or sit inside one: 全聯 is
        not in 完全聯繫."""
        whole = [match.start() for match in self._patterns[expression].finditer(folded)
                 if not text.has_cjk(expression) or len(expression) >= 3
                 or self._is_word(match.start(), match.end(), spans, alone=expression in self._nicknames)
                 or self._in_term_word(folded, expression, match.start())]
        if whole or expression not in self._compounds:
            return whole
        return self._compound_hits(folded, self._compounds[expression], spans)

    def _in_term_word(self, folded: str, expression: str, start: int) -> bool:
        """Whether a short word stands, at `start`, inside a word the member searched that holds it:
        羽球拍 of 「羽球拍 新手」 writes 球拍 as the member means it, however the dictionary cuts it."""
        return any(start >= at and folded.startswith(word, start - at) for word, at in self._holders[expression])

    def _compound_hits(self, folded: str, parts: tuple[str, ...], spans: list[tuple[int, int]]) -> list[int]:
        """Where a sentence holds every word of a compound, each a word of its own: the first's."""
        found = [[m.start() for m in self._part_patterns[part].finditer(folded)
                  if self._is_word(m.start(), m.end(), spans)] for part in parts]
        if not all(found):
            return []
        hits = []
        for sentence in _SENTENCE.finditer(folded):
            inside = [[at for at in positions if sentence.start() <= at < sentence.end()] for positions in found]
            if all(inside):
                hits.append(min(at for positions in inside for at in positions))
        return hits

    def _written_whole(self, folded: str, spans: list[tuple[int, int]], tokens: list[str]) -> Verdict:
        """The verdict on a post short of the signature: weakly eligible when it writes an approved
        term whole and names no place the brief does not (台中成人游泳課 is not 台北's)."""
        joined = folded.replace(" ", "")
        term = next((term for term, whole in self._whole_terms if whole in joined), None)
        if term is None or self._elsewhere(folded, spans):
            return Verdict(False, OFF_TOPIC, tokens=tuple(tokens))
        if term in self._own_searches:
            return Verdict(True, "命中搜尋詞：" + term, round(0.5 + _says_something(folded), 4), (term,), tuple(tokens))
        return Verdict(True, "命中搜尋詞：" + term, concepts=(term,), tokens=tuple(tokens), weak=True)

    def _implied(self, folded: str) -> frozenset[int]:
        """The groups of every term whose title a post sets in title marks: said by the title."""
        if not self._titled:
            return frozenset()
        marked = set(quoted_titles([folded]))
        return frozenset(index for titles, term in self._titled if marked & titles for index in term)

    @staticmethod
    def _is_word(start: int, end: int, spans: list[tuple[int, int]], alone: bool = False) -> bool:
        """Whether a stretch of text is words of its own, or (unless `alone`) begins or ends one."""
        return (not alone and any(s <= start and end <= e and (s == start or e == end) for s, e in spans)) or (
            any(s == start for s, _ in spans) and any(e == end for _, e in spans))

    def _named_places(self, folded: str, spans: list[tuple[int, int]]) -> Iterator[str]:
        """The city or county of each place of the lexicon a text names, as a word of its own."""
        for start in range(len(folded)):
            for length in self._place_lengths:
                end = start + length
                whole = self._places.get(folded[start:end])
                if whole is None:
                    continue
                if folded[start].isascii():
                    alone = not folded[start - 1:start].isalnum() and not folded[end:end + 1].isalnum()
                else:
                    alone = length >= 3 or self._is_word(start, end, spans)
                if alone:
                    yield whole

    def _ends_with_place(self, before: str) -> bool:
        return any(before[-length:] in self._places for length in self._place_lengths if length <= len(before))

    def _placed_elsewhere(self, folded: str, start: int, end: int, spans: list[tuple[int, int]]) -> bool:
        """Whether a name the brief writes after its place is written after another place: another
        one of that name (鹿港龍山寺 for 艋舺龍山寺, 高雄旅展 for 台北國際旅展)."""
        if folded[start:end] not in self._placed_names:
            return False
        for length in self._place_lengths:
            whole = self._places.get(folded[start - length:start]) if length <= start else None
            if whole is not None and whole not in self._asked_places and (
                    length >= 3 or self._is_word(start - length, start, spans)):
                return True
        return False

    def _elsewhere(self, folded: str, spans: list[tuple[int, int]]) -> bool:
        """Whether a post names a place of the lexicon outside the brief's places."""
        return any(whole not in self._asked_places for whole in self._named_places(folded, spans))

    def judge(self, body: str) -> Verdict:
        noise = noise_reason(body, self._topic)
        if noise:
            return Verdict(False, noise)
        folded = self.folded(body)
        tokens = self.tokens(folded)
        spans = self._spans(tokens)
        concepts: list[str] = []
        mentions = 0
        alias_only = 0
        claimed: list[list[tuple[int, int]]] = []  # where each required group is named
        optional: list[list[tuple[int, int]]] = []  # where each optional group is
        sufficient_hits = sufficient_aside = 0
        placed = shop_named = lowered = figurative = False
        hit_groups: set[int] = set()
        implied = self._implied(folded)
        plainly_named = ambiguously_named = False
        for index, group in enumerate(self.signature.groups):
            positions = {e: self._hits(folded, e, spans) for e in group.expressions}
            hit = [e for e, p in positions.items() if p]
            if not hit:
                if group.required and not group.sufficient and index not in implied:
                    return self._written_whole(folded, spans, tokens)
                continue
            named = [(at, at + len(e)) for e in hit for at in positions[e]]
            # An alias inside a longer hit (光漢 in 許光漢) is that hit, not another mention.
            named = [(s, e) for s, e in named if not any(
                (s2, e2) != (s, e) and s2 <= s and e <= e2 for s2, e2 in named)]
            if group.required and all(_named_otherwise(folded, start, end, group.entity)
                                      or self._placed_elsewhere(folded, start, end, spans)
                                      for start, end in named):
                return Verdict(False, OFF_TOPIC, tokens=tuple(tokens))
            aside = all(_figurative(folded, start, end) or _listed(folded, start, end) or _TURN.search(folded, end)
                        for start, end in named)
            figurative = figurative or (group.required and aside)
            sufficient_aside += group.sufficient and aside
            if group.entity and group.required:
                shop_named = shop_named or all(_SHOP_AFTER.match(folded, end) for _, end in named)
            sufficient_hits += group.sufficient
            hit_groups.add(index)
            placed = placed or id(group) in self._place_groups
            if group.required:
                claimed.append(named)
            else:
                optional.append(named)
            if not positions[group.expression]:
                alias_only += 1
            if group.entity:
                if all(_ambiguous(e) for e in hit):
                    ambiguously_named = True
                else:
                    plainly_named = True
            mentions += len(named)
            label = self.signature.label(group.expression)
            # An alias that only spells the hit expression out further (iphone 17 beside iphone) adds nothing.
            aliases = [self.signature.label(e) for e in hit if e != group.expression
                       and not (positions[group.expression] and group.expression in e)]
            concepts.append(f"{label}（{'、'.join(aliases)}）" if aliases else label)
            lowered = lowered or (all(e in self._capitalized for e in hit) and _only_lowercase(body, hit))

        if figurative or sufficient_hits and sufficient_aside == sufficient_hits:
            # A post naming a required concept, or every sufficient name it names, only as a measure,
            # a figure of speech or in a list is about that other thing; a run short of posts is not
            # padded with it.
            return Verdict(False, OFF_TOPIC, tokens=tuple(tokens))
        sufficient = len(self.signature.sufficient)
        if (self._searched and not any(implied.union(hit_groups).issuperset(term) for term in self._searched)) or (
                sufficient and not sufficient_hits) or (
                self._place_groups and not placed and self._elsewhere(folded, spans)):
            return self._written_whole(folded, spans, tokens)
        groups = len(self.signature.groups)
        # What a post covers beyond what it must: the optional concepts, and the sufficient names
        # after the first (鬼滅 and 無限城篇 say more than 鬼滅 alone).
        extra = groups - len(self.signature.required) + max(sufficient - 1, 0)
        optional_hits = sum(1 for named in optional
                            if _named_apart(named, claimed + [other for other in optional if other is not named]))
        covered = optional_hits + max(sufficient_hits - 1, 0)
        refined = sum(1 for w in self.signature.refinements if self._hits(folded, w, spans))
        phrase = any(p in folded for p in self._phrases)
        relevance = 0.5
        relevance += 0.15 if phrase else 0.0
        relevance += 0.15 * covered / extra if extra else 0.0
        relevance += 0.05 * min(refined, 2)
        relevance += 0.05 * min(max(mentions - groups, 0), 4) / 4
        relevance += _says_something(folded)
        relevance -= 0.03 * min(alias_only, 2)
        # A name as often something else (國王, 古都, Ordinary) with nothing else of the brief beside it
        # ranks below the posts that write the topic's context.
        if ambiguously_named and not plainly_named and not covered and not refined:
            relevance -= AMBIGUOUS_PENALTY
        relevance -= SHOP_NAMED_PENALTY if shop_named else 0.0
        relevance -= LOWERCASE_PENALTY if lowered else 0.0
        if self._editions:
            editions = _editions(folded)
            relevance -= OTHER_EDITION_PENALTY if editions and not editions & self._editions else 0.0
        elif _LOOKING_BACK.search(folded):
            relevance -= OTHER_EDITION_PENALTY
        # A word or two of selling, short of an ad, still reads more like an offer than a talk about the topic.
        relevance -= SELLING_PENALTY * min(sum(_selling(folded, self._topic)), 2)
        # What the member said they do not want (漫畫原作的劇透就不用了) ranks below the rest.
        relevance -= UNWANTED_PENALTY if any(self._hits(folded, w, spans) for w in self.signature.unwanted) else 0.0
        return Verdict(True, "命中核心概念：" + "、".join(concepts), round(min(relevance, 1.0), 4), tuple(concepts),
                       tuple(tokens))


# Soft age limit (docs/scout.md 4): within a year a post's age does not change its score, since
# posting time only breaks ties; past it a post loses at most RECENCY_WEIGHT of its score, half of
# it per half-life. The weight stays below the gaps between levels of evidence, so that an old
# post on the topic is never put below a recent one in another sense.
SOFT_AGE_DAYS = 365.0
RECENCY_WEIGHT = 0.05
RECENCY_HALF_LIFE_DAYS = 90.0
# An unknown posting time is neither rewarded nor punished much: the middle of the range.
UNKNOWN_AGE_FACTOR = 1.0 - RECENCY_WEIGHT / 2


def recency_factor(posted_at: datetime | None, now: datetime) -> float:
    if posted_at is None:
        return UNKNOWN_AGE_FACTOR
    past_limit_days = max((now - posted_at).total_seconds() / 86400.0 - SOFT_AGE_DAYS, 0.0)
    return 1.0 - RECENCY_WEIGHT * (1.0 - math.pow(0.5, past_limit_days / RECENCY_HALF_LIFE_DAYS))


def score(relevance: float, posted_at: datetime | None, now: datetime) -> float:
    return round(relevance * recency_factor(posted_at, now), 4)
