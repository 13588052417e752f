"""Proposed search terms (docs/scout.md 4.2): the core of the topic and its usual other names, in
terms that each keep every core concept, so the signature built from them still requires them."""

from __future__ import annotations

import pytest

from scout.pipeline.aliases import LEXICON, AliasLexicon, is_place
from scout.pipeline import text
from scout.pipeline.gate import Gate
from scout.pipeline.signature import NoTopicEvidence, build_signature
from scout.pipeline.signature.segment import parts_around_names
from scout.brief import MAX_TERMS
from scout.pipeline.suggest import MAX_CONCEPTS, suggest_terms

LEXICON_OF_TEST = AliasLexicon.parse("""
# people
戴資穎 | 小戴 | Tai Tzu-ying
蔡依林 | Jolin
許光漢 | Greg Hsu
告五人 | Accusefive
# works
鬼滅之刃 | 鬼滅 | Demon Slayer
寶可夢 | Pokémon
# companies
00878 | 國泰永續高股息
台電 | 台灣電力公司 | Taipower
Google | 谷歌
ASUS | 華碩
Netflix | 網飛
徵才博覽會 | 就業博覽會
石頭科技 | 石頭 | Roborock
# events
台北國際書展 | 台北書展 | TIBE
台北馬拉松 | 北馬 | Taipei Marathon
# places
台北 | 台北市 | Taipei | 天龍國
""")


def suggest(intent: str) -> list[str]:
    return suggest_terms(intent, LEXICON_OF_TEST)


def names_none(terms: list[str], *words: str) -> bool:
    """Whether no term holds any of the words: the setting is proposed nowhere."""
    return not any(word in term for term in terms for word in words)


def test_framing_is_never_proposed_and_the_core_comes_first() -> None:
    terms = suggest("想追戴資穎最近的比賽")
    assert terms[0] == "戴資穎"
    for word in ("想追", "最近", "的"):
        assert all(word not in term for term in terms)


@pytest.mark.parametrize(("intent", "core", "framing"), [
    ("想找同好聊孤獨搖滾", "孤獨搖滾", "同好"),  # fellow fans are who, not what
    ("想看士林夜市避雷清單", "士林夜市", "避雷"),  # judging, as 推薦 is
    ("現在當記者還有前途嗎", "記者", "前途"),  # 當 (being) is no name 記者 is the title of
    ("為什麼國旅越來越少人", "國旅", "越來越少"),  # how many
    ("帶爸媽去花蓮玩想包車", "花蓮包車", "爸媽"),  # who goes along
    ("有人聽過告五人那首歌嗎", "告五人", "那首歌"),  # which one, said by pointing
    ("想找信義區附近的陶藝課", "信義區陶藝課", "附近"),  # where, around a place
])
def test_colloquial_words_of_who_when_and_how_good_are_framing(intent: str, core: str, framing: str) -> None:
    terms = suggest(intent)
    assert terms[0].replace(" ", "") == core
    assert all(framing not in term for term in terms)


def test_a_request_written_as_a_sentence_searches_the_things_it_names() -> None:
    # 比賽 and 期間限定 say what about the name; posts about it seldom write them.
    assert all("比賽" not in term for term in suggest("想追戴資穎最近的比賽"))
    assert suggest("最近鬼滅之刃有什麼期間限定的活動？")[0] == "鬼滅之刃"
    # A request naming nothing but a place keeps its concepts.
    assert suggest("想找台北的陶藝課")[0] == "台北 陶藝課"


def test_what_a_sentence_says_was_done_with_a_name_is_not_searched() -> None:
    assert suggest("有沒有人去過告五人最近的演唱會？想看現場心得")[0] == "告五人"
    assert suggest("最近很常看到Toyz的新聞，想知道大家怎麼評論他") == ["Toyz"]


def test_a_name_given_a_title_is_a_name_and_the_dictionarys_proper_nouns_are_not_enough() -> None:
    # 衛教 is filed as a proper noun by the dictionary; 黃瑽寧 is a name because 醫師 follows it.
    assert suggest("想看大家分享黃瑽寧醫師的育兒衛教，哪些建議真的有用？")[0] == "黃瑽寧"
    # A religious title is a title too (法師, 上人).
    assert suggest("最近很多人在討論證嚴法師，想看大家怎麼看")[0] == "證嚴"
    # So is a person's name after a title: the person, not the company the title is held at.
    assert suggest("華碩創辦人施崇棠最近有什麼新消息嗎？") == ["施崇棠"]


def test_a_code_is_no_name_the_sentence_is_about() -> None:
    assert suggest("最近中華電信的5G資費大家覺得划算嗎？")[0] == "中華電信"


def test_a_sentence_naming_nothing_searches_the_first_thing_it_says_and_where() -> None:
    assert suggest("這波寒流大家那邊多冷？有下雪嗎")[0] == "寒流"
    # The first thing, not what is done: a verb only says how the member comes to the thing.
    assert suggest("想轉職當社群小編，有在做的人可以分享一下薪水嗎？")[0].replace(" ", "") == "社群小編"
    # A set phrase of the dictionary is a thing too (雞肉飯), not what is done.
    assert suggest("下個月要去嘉義，想找在地人推薦的雞肉飯，不要觀光客那種")[0] == "嘉義 雞肉飯"
    terms = suggest("想了解月子中心這幾年漲價的狀況，業者跟媽媽們怎麼說？")
    assert "月子" in terms[0] and not any(word in " ".join(terms) for word in ("漲價", "業者", "媽媽"))
    # The first thing of the clauses that ask: a statement before them is the setting.
    assert suggest("最近很多廟減香、不燒金紙，想知道金紙店跟香鋪這個產業還撐得下去嗎")[0].startswith("金紙")
    # A clause that asks how (怎樣) asks too, though it ends without a question mark.
    assert suggest("台灣無人機產業現在發展得怎樣，真的有國家隊嗎")[0].startswith("無人機")


def test_names_listed_as_options_are_examples_not_the_topic() -> None:
    terms = suggest("想找台北的住宿推薦，最好離告五人或蔡依林的演唱會場地近一點")
    assert "告五人" not in terms and "蔡依林" not in terms and "Jolin" not in terms
    # Names compared are the topic.
    assert suggest("告五人跟蔡依林的演唱會哪個好看？")[0].startswith("告五人")


def test_a_clause_of_what_else_would_do_is_no_topic() -> None:
    terms = suggest("想轉職當飛機修護師，想聽在做的人分享考照跟薪水，長榮或華航的都可以")
    assert "修護師" in terms[0] and names_none(terms, "長榮", "華航")
    assert all("那陣子" not in t for t in suggest("告五人開演唱會那陣子大家都在聊，想看心得"))


def test_a_clause_of_what_the_member_does_not_want_is_no_topic() -> None:
    terms = suggest("公司搬到台中以後常跟同事吃火鍋，想看大家推薦台中好吃的火鍋，跟告五人聯名的那間就不用")
    assert "火鍋" in terms[0] and names_none(terms, "告五人", "Accusefive")
    terms = suggest("最近常去台北的咖啡廳，想看大家推薦台北安靜的咖啡廳，有 Netflix 可以看的就不用了")
    assert "咖啡廳" in terms[0] and names_none(terms, "Netflix", "網飛")
    assert not any("不用" in t for t in suggest("想了解台灣彩券行這個產業的現況，明牌推薦就不用"))
    # 要不要 asks whether; it leaves nothing out.
    assert suggest("告五人演唱會要不要去")[0].startswith("告五人")


def test_a_term_writes_each_word_once() -> None:
    terms = suggest("今年暑假想去蘭嶼浮潛看海龜，想看大家推薦蘭嶼適合新手的浮潛點")
    assert terms[0] == "蘭嶼 浮潛點"
    assert all(len(term.split()) == len(set(term.split())) for term in terms)


def test_a_story_told_before_the_question_is_its_setting() -> None:
    terms = suggest("家裡在屏東種芒果，爸爸年紀大了，想看現在芒果農分享一年的收入")
    assert terms[0] == "芒果" and names_none(terms, "屏東")
    # The question may name in full what the story named in short.
    terms = suggest("從選秀節目就開始支持佳穎，後來她去演舞台劇我也都有去看，上個月在 KKBOX 又聽到她的舊歌。想看大家最近對林佳穎的討論")
    assert "佳穎" in terms[0] and names_none(terms, "KKBOX")
    # A pronoun pointing back keeps the story: the person it points at is the topic.
    assert suggest("小時候常看戴資穎打球，後來出國就沒追了，想看大家聊她最近的比賽")[0] == "戴資穎"
    # A name the story gives as often as the question names its thing again is what is asked about.
    terms = suggest("國中開始打羽球，球拍一直都是用 VICTOR，最近想換一支，在 VICTOR 跟 YONEX 之間猶豫。想看大家用球拍的心得")
    assert "VICTOR" in terms
    # 想追 and 想追蹤 ask to read too: what they name is the topic, not the story's band.
    terms = suggest("我在台中當美術老師，最近想帶學生認識前輩藝術家。想追蹤陳澄波的討論，像他的《嘉義街外》、作品展出或生平故事。")
    assert terms[0] == "陳澄波" and names_none(terms, "嘉義街外")


def test_a_title_the_questions_sentence_marks_before_it_asks_is_what_it_asks_about() -> None:
    terms = suggest("我在高雄當護理師，下班喜歡看書。朋友推薦一本《被討厭的勇氣》，想看讀過的人對書裡觀念的心得。")
    assert terms[0] == "被討厭的勇氣"


def test_a_place_named_only_where_the_member_tells_of_themselves_is_not_where_the_topic_is() -> None:
    terms = suggest("我住板橋，在銀行上班。想看大家學衝浪的心得，第一次下水會不會很可怕。")
    assert terms[0] == "衝浪" and names_none(terms, "板橋")
    # Named again where the member asks, it is.
    terms = suggest("我住台中北屯，在補習班上班。想看台中髮廊漂髮的推薦和價錢。")
    assert "台中" in terms[0]


def test_what_is_named_before_zhihou_says_when() -> None:
    assert suggest("有沒有人在討論少子化之後補教業還好做嗎")[0] == "補教業"
    assert suggest("金曲獎之後就變成告五人的粉絲")[0] == "告五人"
    assert suggest("看了《葬送的芙莉蓮》之後很好奇，想知道北海道的景點跟美食")[0] != "葬送的芙莉蓮"
    # 之後的 asks about something of it: it stays the topic.
    assert "北馬" in " ".join(suggest("想看台北馬拉松之後的恢復心得"))


def test_names_in_statements_before_a_clause_that_asks_about_a_name_of_its_own_are_the_setting() -> None:
    terms = suggest("最近在準備Python面試，想看大家怎麼討論Rust的生態系，新手好不好學")
    assert terms[0] == "Rust" and names_none(terms, "Python")
    terms = suggest("上週看完《沙丘》又去看了奧本海默，想看大家聊Christopher Nolan的近況")
    assert terms[0] == "Christopher Nolan" and names_none(terms, "沙丘", "奧本海默")
    # A pointer back at the first name keeps it the topic (他), and so does an aspect the asking
    # clause lists with common words (結局跟Mark).
    assert suggest("Elon Musk買下推特之後，大家覺得他對Tesla的影響怎樣")[0].startswith("Elon Musk")
    assert suggest("Severance第二季看完了，想看大家對結局跟Mark那條線的討論")[0].startswith("Severance")


def test_the_person_a_pronoun_points_back_at_is_the_topic_and_the_names_before_the_setting() -> None:
    assert suggest("以前在Netflix追劇就很喜歡許光漢，他最近拍了新片，想看大家的評價")[0] == "許光漢"
    # 其他 is no pronoun.
    assert suggest("Netflix新劇裡許光漢演得很好，想看其他人的心得")[0].startswith("Netflix")



def test_a_foreign_name_in_characters_is_a_person_a_pronoun_points_back_at() -> None:
    lexicon = AliasLexicon.parse("勇士隊 | 勇士 | Warriors\n錦織圭 | Kei Nishikori\n李洋 | Lee Yang\n運動部 | Ministry of Sports")
    terms = suggest_terms("以前只看勇士隊的比賽，最近被朋友拉去看網球，才發現錦織圭打得很猛，想看大家聊他最近的比賽", lexicon)
    assert terms[0] == "錦織圭" and names_none(terms, "勇士")
    # A thing of a kind (a ministry) is no person: 他 points back at the minister.
    assert suggest_terms("李洋當上運動部長之後，大家覺得他的政策怎麼樣", lexicon)[0].startswith("李洋")


def test_what_a_request_names_again_and_again_is_its_topic_not_the_setting_it_gives_once() -> None:
    assert suggest("女兒高職畢業想去學美髮，想知道現在美髮設計師這行累不累，助理要熬幾年")[0] == "美髮"
    assert suggest("在考慮填營養系，想知道營養師畢業後的工作狀況，醫院跟診所差在哪")[0] == "營養"
    # A clause that asks for a thing still names it (浮潛店, though 浮潛 comes twice).
    assert set(suggest("第一次浮潛，墾丁有推薦適合新手的浮潛店嗎")[0].split()) == {"墾丁", "浮潛店"}


def test_a_request_for_a_thing_searches_what_it_asks_for_not_the_setting() -> None:
    # The clause that asks (找, 推薦, 有沒有) names the thing: what follows its last 的, else what
    # follows the asking; the occasion before it is only the setting.
    assert suggest("快生了，想找產後護理之家的評價")[0].startswith("產後")
    assert set(suggest("去台北看球之前想先吃飯，附近有推薦的餐廳嗎？")[0].split()) == {"台北", "餐廳"}
    assert set(suggest("第一次浮潛，墾丁有推薦適合新手的浮潛店嗎")[0].split()) == {"墾丁", "浮潛店"}
    assert set(suggest("請問台南有沒有半夜可以掛急診的動物醫院？")[0].split()) == {"台南", "動物醫院"}
    # After 的, what the dictionary files as a verb names the thing asked for.
    assert suggest("腰好痛，想找上班族在辦公室可以做的伸展")[0] == "伸展"
    # So does it right after the asking, where nothing else does: a service (包車).
    assert suggest("膝蓋不好不想騎車，想找台北包車")[0] == "台北 包車"
    # 推薦 after a thing (攤位推薦) and 有沒有人 ask for no thing: the thing named first stays the topic.
    assert not any("試喝" in term for term in suggest("今年南港的咖啡展有人去嗎？想看攤位推薦跟試喝心得"))
    assert suggest("有沒有人在討論今年台北馬拉松的報名跟路線？")[0] == suggest("台北馬拉松")[0]
    # Nor does 找 before the people asked (找大家聊, 找…的人): what they talk about is the topic.
    assert suggest("想找大家聊眷村菜的故事跟回憶")[0] == "眷村菜"


def test_when_a_request_is_made_for_is_framing_and_an_article_before_one_word_is_part_of_a_title() -> None:
    assert not any("下個月" in term for term in suggest("下個月要去京都，想看大家怎麼評價林氏璧的攻略"))
    assert suggest("The Bear第四季出了嗎？想看大家的評價")[0] == "The Bear"


def test_keywords_of_one_field_or_head_are_alternatives_and_others_must_all_hold() -> None:
    terms = suggest("花藝師 插花老師 工作心得")
    assert "花藝師" in terms and "插花 老師" in terms
    signature = build_signature("花藝師 插花老師 工作心得", terms)
    assert not signature.required or all(g.sufficient for g in signature.required)
    assert suggest("碳權 碳費")[1:3] == ["碳權", "碳費"]
    assert set(suggest("台北 台中 牙醫")[1:3]) == {"台北 牙醫", "台中 牙醫"}
    # Keywords that share a word are one field too (居家清潔 清潔阿姨: each searched without the other).
    terms = suggest("居家清潔 清潔阿姨 收入")
    assert any("居家" in t and "阿姨" not in t for t in terms) and any("阿姨" in t and "居家" not in t for t in terms)
    # Keywords that only share a character elsewhere, or nothing, are no alternatives: the rarest is
    # the topic, searched alone too, and the others only score (電動車 充電: 電動車, not 充電).
    terms = suggest("電動車 充電")
    assert terms[:2] == ["電動車 充電", "電動車"] and "充電" not in terms
    assert [g.expression for g in build_signature("電動車 充電", terms).required] == [text.fold("電動車")]
    # A name and a common word are no kinds of one thing, though they begin alike: the name is the topic.
    terms = suggest_terms("早安美而美 早餐 菜單", AliasLexicon.parse("早安美而美 | Mei Er Mei\n"))
    assert "早安美而美" in terms and not any(t.startswith("早餐") for t in terms)
    # Rare keywords that all describe a generic head after them must all hold (外包 後端 工程師).
    assert suggest("外包 後端 工程師")[0] == "外包 後端 工程師" and "外包" not in suggest("外包 後端 工程師")
    # Keywords led by a word of several Chinese words: that keyword is the most specific, not the
    # rarest single word after it.
    assert "基層 公務員" in suggest("基層公務員 工作心得 離職") and "離職" not in suggest("基層公務員 工作心得 離職")
    # A head the request does not end with describes nothing after it: the trade alone is searched too.
    assert "外送員" in suggest("外送員 收入 跑單 心得")


def test_a_name_that_begins_with_a_place_is_proposed_whole_with_its_other_names() -> None:
    # The cut reads it as the place and the thing; the request is about the thing the lexicon names.
    terms = suggest("今年台北國際書展有什麼推薦的攤位？")
    assert terms[0] == "台北國際書展" and {"台北書展", "TIBE", "國際書展"} <= set(terms)
    # Without the place, a common word names any such thing: 馬拉松 is no name of 台北馬拉松.
    terms = suggest("有人抽到台北馬拉松嗎")
    assert {"台北馬拉松", "北馬", "Taipei Marathon"} <= set(terms) and "馬拉松" not in terms


def test_a_title_in_title_marks_is_searched_alone_as_any_name() -> None:
    # 影后 is a common word too; in title marks it is the member's own name for the series.
    assert "影后" in suggest("Netflix新劇《影后》有人看了嗎？")


def test_a_title_after_a_common_word_names_a_trade_not_a_person() -> None:
    terms = suggest("健身教練 工作")
    assert terms[0].replace(" ", "").startswith("健身教練") and "健身" not in terms
    assert suggest("想找江振誠主廚的貼文")[0] == "江振誠"


def test_a_sentence_about_one_name_also_searches_the_name_alone() -> None:
    intent = "想看大家對許光漢新片的評價"
    terms = suggest(intent)
    assert terms[0] == "許光漢 新片" and {"許光漢", "Greg Hsu"} <= set(terms)
    required = build_signature(intent, terms).required
    assert len(required) == 1 and "greg hsu" in required[0].expressions


def test_keywords_of_one_name_search_it_beside_each_other_concept_and_alone() -> None:
    intent = "BLACKPINK 高雄 演唱會"
    terms = suggest(intent)
    assert {"BLACKPINK 高雄", "BLACKPINK 演唱會", "BLACKPINK"} <= set(terms)
    gate = Gate(build_signature(intent, terms))
    place = gate.judge("BLACKPINK 高雄場第二天，粉絲擠爆世運主場館")
    concert = gate.judge("BLACKPINK 演唱會的應援手燈終於到貨了，好期待")
    # The keywords after the name say what of it is asked: a post of the name alone is found,
    # ranked below those that write them.
    alone = gate.judge("BLACKPINK 新歌的 MV 點閱破億，大家覺得好聽嗎")
    assert place.accepted and concert.accepted and alone.accepted
    assert alone.relevance < min(place.relevance, concert.relevance)


def test_a_place_is_where_a_name_no_dictionary_knows_is_and_it_is_also_searched_alone() -> None:
    intent = "告五人 台北 心得"
    terms = suggest(intent)
    assert "告五人" in terms
    gate = Gate(build_signature(intent, terms))
    assert gate.judge("告五人的新歌一直在循環，副歌好好哭").accepted
    assert not gate.judge("告五人高雄場的安可超感動").accepted  # another place's
    # An English word is as often the word as the name: the place still holds it.
    assert "Apple" not in suggest("Apple 台北 門市")


def test_a_sentence_naming_three_things_searches_any_two_of_them() -> None:
    intent = "想看大家公寓浴室磁磚花了多少錢、工期多久"
    terms = suggest(intent)
    assert terms[:4] == ["公寓 浴室 磁磚", "公寓 浴室", "公寓 磁磚", "浴室 磁磚"]
    gate = Gate(build_signature(intent, terms))
    assert gate.judge("浴室磁磚全部重貼，師傅很細心，兩週完工").accepted
    assert not gate.judge("浴室的排水孔又堵住了，有什麼清潔方法").accepted
    # So do keywords the member set apart, each keyword with what it is made of (親子餐廳).
    assert suggest("台中 皮膚科 痘痘")[:4] == ["台中 皮膚科 痘痘", "台中 皮膚科", "台中 痘痘", "皮膚科 痘痘"]
    assert suggest("桃園 燒肉 包廂")[1:4] == ["桃園 燒肉", "桃園 包廂", "燒肉 包廂"]
    # Keywords name their topic first, then what of it is asked: the first keyword is searched
    # alone too, unless it only says where (台中).
    terms = suggest("麵包師傅 學徒 工時 證照")
    assert "麵包師傅" in terms and "學徒" not in terms
    # However the keywords after it combine: a name among them takes nothing from the first.
    assert "沙丘" in suggest("沙丘 提摩西 夏勒梅 續集")
    assert "台中" not in suggest("台中 皮膚科 痘痘")
    # Not a sentence's first thing, which its other clauses may only set up.
    assert "公寓" not in suggest(intent)
    # Two keywords, or a generic head after a keyword, still need each (外包 後端 工程師).
    assert suggest("台中 親子餐廳") == ["台中 親子 餐廳", "台中 亲子 餐厅"]
    signature = build_signature("外包 後端 工程師", suggest("外包 後端 工程師"))
    assert {text.fold("外包"), text.fold("後端")} <= {g.expression for g in signature.required}


def test_a_product_is_also_searched_without_its_maker() -> None:
    assert "Pixel 10" in suggest("想買Google Pixel 10，有人用了嗎？")
    assert "Zenbook" in suggest("ASUS Zenbook 值得買嗎")
    # The maker may be several words: the longest run of first words the lexicon knows.
    assert "Midnights" in suggest_terms("Taylor Swift Midnights 心得", AliasLexicon.parse("Taylor Swift | 泰勒絲"))
    # And where what is left is a name the lexicon knows, though an English word too.
    members = AliasLexicon.parse("BLACKPINK | 粉墨\nLisa | Lalisa | 麗莎")
    assert "Lisa" in suggest_terms("BLACKPINK Lisa 近況", members)
    # Not where what is left names many things: a common word, or a bare number.
    assert "Ruby" not in suggest("JENNIE Ruby")
    assert "17 Pro" not in suggest("iPhone 17 Pro 的電池續航")


def test_a_place_or_a_number_is_never_another_name_of_a_name() -> None:
    assert all("blackpink" in term.lower() for term in suggest("BLACKPINK 高雄 演唱會"))
    assert "3" not in suggest("魷魚遊戲3")


def test_a_known_name_makes_the_core_before_a_word_the_dictionary_merely_lacks() -> None:
    terms = suggest("電價好像又要調漲了，想看大家最近怎麼討論台電跟電費")
    assert terms[0].split()[0] == "台電" and "Taipower" in " ".join(terms)
    assert all("調漲" not in term for term in terms)


def test_a_title_in_title_marks_is_proposed_whole() -> None:
    assert suggest("有人看過《喵的奇幻漂流》嗎？想看大家的心得")[0] == "喵的奇幻漂流"
    # Marks at its ends are no part of the name, which comes before the other names given.
    assert suggest("週末去看了迪士尼的《動物方城市2！》，想看大家的心得")[0] == "動物方城市2"


def test_a_word_is_proposed_as_written_though_its_folded_form_is_the_taiwan_word() -> None:
    # fold reads 設備 as 裝置 (OpenCC's Taiwan phrase); a search for 裝置 misses posts writing 設備.
    terms = suggest("半導體 設備工程師 真實心得")
    assert "設備" in terms[0] and not any("裝置" in term for term in terms)


def test_a_place_is_proposed_only_as_written() -> None:
    terms = suggest("台北陶藝課")
    assert not any(name in term for term in terms for name in ("台北市", "Taipei", "天龍國"))


def test_a_country_only_says_where_unless_nothing_else_is_named() -> None:
    assert all("台灣" not in term for term in suggest("台灣精釀啤酒"))
    assert suggest("台灣")[0] == "台灣"


def test_a_common_word_the_dictionary_files_as_a_place_is_no_place() -> None:
    # jieba files 加盟 (to join a franchise) as a place name; read so, the request named nothing.
    assert is_place(text.fold("日本")) and not is_place(text.fold("加盟"))
    assert "加盟" in suggest("想加盟手搖飲店，想聽加盟主分享真的賺得到錢嗎")[0]


def test_a_name_is_proposed_with_its_nickname_and_english_name_beside_the_other_concepts() -> None:
    terms = suggest("想追戴資穎最近的比賽")
    assert {"小戴", "Tai Tzu-ying"} <= set(terms)
    # The names become one required group of alternatives; 比賽 only scores, as in the core's signature.
    signature = build_signature("想追戴資穎最近的比賽", terms)
    required = [set(g.expressions) for g in signature.required]
    assert len(required) == 1 and {"戴资颖", "小戴", "tai tzu-ying"} <= required[0]


def test_what_keywords_ask_of_one_name_only_scores() -> None:
    terms = suggest("鬼滅之刃 無限城 心得")
    assert terms[0] == "鬼滅之刃 無限城"
    # The name alone, and by its other names, finds the posts that write it without the rest.
    assert {"鬼滅之刃", "鬼滅", "Demon Slayer"} <= set(terms)
    signature = build_signature("鬼滅之刃 無限城 心得", terms)
    assert [g.expression for g in signature.required] == [text.fold("鬼滅之刃")]
    assert suggest("張金鶚 房價")[:2] == ["張金鶚 房價", "張金鶚"]
    # Beside a word the dictionary lacks (存股), the name is the one the member gave: a code the
    # lexicon knows is a name; a form of address the dictionary files as a person (阿姨) is not.
    assert suggest("00878 存股 心得")[:2] == ["00878 存股", "00878"]
    assert "阿姨" not in suggest("居家清潔 清潔阿姨 收入")


def test_a_sentence_giving_several_names_is_about_the_first() -> None:
    # A question mark makes a sentence even where every Chinese word of it is framing.
    terms = suggest("DeepSeek 到底好不好用？想看大家的心得，跟ChatGPT比較的也可以")
    assert "DeepSeek" in terms and "ChatGPT" not in terms
    signature = build_signature("DeepSeek 到底好不好用？想看大家的心得，跟ChatGPT比較的也可以", terms)
    assert [g.expression for g in signature.required] == ["deepseek"]
    # A title in title marks comes before the other names (影后, not Netflix).
    terms = suggest("Netflix新劇《影后》有人看了嗎？想知道大家心得")
    assert "影后" in terms and "Netflix" not in terms


def test_keywords_giving_names_apart_are_about_the_first_and_one_written_as_one_word_is_one_thing() -> None:
    # The topic first, its context after: a post on the player needs no team, the film no actor.
    intent = "陳傑憲 統一獅 隊長 近況"
    terms = suggest(intent)
    assert "陳傑憲" in terms and "統一獅" not in terms
    assert [g.expression for g in build_signature(intent, terms).required] == [text.fold("陳傑憲")]
    # A name no dictionary knows is no word that describes the title after it, as 外包 後端
    # describe 工程師: it is searched alone.
    assert "林安" in suggest("林安 台電 董事長")
    # A series and its subtitle in one word name one game: both stay required.
    terms = suggest("寶可夢傳說Z-A好玩嗎 值不值得買")
    assert all("Z-A" in term for term in terms)


def test_a_question_about_a_line_of_work_is_about_the_worker_not_the_story() -> None:
    terms = suggest("之前在 Uber Eats 跑了兩年外送，後來去 momo 的倉庫打工。最近想找穩定一點的工作，"
                    "想看大家分享物流理貨員的工作心得，薪水跟體力負擔都想知道。")
    assert terms[0] == "物流理貨員" and "理貨員" in terms
    assert not any("momo" in term or "Uber" in term for term in terms)
    # The worker is one thing however the dictionary cuts it: where the keeper works is no topic alone.
    terms = suggest("高中就愛看 Discovery，大學念獸醫系，實習時在動物醫院幫忙。最近想轉行當動物園保育員，"
                    "想知道當保育員的真實心得，薪水跟工時怎麼樣？")
    assert "保育員" in terms and "動物園" not in terms
    # The people a question asks to tell are not what it asks about.
    terms = suggest("我用 ASUS 筆電剪片快一年。最近常當機，想看電腦維修師的看法，ASUS 的售後跟保固到底好不好。")
    assert terms[0] == "ASUS" and names_none(terms, "維修師")


def test_people_asked_by_the_work_they_do_name_the_line_of_work() -> None:
    # 做排版的人, 做校對的人, 當過保全的人: what they do is the work asked about, whatever word ends
    # it, not the jobs and schools of the story.
    assert suggest("我在出版社當編輯五年，最近公司要裁員。朋友說可以接案做排版，"
                   "想知道現在做排版的人怎麼接案、一頁多少錢。")[0] == "排版"
    terms = suggest("大學念中文系，畢業後在補習班教作文。最近想換工作，想看在做校對的人分享，費率怎麼算、一本書要校幾次。")
    assert terms[0] == "校對" and names_none(terms, "中文系")
    assert suggest("退伍後在物流倉庫做了兩年理貨，腰常常痛。想看當過保全的人分享，夜班跟薪水怎麼樣。")[0] == "保全"


def test_alternatives_set_apart_beside_a_name_are_what_of_it_is_asked() -> None:
    # The comic and the anime of a work only score: the work alone finds the posts on it.
    terms = suggest("鬼滅之刃 漫畫 動畫 差異")
    assert "鬼滅之刃" in terms and "漫畫 鬼滅之刃" not in terms


def test_a_name_the_question_gives_again_is_not_joined_to_the_story_before_it() -> None:
    # 小布 ends the story, Brompton begins the question: one thing named twice, but across a clause.
    terms = suggest_terms("想買台折疊車通勤。同事推 Tern，我去車店摸了 Birdy，回家又看到網美在騎小布。"
                          "想看大家對 Brompton 的使用心得：好不好折、值不值得買。")
    assert "Brompton" in terms and names_none(terms, "Tern", "Birdy")


def test_a_latin_name_of_several_words_is_one_keyword() -> None:
    # The Latin name is the second keyword, so the first, a common word, is searched alone too.
    terms = suggest("光與影 Clair Obscur 評價")
    assert "光與影" in terms and "Clair Obscur" in terms


def test_a_search_needing_every_concept_also_searches_the_most_specific_with_its_places() -> None:
    assert suggest("台中 空污 小孩")[:2] == ["台中 空污 小孩", "台中 空污"]
    # A number is never the thing searched alone (魷魚遊戲3).
    assert "3" not in suggest("魷魚遊戲3")


def test_a_sentence_about_one_thing_requires_that_thing_alone() -> None:
    # 健身房業者的現況: what it says of 健身房 (業者) only scores; the thing alone finds the posts.
    terms = suggest("想看大家討論健身房業者的現況")
    assert terms[:2] == ["健身房 業者", "健身房"]
    signature = build_signature("想看大家討論健身房業者的現況", terms)
    assert [g.expression for g in signature.required] == [text.fold("健身房")]


def test_a_lexicon_name_is_found_in_simplified_or_any_case() -> None:
    assert {"鬼滅", "Demon Slayer"} <= set(suggest("鬼灭之刃"))
    assert suggest("JOLIN 新歌")[0].lower().startswith("jolin")


def test_two_names_the_intent_gives_for_one_thing_become_alternatives() -> None:
    terms = suggest("Jolin 蔡依林 新專輯")
    assert terms[:3] == ["Jolin 新專輯", "Jolin", "蔡依林"]
    # Also across two stretches of a sentence.
    assert suggest("LANEIGE 蘭芝 保養品使用心得")[:2] == ["LANEIGE", "蘭芝"]


def test_a_multi_concept_phrase_is_split_into_its_concepts() -> None:
    assert suggest("外包後端工程師") == ["外包 後端 工程師", "外包 后端 工程师"]
    assert suggest("台北陶藝課")[0] == "台北 陶藝課"


def test_a_long_request_keeps_its_most_specific_concepts() -> None:
    core = suggest("想找台北適合帶長輩去的陶藝課，最好是週末有開的")[0]
    assert len(core.split()) <= MAX_CONCEPTS
    # Other places go first: a post about the thing seldom says where (太魯閣 beside the quake).
    core = suggest("想看大家怎麼討論0403花蓮大地震之後的重建，太魯閣什麼時候可以再去？")[0]
    assert "0403" in core and "地震" in core


def test_the_core_is_also_proposed_in_simplified_characters() -> None:
    terms = suggest("台北陶藝課")
    assert "台北 陶艺课" in terms and len(terms) == len(set(terms))


def test_the_simplified_core_is_kept_however_many_other_names_come_first() -> None:
    many = AliasLexicon.parse("孤獨搖滾 | " + " | ".join(f"Bocchi {n}" for n in range(12)))
    terms = suggest_terms("孤獨搖滾 聯名 商品", many)
    assert len(terms) == MAX_TERMS and terms[-1] == "孤独摇滚 联名 商品"


def test_a_year_is_left_out_unless_it_is_all_there_is() -> None:
    assert suggest("2026 台北 陶藝課")[0] == "台北 陶藝課"
    assert suggest("2025") == ["2025"]
    # Also in one run with what it dates.
    assert suggest("TGA 2025年度遊戲大家覺得誰會得獎？")[0] == "TGA"
    assert suggest("想找大家在討論2026經典賽中華隊的貼文")[0] == "經典賽 中華隊"


def test_an_intent_of_framing_only_names_no_topic() -> None:
    with pytest.raises(NoTopicEvidence):
        suggest("請問 有沒有 推薦 心得")
    with pytest.raises(NoTopicEvidence):
        suggest("請問")


def test_a_lone_word_the_dictionary_files_as_a_function_word_is_the_topic() -> None:
    # 乖乖, the snack, is an adverb to the dictionary; typed alone it is what the member looks for.
    assert suggest("乖乖") == ["乖乖"]
    assert Gate(build_signature("乖乖", suggest("乖乖"))).judge("乖乖綠色包裝放在機台上，據說機器就不會當機").accepted


def test_the_shipped_lexicon_reads_cleanly() -> None:
    entries = [line for line in LEXICON.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.lstrip().startswith("#")]
    firsts = [line.split("|")[0].strip() for line in entries]
    assert len(entries) >= 100
    assert all(len([n for n in line.split("|") if n.strip()]) >= 2 for line in entries)
    assert len(firsts) == len(set(firsts))


def test_a_run_the_dictionary_lacks_is_searched_in_its_words() -> None:
    # The tokenizer's words, its single characters in a row one unknown word: posts write them apart.
    assert suggest("貝親奶瓶")[0] == "貝親 奶瓶"
    assert suggest("長照產業缺工很嚴重嗎")[0] == "長照產業 缺工"
    # A run with a lone character left, or nothing but unknown characters, has no boundary to trust.
    assert parts_around_names(text.fold("可不可熟成紅茶")) is None
    assert parts_around_names(text.fold("姜亨旭訓犬師")) is None
    # A word the dictionary barely knows before unknown characters is part of them (皮拉 提 斯).
    assert suggest("皮拉提斯 體驗課")[0] == "皮拉提斯 體驗課"


def test_a_short_chinese_keyword_beside_a_latin_name_is_its_chinese_name_whole() -> None:
    # 之 and 剛 are function words elsewhere; here they are inside the name.
    assert suggest("碧藍之海 Grand Blue 心得")[:2] == ["碧藍之海", "Grand Blue"]
    assert "吳季剛" in suggest("吳季剛 Jason Wu 評價")
    # Common words side by side are no name, nor is framing.
    assert "遊戲心得" not in suggest("九日 Nine Sols 遊戲心得")
    assert "好玩嗎" not in suggest("九日 Nine Sols 好玩嗎")


def test_a_surname_and_the_particle_zhi_begin_a_name() -> None:
    assert suggest("林之晨") == ["林之晨"]
    assert "林之晨" in suggest("想看林之晨最近的新書心得")[0]


def test_a_keyword_that_reads_as_a_persons_name_cut_into_characters_is_whole() -> None:
    # 在 is a function word elsewhere; set apart as a keyword, the three characters are a name.
    assert suggest("劉在石 綜藝")[:2] == ["劉在石 綜藝", "劉在石"]


def test_a_surname_the_dictionary_reads_as_a_word_begins_the_name_after_it() -> None:
    # 謝 (thank) and 黃 (yellow) are words elsewhere; before a given name of no common word they are surnames.
    assert suggest("謝金河 財經觀點 評價")[0] == "謝金河"
    assert "黃珊珊" in suggest("最近黃珊珊好像又很常上新聞，想看大家對她的評價")[0]
    # Before a common word a surname stays the word it is.
    assert suggest("謝謝大家")[0] == "謝謝"


def test_the_thing_before_a_generic_head_is_also_proposed_alone() -> None:
    # A generic head only says what kind of thing it is: posts name the thing without it.
    assert suggest("電競產業")[:2] == ["電競產業", "電競"]
    assert "外送" in suggest("外送平台")
    # A head of one character too, one that makes a thing of a kind (店, 課), not any character.
    assert "高雄 拼豆" in suggest("想在高雄找可以現場拼的拼豆店")
    assert "府保" not in suggest("到府保母 居家托育 薪水 心得")
    # Not a place before what is there (台北 of 台北車站 names every post of the city).
    assert "台北" not in suggest("台北車站")
    # Also beside the other names the lexicon gives the whole.
    proposed = suggest("徵才博覽會")
    assert "就業博覽會" in proposed and "徵才" in proposed


def test_a_pronoun_before_a_title_names_nobody() -> None:
    # 哪間醫生 asks which one; the sentence is about the clinic and what is done there.
    proposed = suggest("我家母貓快六個月了，想在台中找動物醫院結紮，費用大概多少、哪間醫生比較細心？")
    assert not any("哪間" in term for term in proposed)
    assert proposed[0] == "台中 動物醫院 結紮"


def test_an_english_word_in_lower_case_is_not_the_name_a_sentence_is_about() -> None:
    # 拿到offer: the word, not a name; a name alone is searched by itself, this word never is.
    proposed = suggest("拿到竹科的offer了，下個月報到，想在竹北或新竹東區租房")
    assert "offer" not in proposed
    assert suggest("想看大家對Netflix新劇的評價")[1] == "Netflix"
    # A letter before a number of two digits or more is a name (A24), not a code such as 5G
    assert suggest("以前在電影社放映過很多獨立片，最近朋友說那家公司又出了新片和周邊。好奇大家怎麼聊 A24 的新片或周邊，"
                   "片單推薦都可以")[0] == "A24"
    # nor is an abbreviation of two lower-case letters, a measure (幾 mm)
    assert names_none(suggest("有沒有人分享在小琉球浮潛的經驗？要穿幾 mm 的防寒衣都想知道"), "mm")


def test_what_the_member_wants_to_become_is_the_topic_not_what_they_say_before_it() -> None:
    assert suggest("喜歡狗想轉行當訓犬師，想知道要去哪裡學、要不要證照")[0] == "訓犬師"
    assert suggest("想轉行當水電工，有沒有師傅分享學徒期跟收入的真實狀況")[0] == "水電工"


def test_what_keywords_ask_of_their_topic_only_scores() -> None:
    # A common word set apart after the topic: what of it is asked.
    assert "麵包師傅" in suggest("麵包師傅 收入")
    assert build_signature("麵包師傅 收入", suggest("麵包師傅 收入")).required[0].expression == text.fold("麵包師傅")
    # Of two keywords, the first is the topic.
    assert "房屋稅" in suggest("房屋稅 繳納")
    # Not where rare keywords describe the head after them.
    assert suggest("外包 後端 工程師") == ["外包 後端 工程師", "外包 后端 工程师"]


def test_a_keyword_that_is_a_verb_only_scores_beside_the_others() -> None:
    # Posts on a place or a thing seldom write what the member does there.
    assert "台北書展" in suggest("台北書展 逛街")
    assert "合歡山" in suggest("合歡山 下雪")
    # Keywords of things all hold.
    assert suggest("外包 後端 工程師")[:1] == ["外包 後端 工程師"]


def test_a_time_only_says_when() -> None:
    assert "十二月" not in suggest("十二月想去嘉義看管樂節，想看去過的人分享")[0]
    assert "管樂" in suggest("十二月想去嘉義看管樂節，想看去過的人分享")[0]
    # nor does a day's or a month's number
    assert suggest("9/7晚上那次月全食我在家睡著了，想看大家拍到的照片")[0] == "月全食"
    # A title in title marks is a name, whatever else the word means.
    assert suggest("想知道《九日》這款遊戲值不值得買")[0] == "九日"


def test_a_persons_name_ending_in_a_verbs_character_stays_whole() -> None:
    # 建 is a verb elsewhere; 李崇建 is one person, with his title after him.
    assert suggest("朋友推薦李崇建老師的書，想看讀過的爸媽心得")[0] == "李崇建"


def test_a_name_that_is_also_a_common_word_yields_to_one_that_is_none() -> None:
    lexicon = AliasLexicon.parse("全家 | FamilyMart\n卡坦島 | Catan\n")
    # 全家 here is the whole family; the game is the name asked about.
    assert suggest_terms("過年想買一款全家可以玩的桌遊，朋友推卡坦島，想看玩過的人心得", lexicon)[0] == "卡坦島"


def test_a_name_right_before_a_persons_is_where_the_person_works() -> None:
    lexicon = AliasLexicon.parse("台積電 | TSMC\n魏哲家 | C.C. Wei\n")
    assert suggest_terms("想看大家怎麼評價台積電魏哲家最近的發言", lexicon)[0] == "魏哲家"
    assert suggest_terms("想看大家怎麼評價台積電董事長魏哲家最近的發言", lexicon)[0] == "魏哲家"
    # Apart, both are named.
    assert "台積電" in suggest_terms("台積電的股價跟魏哲家的發言，想看大家怎麼說", lexicon)[0]


def test_a_pointer_back_at_the_name_the_asking_clause_gives_again_leaves_the_story_the_setting() -> None:
    # 他 points back at 博恩, whom the asking clause names again in full: the story before it is the setting.
    lexicon = AliasLexicon.parse("曾博恩 | 博恩 | Brian Tseng")
    terms = suggest_terms("大學看脫口秀就超愛博恩那些段子，後來他跟Lulu合作也一直有在關注。最近好像很常看到他，"
                          "想看大家聊曾博恩現在的節目", lexicon)
    assert terms[0] == "曾博恩" and names_none(terms, "Lulu", "段子")


def test_a_name_the_story_gives_and_the_asking_clause_gives_again_is_the_topic() -> None:
    lexicon = AliasLexicon.parse("林宥嘉 | Yoga Lin\n蕭敬騰 | 老蕭 | Jam Hsiao")
    terms = suggest_terms("大學時看過一次林宥嘉的演唱會，後來也開始聽蕭敬騰的專輯。想看大家聊蕭敬騰最近的演唱會", lexicon)
    assert terms[0].startswith("蕭敬騰") and names_none(terms, "林宥嘉", "Yoga")


def test_the_end_of_a_story_s_name_after_another_place_is_another_one_of_that_kind() -> None:
    # 新竹 電影節 after the story's 高雄電影節: another festival, not the story's named again
    terms = suggest("每年都會去台北電影節，去年也專程去了高雄電影節一次。今年搬到新竹工作，想看大家去新竹電影節的心得，選片推薦都可以。")
    assert "新竹" in terms[0] and names_none(terms, "高雄")


def test_a_question_that_names_nothing_of_its_own_asks_about_the_last_name_the_story_gives() -> None:
    lexicon = AliasLexicon.parse("寶可夢 | Pokemon\n幻獸帕魯 | Palworld\n黑暗榮耀 | The Glory\n宋慧喬 | Song Hye-kyo\n"
                                 "林智妍 | Lim Ji-yeon")
    terms = suggest_terms("以前很愛玩寶可夢，去年朋友拉我入坑幻獸帕魯，抓帕魯蓋基地玩到停不下來。想看大家最近的遊玩心得", lexicon)
    assert terms[0] == "幻獸帕魯" and names_none(terms, "寶可夢", "Pokemon")
    # The people named after a title are the work's, and two capitals the lexicon lacks are a common term.
    terms = suggest_terms("過年把《黑暗榮耀》一口氣看完，宋慧喬跟林智妍的CP感好強。想看其他人的心得跟最喜歡的片段", lexicon)
    assert terms[0] == "黑暗榮耀" and names_none(terms, "宋慧喬", "CP")


def test_a_pronoun_in_the_question_leaves_the_storys_other_names_the_setting() -> None:
    lexicon = AliasLexicon.parse("林依晨 | Ariel Lin\n想見你 | Someday or One Day\n")
    terms = suggest_terms("從《想見你》就很喜歡林依晨，去年看《我們與惡的距離》又被她圈粉一次。想看大家聊她最近的作品跟訪談",
                          lexicon)
    assert terms[0] == "林依晨" and names_none(terms, "距離", "想見你")


def test_a_thing_the_story_and_the_question_name_by_two_names_is_counted_by_both() -> None:
    # 豐田, then Toyota, is named twice: more often than Altis or Honda, which the story gives once.
    lexicon = AliasLexicon.parse("豐田 | Toyota\nAltis | Corolla Altis\n本田 | Honda\n")
    terms = suggest_terms("家裡那台開了十年的Altis要退休了，我爸堅持再買豐田，說保值又好修，我比較想看Honda的電動車。"
                          "想先看看大家最近對Toyota的評價，油耗、保養費都可以", lexicon)
    assert terms[0] in ("豐田", "Toyota") and names_none(terms, "Honda", "Altis")


def test_a_question_that_names_no_thing_asks_with_the_wanting_clause_before_it() -> None:
    lexicon = AliasLexicon.parse("大阪馬拉松 | Osaka Marathon\n")
    terms = suggest_terms("去年去大阪跑了大阪馬拉松，沿途一直有人遞糖果給我。今年想挑戰首爾馬拉松，想看跑過的人分享心得",
                          lexicon)
    assert "首爾" in terms[0] and names_none(terms, "大阪")


def test_a_thing_the_member_does_not_want_is_not_the_topic_anywhere() -> None:
    lexicon = AliasLexicon.parse("林智勝 | 大師兄\n陳金鋒 | 金鋒\n")
    intent = ("小時候最愛陳金鋒，他退休那場我在球場哭。最近大家都在講林智勝的打擊，"
              "想看大家對林智勝這季的評價，陳金鋒的就不用了")
    terms = suggest_terms(intent, lexicon)
    assert terms[0].startswith("林智勝") and names_none(terms, "金鋒")
    # A clause that describes what it turns away names the topic in another sense: it stays.
    terms = suggest_terms("最近常聽到一風堂出新的季節限定，想看吃過的人的評價，那個叫一風堂的樂團就不用了",
                          AliasLexicon.parse("一風堂 | Ippudo\n"))
    assert terms[0] == "一風堂"


def test_a_place_inside_the_city_a_name_begins_with_only_says_where() -> None:
    # 駁二 lies in 高雄, which 高雄燈會 begins with: the festival is searched without it.
    terms = suggest_terms("高雄燈會 駁二 攤位", AliasLexicon.parse("高雄燈會 | 高雄燈會藝術節\n"))
    assert "高雄燈會" in terms and not any("駁二" in t for t in terms[1:])


def test_a_story_sentence_that_ends_like_an_extra_only_tells() -> None:
    # 「…的氣氛更好」 in the story compares; only from the sentence that asks does 更好 add what else would do.
    lexicon = AliasLexicon.parse("高雄電影節 | Kaohsiung Film Festival\n台北電影節 | Taipei Film Festival\n")
    terms = suggest_terms("去年跑了台北電影節，朋友說高雄電影節的氣氛更好。想看大家分享高雄電影節的心得", lexicon)
    assert terms[0] == "高雄電影節" and names_none(terms, "台北")


def test_a_pointer_at_a_line_of_work_points_back_at_the_last_work_the_story_names() -> None:
    lexicon = AliasLexicon.parse("助聽器 | hearing aid\n")
    terms = suggest_terms("帶外婆去配助聽器，遇到一位很細心的驗光師幫她調整，之後我一直很好奇這份工作。"
                          "想了解這行的實際狀況，薪水跟國考都想知道", lexicon)
    assert terms[0] == "驗光師" and names_none(terms, "助聽器")


def test_a_two_character_name_written_across_a_common_words_edge_is_no_name() -> None:
    # 年改 of 去年改去: 去年 is a word of its own, and 年改 is not what the member wrote.
    lexicon = AliasLexicon.parse("年改 | 年金改革\n墾丁 | Kenting\n")
    terms = suggest_terms("前年去了墾丁，去年改去綠島。想看大家在綠島浮潛的心得", lexicon)
    assert names_none(terms, "年改", "年金")


def test_the_story_names_in_a_list_are_examples_not_where_it_arrived() -> None:
    lexicon = AliasLexicon.parse("火球祭 | Fireball Fest\n阿爆 | ABAO\n桑布伊 | Sangpuy\n"
                                 "舒米恩 | Suming\n")
    terms = suggest_terms("朋友說台東每年會辦一個火球祭，會邀請阿爆、桑布伊、舒米恩這些歌手來唱。"
                          "想看去過的人分享心得", lexicon)
    assert terms[0] == "火球祭" and names_none(terms, "舒米恩", "Suming")


def test_a_verb_the_cut_glued_to_a_name_the_dictionary_lacks_is_cut_off() -> None:
    terms = suggest_terms("想看大家聊葉采薇，她的新書或以前的專欄都可以", AliasLexicon.parse(""))
    assert terms[0] == "葉采薇"


def test_a_question_that_names_a_place_and_no_thing_asks_about_the_place() -> None:
    lexicon = AliasLexicon.parse("合歡北峰 | 合歡山北峰\n雪山 | Xueshan\n")
    terms = suggest_terms("第一座百岳是合歡北峰，後來又去了雪山。學長一直說台東那個高山湖泊一定要去一次。"
                          "想看大家爬嘉明湖的心得", lexicon)
    assert terms[0] == "嘉明湖" and names_none(terms, "雪山", "合歡")


def test_asking_for_leave_is_no_clause_that_asks_to_read() -> None:
    # 想請假 is 請 of 請假: the question is 「想看大家分享…」.
    terms = suggest("大學時去都柏林交換，每天去 Temple Bar 喝健力士。明年三月想請假去紐約或芝加哥，看那個全城穿綠色的節日。"
                    "想看大家分享 St. Patrick's Day 的現場心得")
    assert terms[0] == "St. Patrick's Day"


def test_a_pointer_at_a_work_without_titles_in_marks_points_at_the_last_name_that_is_no_persons() -> None:
    lexicon = AliasLexicon.parse("拳皇 | King of Fighters\n瑪利歐賽車 | Mario Kart\n快打旋風6 | Street Fighter 6\n")
    terms = suggest_terms("小時候在夜市的遊樂場玩拳皇，長大後都跟朋友玩瑪利歐賽車。今年同事午休帶 Switch 開打，借我玩了"
                          "幾場快打旋風6，被連段打到懷疑人生也很開心。想看大家對這款的心得，新手角色推薦都可以", lexicon)
    assert terms[0] == "快打旋風6" and names_none(terms, "拳皇", "瑪利歐")


def test_the_first_keyword_is_the_topic_whatever_class_the_dictionary_files_it_under() -> None:
    # The cut files 那些年 as colloquial words; typed first, it is the film.
    assert suggest("那些年 電影 心得")[0] == "那些年 電影"
    assert suggest("我們 韓劇 心得")[0] == "韓劇"


def test_a_keyword_keeps_what_the_cut_would_drop_of_it() -> None:
    # The cut reads 修 琴師: the keyword typed is the piano tuner's trade, not any 琴師.
    assert suggest("修琴師 入行 收入")[0].startswith("修琴師")
    # The head says what the thing is: a mountain bike, a pottery festival, not 登山 or 陶藝.
    assert suggest("登山車 入門 推薦")[0].startswith("登山車")
    assert suggest("陶藝節 攤位")[0].startswith("陶藝節")
    # A framing end is left out still: 遊玩 is asked about, not 遊玩心得.
    assert suggest("遊玩心得 推薦")[0] == "遊玩"


def test_a_worker_asked_after_a_pointer_at_a_work_is_an_aspect_of_the_work() -> None:
    # 這個節目 points back at the show; the nutritionist is what of it is asked.
    terms = suggest("我媽追了好幾年《健康兩點靈》，常常照著買保健品。想看大家對這個節目的評價，或照著節目找營養師的經驗。")
    assert terms[0] == "健康兩點靈" and names_none(terms, "營養師")


def test_asking_to_share_is_the_question() -> None:
    # The story's 想試試 is no question: 求分享 asks.
    terms = suggest("用了五年 iPhone，去年想試試 Android 換成三星，拍照普普。最近朋友拿 Pixel 10 拍夜景很清楚。"
                    "求分享 Pixel 手機的使用心得，拍照跟電池都可以")
    assert "Pixel" in terms[0] and names_none(terms, "Android", "三星")


def test_what_someone_else_says_they_want_is_no_question() -> None:
    lexicon = AliasLexicon.parse("周杰倫 | Jay Chou\n告五人 | Accusefive\n草東沒有派對 | 草東\n落日飛車 | Sunset Rollercoaster\n")
    terms = suggest_terms("以前都聽周杰倫。室友說想聽新一點的就去聽告五人跟草東，我聽了兩張專輯。有沒有人也在聽落日飛車？"
                          "想看大家推薦的歌", lexicon)
    assert terms[0] == "落日飛車" and names_none(terms, "告五人", "草東")


def test_wondering_what_everyone_thinks_asks_to_read() -> None:
    terms = suggest("大學都在追 NBA，後來去日本交換又迷上 B.League，每週都去看主場。朋友說台灣現在的職籃也很熱鬧。"
                    "好奇大家對 TPBL 這一季的看法，洋將跟主場氣氛都想看")
    assert terms[0] == "TPBL"
    # So does a clause that opens with 好奇, after a story and another clause of wanting to ask
    terms = suggest("以前在墾丁考了潛水執照，常看 Discovery 的鯊魚節目，但我想問的不是那種。"
                    "好奇在台灣當潛水教練能不能養活自己，收入跟證照都想看。")
    assert terms[0].startswith("潛水") and names_none(terms, "Discovery")


def test_a_thing_named_again_by_another_name_is_not_where_the_story_arrived() -> None:
    lexicon = AliasLexicon.parse("絕地求生 | PUBG | 吃雞\n英雄聯盟 | LOL\n三角洲行動 | Delta Force\n")
    terms = suggest_terms("大學宿舍每天跟室友玩 PUBG，後來又一起入坑英雄聯盟。最近在 Steam 看到《三角洲行動》免費，"
                          "聽說跟吃雞很像但節奏更快。有沒有玩過的人可以分享新手怎麼開始？", lexicon)
    assert terms[0] == "三角洲行動" and names_none(terms, "PUBG", "吃雞")


def test_a_common_word_after_alternatives_that_are_things_only_scores() -> None:
    terms = suggest("調酒師 咖啡師 薪水")
    assert "調酒師" in terms and "咖啡師" in terms
    # After places, the common word is the topic each place qualifies.
    assert suggest("台北 台中 牙醫")[1:3] == ["台北 牙醫", "台中 牙醫"]


def test_story_names_named_again_only_in_what_is_not_wanted_stay_the_setting() -> None:
    lexicon = AliasLexicon.parse("爭鮮 | Sushi Express\n藏壽司 | Kura Sushi\n壽司郎 | Sushiro\n")
    terms = suggest_terms("大學時最常去吃爭鮮，出社會後藏壽司跟壽司郎也輪流吃過。這個月媽媽生日，家族群組裡有人推合點。"
                          "想看最近吃過合點的人分享，必點、價位跟哪家分店比較好都可以，拿藏壽司或壽司郎來比較的就不用了。",
                          lexicon)
    assert terms[0] == "合點" and names_none(terms, "藏壽司", "壽司郎")
    # A list before the ending of what is not wanted is of that clause too.
    terms = suggest_terms("大學時最常去吃爭鮮，出社會後藏壽司跟壽司郎也輪流吃過。這個月媽媽生日，家族群組裡有人推合點。"
                          "想看最近吃過合點的人分享，必點、價位跟哪家分店比較好都可以，只比藏壽司跟壽司郎、沒講合點的就不用了。",
                          lexicon)
    assert terms[0] == "合點" and names_none(terms, "藏壽司", "壽司郎")


def test_a_platform_between_zai_and_shang_is_not_where_the_story_arrived() -> None:
    lexicon = AliasLexicon.parse("星露谷物語 | Stardew Valley\n")
    terms = suggest_terms("以前只玩手遊，室友推我入坑《星露谷物語》。最近朋友說有一款養成遊戲叫 Palia，聽說在 Steam 上很紅。"
                          "想看大家的遊玩心得", lexicon)
    assert terms[0] == "Palia" and names_none(terms, "Steam")


def test_a_question_after_a_story_of_names_asks_about_its_place_and_things() -> None:
    lexicon = AliasLexicon.parse("一蘭 | Ichiran\n敘敘苑 | Jojoen\n")
    terms = suggest_terms("以前去日本都只跑東京，每次都吃一蘭跟敘敘苑。這次帶爸媽回南投玩，想在埔里停一個下午。"
                          "想看大家推薦埔里的美食，小吃或甜點都可以", lexicon)
    assert terms[0] == "埔里 美食" and names_none(terms, "一蘭")



@pytest.mark.parametrize(("lexicon", "intent", "topic", "setting"), [
    # 就算了 and 也不要 turn a clause away, as 就不用 and 不要 do.
    ("周杰倫 | Jay Chou\n不能說的秘密 | Secret", "想看大家最近怎麼聊周杰倫本人，《不能說的秘密》的劇情討論就算了",
     "周杰倫", ("秘密",)),
    ("林依晨 | Ariel Lin", "上週滑到林依晨拍新廣告的新聞，才發現我追她追了好幾年。下個月要去台中玩，順便想看看最近大家怎麼聊"
     "她的新片跟近況。只想看她本人的討論，不要《想見你》整部的劇情心得，也不要其他女演員的八卦。", "林依晨", ("演員",)),
    # 想 of 《想見你》 is the title's: its clause tells, and 她 points at the person it names.
    ("林依晨 | Ariel Lin\n想見你 | Someday or One Day",
     "上週滑到林依晨拍新廣告的消息，才發現我從《想見你》追她追了好幾年。想看大家最近怎麼聊她的造型跟近況", "林依晨", ("想見你",)),
    # 之前 after a person says when she acted, not when the member asks.
    ("那些年 | You Are the Apple of My Eye\n葉湘庭 | Ye Xiangting",
     "追完《那些年》之後整個愛上女主角，才發現葉湘庭之前還演過好幾部電影。想看大家聊她本人的演技跟訪談", "葉湘庭", ("那些年",)),
    # 林大同 of 「林大同的女兒」 says who she is: 她 points at 林佳穎.
    ("林佳穎 | Lin Chia-ying\n林大同 | Lin Da-tong",
     "最近一直看到有人推林佳穎出來選議員，但我對她的印象只停在「林大同的女兒」。想看大家對她本人的評價", "林佳穎", ("林大同",)),
    # 柯佳嬿 is named beside 林依晨 in the story, then alone in the question: 她 after it is hers.
    ("許光漢 | Greg Hsu\n林依晨 | Ariel Lin\n柯佳嬿 | Alice Ko\n想見你 | Someday or One Day",
     "去年追《想見你》是為了許光漢，後來又迷上林依晨的演技。最近聽說柯佳嬿跟林依晨一起拍了新電影。"
     "想看大家聊柯佳嬿最近的消息，新片或訪談都可以，她以前的緋聞就不用再翻了。", "柯佳嬿", ("林依晨", "許光漢")),
    # 容 is no common surname, but the dictionary files 容祖兒 as a person: 她 points at her.
    ("容祖兒 | Joey Yung", "這陣子一直重聽容祖兒的〈我的驕傲〉跟〈揮著翅膀的女孩〉，想看大家最愛她哪首歌", "容祖兒",
     ("驕傲", "翅膀")),
    # A thing of a kind the dictionary files as a person (艾美獎) is none.
    ("艾美獎 | Emmy Awards", "今年追了《混沌少年時》跟《匹茲堡醫護前線》都好喜歡，聽說兩部都在艾美獎拿大獎。想看大家對今年"
     "得獎名單的討論", "艾美獎", ("匹茲堡",)),
    # 這系列 and 這張 point at the last title in marks, as 這部 does.
    ("新世紀福爾摩斯 | Sherlock\nNetflix | 網飛", "國中就愛讀推理小說，後來也追了英劇《新世紀福爾摩斯》。去年在書店看到"
     "《偵探伽利略》，讀完第一本就停不下來，今年 Netflix 還拍成影集。想看大家對這系列的心得", "偵探伽利略", ("Netflix", "福爾摩斯")),
    ("Netflix | 網飛", "她去年出了新專輯《晚安台北》，聽說找了很多樂手合作，網路上 Netflix 也有紀錄片。好奇大家聽完這張的感想",
     "晚安台北", ("Netflix",)),
    # What the question asks people to tell about (聊梅西本人的近況) is the topic; the story's team
    # and the pointer at the boyfriend after it are the setting.
    ("梅西 | Messi\nC羅 | Cristiano Ronaldo\n邁阿密國際 | Inter Miami\n世界盃 | World Cup",
     "我男友是C羅死忠粉，回台灣後被他逼著看了幾場邁阿密國際的比賽，結果我反而變成梅西粉了哈哈。"
     "想看大家聊梅西本人的近況，還有他會不會踢下一屆世界盃；C羅的東西就不用了。", "梅西", ("邁阿密", "C羅")),
    # 那些就不用了 turns away what the clause before it names, whatever emoji ends it.
    ("IG | Instagram", "每年端午都會收到客戶寄來的義美粽子，今年換我負責回禮。想先看看大家對義美的看法，像哪款禮盒比較好。"
     "我同事剛好也叫義美，搜尋一直跑出她的IG，那些就不用了😂", "義美", ("IG",)),
    # What a request asks for is read in its whole phrase, a list a 、 joins included: the last 的 is the list's.
    ("", "有沒有推薦適合寫程式時聽、不會分心的爵士樂？", "爵士樂", ("程式",)),
    # A word the dictionary translates as a common one (保戶) is none of the question's own names.
    ("富邦人壽 | Fubon Life", "我剛出社會，家裡阿姨是保險業務，一直叫我買富邦人壽的醫療險。想先看看真實保戶的經驗：理賠快不快、"
     "業務服務怎樣。富邦銀行的信用卡就不用了。", "富邦人壽", ("保戶",)),
    # 想找 opens the question's sentence without asking to read; the next clause asks about 《聲林之王》.
    ("食尚玩家 | Super Taste", "以前假日都跟家人看《超級星光大道》，後來頂多配飯看《食尚玩家》。最近又想找新的節目來追，想看大家聊"
     "《聲林之王》各季的心得，哪季評審最好笑都可以。", "聲林之王", ("食尚玩家",)),
    # An object of common words only (最近的遊玩) leaves the topic to the story.
    ("寶可夢 | Pokemon\n幻獸帕魯 | Palworld", "以前很愛玩寶可夢，去年朋友拉我入坑幻獸帕魯。想看大家最近的遊玩心得", "幻獸帕魯",
     ("寶可夢",)),
    # The cut reads 急診太累 without 急診: the story names no field, and the question asks about the worker.
    ("", "我是護理系四年級，家人覺得急診太累叫我去診所上班。想聽聽真正在當急診護理師的人怎麼說：班表、薪水、會不會被家屬罵。",
     "急診護理師", ("診所",)),
    # 不是我要的 turns a clause away.
    ("", "最近看了梅根的新節目，也好奇她的品牌果醬。想看大家對梅根本人的評價，《窒友梅根》那部恐怖片也不是我要的",
     "梅根", ("窒友",)),
    # A clause turned away asks nothing, however it is worded (推薦哪家…就不用了); the title after
    # 當 is the role the member asks about.
    ("", "我在高雄上瑜珈課三年，老師常問我要不要去考證照一起帶課。我平常是工程師，想知道兼職當瑜珈教練實際是什麼樣子："
     "證照怎麼考、鐘點費多少。單純推薦哪家瑜珈教室好上課的就不用了。", "瑜珈教練", ("教室",)),
])
def test_the_story_and_the_clauses_turned_away_are_the_setting(lexicon: str, intent: str, topic: str,
                                                                setting: tuple[str, ...]) -> None:
    terms = suggest_terms(intent, AliasLexicon.parse(lexicon))
    assert terms[0] == topic and names_none(terms, *setting)


@pytest.mark.parametrize(("lexicon", "intent", "name"), [
    # 天能 of 一天能去哪 is written across 一天.
    ("天能 | Tenet", "我有台胞證，下個月想從澳門去珠海玩一天，想看看去過的人分享一天能去哪、要帶什麼。", "天能"),
    # 高鐵 is one of the ways there the member weighs (還是), not what they ask about.
    ("高鐵 | THSR", "週末想帶爸媽去台南看古蹟，想看大家推薦台南的老宅民宿，搭高鐵還是火車去比較方便。", "高鐵"),
])
def test_a_name_written_across_a_word_or_offered_as_an_option_is_not_proposed(lexicon: str, intent: str,
                                                                              name: str) -> None:
    assert names_none(suggest_terms(intent, AliasLexicon.parse(lexicon)), name)


@pytest.mark.parametrize(("intent", "names"), [
    # The member gives the name's other name in brackets: both are proposed.
    ("朋友一直推我去吃一蘭（Ichiran），想看大家吃過的評價", ("一蘭", "Ichiran")),
    ("女兒想學游泳，朋友推薦去上鯨魚游泳學校（Whale Swim），想看上過的家長心得", ("鯨魚游泳學校", "Whale Swim")),
])
def test_the_other_name_the_member_gives_in_brackets_is_proposed_too(intent: str, names: tuple[str, ...]) -> None:
    terms = suggest_terms(intent, AliasLexicon.parse(""))
    assert all(any(name in term for term in terms) for name in names)


def test_a_pronoun_in_the_question_points_back_at_a_person_no_lexicon_knows() -> None:
    # 林懷民 is no name the member gave a title to, yet 他 points back at him, not at the book club.
    terms = suggest("我在新竹當工程師，最近在書店翻到林懷民的舊訪談，想在公司讀書會跟同事聊聊他。想看大家怎麼回憶他的舞作和說過的話。")
    assert terms[0] == "林懷民" and names_none(terms, "讀書會")


def test_a_question_word_before_dou_asks_nothing() -> None:
    # 什麼都不准 says "anything": the clause tells of the wife, the next one asks.
    terms = suggest("我在台北上班，老婆很擔心什麼都不准我吃。想看痛風患者可以吃的零食和大家控制尿酸的心得。")
    assert "痛風" in terms[0] and names_none(terms, "老婆")


def test_where_the_member_works_or_studies_is_the_setting() -> None:
    # 台大醫院 is where the member works, a name the lexicon knows; the question asks of bread.
    terms = suggest("我是在台大醫院上班的護理師，最近想學做麵包。想看烘焙課的上課心得跟學費。")
    assert names_none(terms, "台大醫院")
    # A story that tells of someone else is no setting: the show the mother watches is asked about.
    assert suggest("我媽最近迷上韓綜《超人回來了》，想找台灣觀眾的心得。")[0] == "超人回來了"


def test_a_name_the_clause_of_what_is_not_wanted_also_writes_stays_the_topic_where_asked() -> None:
    # 不要真實海盜的歷史考據 turns away history, not the work the question asks about.
    terms = suggest("我在台中開咖啡店，最近想重看《海盜王國》的動畫，想找大家對每一季的評價。不要真實海盜王國的歷史考據。")
    assert terms[0] == "海盜王國"
    # One that names only things turns them away wherever they are named.
    terms = suggest("以前常去涓豆腐跟三媽臭臭鍋，最近想吃韓式料理。想看大家推薦的部隊鍋。不要涓豆腐跟三媽臭臭鍋。")
    assert names_none(terms, "涓豆腐", "三媽臭臭鍋")

