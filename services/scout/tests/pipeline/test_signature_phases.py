"""Each phase of the topic signature on its own: content units, term readings, alternatives and
required concepts; and the verdicts they lead to for the way people write requests."""

import pytest

from scout.pipeline import glosses, romanize, text
from scout.pipeline.aliases import AliasLexicon
from scout.pipeline.gate import OFF_TOPIC, Gate
from scout.pipeline.signature import build_signature, concepts, segment


def units(intent, terms=()):
    return [u for p in segment.Segmenter(terms).pieces(intent) for u in p.units]


def signature(intent, terms):
    sig = build_signature(intent, terms)
    return {g.expression: (g.required, set(g.expressions)) for g in sig.groups}


# ---------------------------------------------------------------- phase 1: content units

@pytest.mark.parametrize("intent, expected", [
    ("想找台北的陶藝課心得", ["台北", "陶藝課"]),
    ("有沒有人在討論最近的颱風假", ["颱風假"]),
    ("請問大家推薦嗎", []),
    ("想追台灣半導體的最新動態", ["台灣", "半導體"]),
    ("最近想入坑魔物獵人荒野", ["魔物獵人", "荒野"]),
    # the dictionary cuts 燒 肉店: a lone character a word of the dictionary with the next one's first
    ("請問新竹有沒有適合一個人吃的燒肉店", ["新竹", "燒肉店"]),
])
def test_framing_and_function_words_never_become_units(intent, expected):
    assert units(intent) == [text.fold(e) for e in expected]


@pytest.mark.parametrize("intent, expected", [
    ("彭啟明", ["彭啟明"]),  # 啟明 is a word of its own; 彭 is the surname before it
    ("想看谷阿莫", ["谷阿莫"]),
])
def test_a_surname_before_a_given_name_the_dictionary_knows_stays_with_it(intent, expected):
    assert units(intent) == [text.fold(e) for e in expected]


def test_a_numeral_after_a_year_begins_the_word_after_it():
    assert units("2026九合一") == ["2026", text.fold("九合一")]


def test_a_latin_word_is_never_cut_at_a_framing_word_inside_it():
    # "to" and "or" are framing words; Toyota and Gogoro are not cut at them
    assert units("想買Toyota跟Gogoro新車", ["RAV4 交車"]) == ["toyota", "gogoro", text.fold("新車")]


def test_a_concept_the_synonym_lexicon_knows_searched_on_its_own_stays_whole():
    # 物理治療師 is not 物理 (physics) and 治療師
    assert units("物理治療師 就業", ["物理治療師", "PT"]) == [text.fold("物理治療師"), text.fold("就業")]


def test_a_character_that_makes_a_name_of_a_number_stays_with_it_and_an_amount_is_no_unit():
    assert units("8強 賽程") == [text.fold("8強"), text.fold("賽程")]
    assert units("2026年 燈會") == ["2026", text.fold("燈會")]
    # a date or an amount is no topic, a year is
    assert units("7月26號 罷免 投票") == [text.fold("罷免"), text.fold("投票")]


def test_loose_characters_beside_a_place_or_a_term_s_word_are_not_glued_to_it():
    assert units("有人抽中台南社會住宅嗎", ["社會住宅"]) == [text.fold("台南"), text.fold("社會住宅")]
    assert units("今年高普考考完了", ["高普考"]) == [text.fold("高普考")]


def test_kana_join_a_name_but_never_a_verb_or_a_number_beside_them():
    assert text.fold("ヨルシカ") in units("去年看過ヨルシカ的演唱會")
    assert units("想看大家聊ちいかわ的周邊") == ["ちいかわ", text.fold("周邊")]
    assert text.fold("一次") + "アニサマ" not in units("前年看過一次アニサマ")
    assert units("藤本タツキ 新作") == [text.fold("藤本タツキ"), text.fold("新作")]


def test_a_title_searched_alone_is_not_cut_at_a_word_the_dictionary_files_as_a_function_word():
    # 正直 is an adverb to the dictionary; 正直不動產 is a drama, not any 不動產
    assert units("正直不動產", ["正直不動產"]) == [text.fold("正直不動產")]
    judge = Gate(build_signature("正直不動產", ["正直不動產"]))
    assert judge.judge("不動產說明書到底要看哪些重點？第一次買房好緊張").reason == OFF_TOPIC


def test_a_name_among_the_terms_is_kept_whole_even_when_made_of_function_characters():
    assert units("想見你 劇情討論", ["想見你"]) == [text.fold("想見你"), text.fold("劇情")]


def test_a_word_filed_as_a_function_word_is_a_topic_when_searched_on_its_own():
    # 乖乖 (a snack brand) and 深夜 are adverb and time words to the dictionary
    groups = signature("乖乖", ["乖乖", "Kuai Kuai"])
    assert list(groups) == [text.fold("乖乖")] and groups[text.fold("乖乖")][0]
    assert {text.fold("乖乖"), "kuai kuai"} <= groups[text.fold("乖乖")][1]
    assert units("宵夜 深夜", ["宵夜", "深夜"]) == [text.fold("宵夜"), text.fold("深夜")]
    # a framing word stays framing, searched alone or not
    assert units("推薦 火鍋", ["推薦", "火鍋"]) == [text.fold("火鍋")]


def test_a_title_after_a_name_is_dropped_but_stays_a_word_on_its_own():
    assert units("江振誠主廚的新書", ["江振誠"]) == [text.fold("江振誠"), text.fold("新書")]
    assert units("館長的直播", ["館長"]) == [text.fold("館長"), text.fold("直播")]


def test_a_long_compound_term_is_cut_into_its_words_and_a_short_name_is_not():
    words, names = segment.brief_words(["台中親子餐廳", "鬼滅之刃"])
    assert {text.fold("台中"), text.fold("親子"), text.fold("餐廳")} <= set(words)
    assert text.fold("鬼滅之刃") in names


def test_a_latin_word_joined_by_a_hyphen_stays_one_unit():
    assert units("K-pop 演唱會", ["K-pop"]) == ["k-pop", text.fold("演唱會")]
    judge = Gate(build_signature("薩爾達 Z-B 好玩嗎", ["薩爾達 Z-B", "Z-B"]))
    assert judge.judge("Z-B 的迷宮設計比前作難很多，卡了兩小時").accepted
    assert judge.judge("我家 B 棟電梯又壞了，Z 字形樓梯爬到腿軟").reason == OFF_TOPIC


def test_a_title_in_title_marks_is_one_name_whatever_words_it_is_made_of():
    # 解憂 and 雜貨店 are both dictionary words; the marks say they are one title
    groups = build_signature("有人讀過《解憂雜貨店》嗎？想看讀後心得", ["解憂雜貨店"]).groups
    title = next(g for g in groups if g.required)
    assert title.expression == text.fold("解憂雜貨店") and title.entity
    assert segment.quoted_titles(["周杰倫〈七里香〉", "《解憂雜貨店》"]) == [text.fold("七里香"), text.fold("解憂雜貨店")]
    # unmarked, the same term is two words
    assert text.fold("解憂雜貨店") not in segment.brief_words(["解憂雜貨店 心得"])[0]


# ---------------------------------------------------------------- phases 2–3: what each term names

def test_a_term_spelling_part_of_an_intent_piece_names_every_concept_it_touches():
    segmenter = segment.Segmenter(["台北馬拉松", "台北馬"])
    pieces = segmenter.pieces("台北馬拉松")
    groups = concepts.intent_groups(pieces, segmenter)
    reading = concepts.read_term(segment.runs("台北馬", segmenter.pieces("台北馬")), groups, pieces)
    assert {g.expression for g in reading.named} == {text.fold("台北"), text.fold("馬拉松")}


def test_a_part_of_a_concept_a_term_writes_joined_to_another_is_the_member_s_word_for_it():
    # 仲介業者 writes 仲介 (of 房屋仲介) beside 業者: the member's own word for the brokerage.
    sig = build_signature("房屋仲介這行好做嗎 聽聽業者怎麼說", ["房屋仲介", "仲介業者"])
    brokerage = next(g for g in sig.groups if g.expression == text.fold("房屋仲介"))
    assert brokerage.required and text.fold("仲介") in brokerage.expressions
    judge = Gate(sig)
    assert judge.judge("做仲介第三年，今年成交量掉了快一半，底薪又低").accepted
    assert judge.judge("房屋稅今年又調了，自住的影響不大").reason == OFF_TOPIC
    # 泳池 beside 寵物 is what that term searches: a pet post without it is not about the pool.
    pools = Gate(build_signature("台南 狗狗 游泳池", ["台南 狗狗游泳", "台南 寵物游泳池"]))
    assert pools.judge("台南寵物美容推薦哪一間？").reason == OFF_TOPIC
    assert pools.judge("台南那間狗狗游泳池水很乾淨，我家柯基玩到不想走").accepted


def test_a_date_written_without_its_leading_zero_names_the_date():
    # 403地震 writes 0403 without its zero: that term searches the date's quake, not any quake.
    sig = build_signature("0403花蓮大地震之後的重建", ["0403地震", "403地震"])
    date = next(g for g in sig.groups if g.expression == "0403")
    assert "403" in date.expressions
    judge = Gate(sig)
    assert judge.judge("403地震之後整棟大樓都在補強，重建要好幾年").accepted
    assert judge.judge("日本能登半島地震一年了，重建也好慢").reason == OFF_TOPIC


def test_a_name_in_the_other_script_names_the_whole_intent_piece_of_what_is_searched_most():
    # TotK stands for 王國之淚, which the other terms search most, and so for the piece it is
    # written in, 薩爾達王國之淚: a post writing TotK alone names the game.
    sig = build_signature("請問薩爾達王國之淚現在還值得買嗎？Switch 2 版畫面有變好嗎",
                          ["薩爾達 王國之淚", "TotK", "王國之淚 Switch 2 畫面"])
    assert all("totk" in g.expressions for g in sig.groups if g.expression in (text.fold("薩爾達"), text.fold("王國之淚")))
    assert Gate(sig).judge("TotK 的究極手玩法真的太自由了，蓋車蓋到停不下來").accepted


def test_a_name_alone_in_the_other_script_is_the_brief_s_only_name_in_that_script():
    # Given a musical searched with its kind, and its Chinese name searched on its own
    sig = build_signature("Wicked 音樂劇 觀後感", ["Wicked 音樂劇", "女巫前傳"])
    # Then the Chinese name is the Latin one, and the name alone is enough, as that search found it
    assert text.fold("女巫前傳") in signature("Wicked 音樂劇 觀後感", ["Wicked 音樂劇", "女巫前傳"])["wicked"][1]
    assert Gate(sig).judge("倫敦看了 Wicked，Defying Gravity 那段全場起立").accepted


# ---------------------------------------------------------------- phases 4–5: alternatives, required

def test_a_name_and_its_nickname_are_one_group_of_alternatives():
    groups = signature("戴資穎 小戴 比賽", ["戴資穎", "小戴"])
    required = [expressions for is_required, expressions in groups.values() if is_required]
    assert len(required) == 1 and {text.fold("戴資穎"), text.fold("小戴")} <= required[0]


def test_chinese_and_english_names_are_one_group():
    groups = signature("蔡依林 新專輯", ["蔡依林", "Jolin"])
    assert any({text.fold("蔡依林"), "jolin"} <= expressions for _, expressions in groups.values())


def test_a_latin_acronym_term_names_the_name_it_abbreviates():
    groups = signature("Red Dead Redemption 2 好玩嗎", ["Red Dead Redemption 2", "RDR2"])
    assert "rdr2" in groups["red dead redemption 2"][1]
    assert Gate(build_signature("Red Dead Redemption 2 好玩嗎", ["Red Dead Redemption 2", "RDR2"])).judge(
        "RDR2 的亞瑟結局我到現在還是會哭").accepted


def test_a_chinese_abbreviation_term_names_the_intent_piece_it_abbreviates():
    sig = build_signature("想知道職能治療師的薪水", ["職能治療師", "職治"])
    assert all(text.fold("職治") in g.expressions for g in sig.required)
    assert Gate(sig).judge("職治的工作量真的很大，一天要看十幾個個案").accepted
    # one character of each word, the first the piece's own: 治師 abbreviates nothing
    assert not concepts._abbreviates(text.fold("治師"), segment.Piece((text.fold("職能"), text.fold("治療師"))))


def test_a_term_that_is_a_concept_s_word_or_its_short_form_names_it_not_the_shorter_words_inside_it():
    # 世界 of 開放世界 is not what the game's name or its short form 碧車世界 searches.
    sig = build_signature("碧姬公主賽車世界好玩嗎？想看開放世界模式的心得", ["碧姬公主賽車世界", "碧車世界", "Kart World"])
    game = next(g for g in sig.groups if g.expression == text.fold("碧姬公主賽車世界"))
    world = next(g for g in sig.groups if g.expression == text.fold("世界"))
    assert game.required and not world.required
    assert {text.fold("碧車世界"), "kart world"} <= set(game.expressions)
    judge = Gate(sig)
    assert judge.judge("碧車世界的自由模式可以開到海邊拍照，好療癒").accepted
    assert judge.judge("世界盃資格賽今晚開打，大家準備熬夜").reason == OFF_TOPIC


def test_a_common_word_searched_alone_with_two_of_a_name_s_characters_is_the_member_s_short_name():
    # 大同 is a common word, but searched on its own beside 大同電鍋 it is the brand's short name;
    # 電影 shares nothing with 鬼滅之刃 and never stands for it.
    judge = Gate(build_signature("大同電鍋", ["大同電鍋", "大同"]))
    assert judge.judge("大同的外鍋加一杯水，蒸地瓜剛剛好").accepted
    film = Gate(build_signature("鬼滅之刃無限城篇", ["鬼滅之刃", "電影"]))
    assert film.judge("這部電影的配樂好好聽，散場還在哼").reason == OFF_TOPIC


def test_an_intent_word_no_term_searches_only_adds_to_the_score():
    groups = signature("戴資穎 比賽與近況", ["戴資穎", "小戴"])
    assert groups[text.fold("比賽")][0] is False


def test_unrelated_names_searched_on_their_own_stay_apart():
    groups = signature("周杰倫 蔡依林 合唱", ["周杰倫", "蔡依林"])
    names = {text.fold("周杰倫"), text.fold("蔡依林")}
    assert all(len(names & expressions) <= 1 for _, expressions in groups.values())
    assert all(groups[name][0] for name in names)


def test_names_each_searched_on_their_own_are_each_enough():
    sig = build_signature("鬼滅之刃 無限城篇", ["鬼滅之刃", "無限城篇", "鬼滅之刃 無限城篇"])
    assert {g.expression for g in sig.sufficient} == {text.fold("鬼滅之刃"), text.fold("無限城篇")}
    judge = Gate(sig)
    assert judge.judge("無限城篇的作畫真的是電影院等級，值得 IMAX").accepted
    assert judge.judge("鬼滅之刃的配樂每一首都好聽，通勤一直聽").accepted
    assert judge.judge("週末去電影院看了一部動畫，作畫很美").reason == OFF_TOPIC


def test_a_name_searched_only_beside_another_concept_is_not_enough_alone():
    sig = build_signature("周杰倫 演唱會", ["周杰倫 演唱會", "周董 演唱會"])
    assert not sig.sufficient


def test_a_word_of_location_is_not_a_name_and_never_enough_alone():
    # 室內 is filed as a word of location (jieba's s), like 戶外 or 附近: a common word, not a
    # named place, so searching it with another common word does not make it enough beside 新竹.
    sig = build_signature("新竹週末下雨可以帶小孩去哪裡玩 室內的", ["新竹 親子 室內", "新竹 雨天 室內"])
    indoor = next(g for g in sig.groups if g.expression == text.fold("室內"))
    assert not indoor.entity and not indoor.sufficient and indoor.required
    judge = Gate(sig)
    assert judge.judge("這家健身房的室內泳池很大，下班去游剛好").reason == OFF_TOPIC
    assert judge.judge("新竹下雨天帶小孩去科學園區的探索館，室內很涼").accepted


def test_a_place_and_another_concept_two_terms_pair_with_the_same_word_are_not_alternatives():
    # 台北 家教 / 國中理化 家教: the member wants both the city and the subject, not either of them.
    sig = build_signature("想找台北的國中理化家教", ["台北 家教", "國中理化 家教"])
    taipei = next(g for g in sig.groups if g.expression == text.fold("台北"))
    assert text.fold("國中理化") not in taipei.expressions
    judge = Gate(sig)
    assert not judge.judge("台中國中理化家教推薦，北屯區的老師").accepted
    assert judge.judge("台北的國中理化家教推薦，大安區的老師很有耐心").accepted


def test_terms_pairing_parts_of_a_request_are_alternatives_each_met_whole():
    sig = build_signature("台南 眼科 近視", ["台南 眼科", "近視 眼科", "台南 近視"])
    assert not any(g.required for g in sig.groups)
    judge = Gate(sig)
    assert judge.judge("在台南看近視看了半年，終於找到會仔細解釋的醫生").accepted
    assert judge.judge("台南今天好熱，出門五分鐘就滿身汗").reason == OFF_TOPIC
    assert judge.judge("近視雷射前要先去眼科做完整檢查，我在新竹做的").reason == OFF_TOPIC


def test_a_post_names_what_one_term_searches_whole():
    # 鋼琴課 is in both terms and so the only required group, but each term is one search: a post
    # found by one of them names 高雄 or 成人 beside it
    sig = build_signature("高雄 成人 鋼琴課", ["高雄 鋼琴課", "成人 鋼琴"])
    index = {g.expression: i for i, g in enumerate(sig.groups)}
    assert set(sig.terms) == {(index[text.fold("高雄")], index[text.fold("鋼琴課")]),
                              (index[text.fold("成人")], index[text.fold("鋼琴課")])}
    judge = Gate(sig)
    assert judge.judge("鋼琴比賽的指定曲好難，練到手抽筋").reason == OFF_TOPIC
    assert judge.judge("高雄這間鋼琴教室的老師很有耐心").accepted
    assert judge.judge("三十歲才開始學鋼琴，成人真的來得及嗎").accepted


def test_a_term_s_generic_head_is_no_part_of_what_a_post_must_name():
    # 翻譯 after 日文 only qualifies it: an interpreter's post names what the terms search
    sig = build_signature("日文翻譯 兼職接案", ["日文翻譯 兼職", "日文翻譯 接案"])
    assert all(not sig.groups[i].qualifier for term in sig.terms for i in term)
    assert Gate(sig).judge("日文口譯的兼職，週末兩天展場").accepted


def test_alternatives_one_of_which_is_a_very_common_word_only_say_what_of_the_topic_is_asked():
    # 工作 beside 待遇 and 出路: a post about working as a pharmacist names the topic.
    sig = build_signature("藥師 畢業後 出路 待遇", ["藥師 工作", "藥師 待遇", "藥師 出路"])
    assert Gate(sig).judge("在社區藥局當藥師第三年，每天都在跟健保申報奮戰").accepted


def test_a_year_only_qualifies_the_event():
    groups = signature("2026 經典賽", ["2026 經典賽", "經典賽"])
    assert groups["2026"][0] is False and groups[text.fold("經典賽")][0] is True



def test_a_year_is_never_a_name_searched_on_its_own_and_dates_the_term_s_own_word():
    # 2026地方選舉 dates 地方選舉, another word for 九合一: a post with only the year is not the election
    judge = Gate(build_signature("2026九合一", ["九合一", "2026地方選舉"]))
    assert judge.judge("2026年我要去日本玩五天").reason == OFF_TOPIC
    assert judge.judge("這次地方選舉的民調一直在變，大家怎麼看").accepted

# ---------------------------------------------------------------- phase 6 and the lexicons

NAMES = AliasLexicon.parse("""
泰勒絲 | Taylor Swift | 霉霉
開拓動漫祭 | Fancy Frontier | FF
Final Fantasy | FF | 太空戰士
""")
WORDS = AliasLexicon.parse("""
徵才 | 職缺 | 招募 | hiring
半導體 | semiconductor
半導體 > 聯電 | 美光
""")


def known(intent, terms):
    sig = build_signature(intent, terms, names=NAMES, words=WORDS)
    return {g.expression: (g.required, set(g.expressions)) for g in sig.groups}


def test_the_lexicon_parses_other_names_and_one_way_kinds():
    fold = text.fold
    assert WORDS.same(fold("徵才"), fold("招募")) and not WORDS.same(fold("徵才"), fold("半導體"))
    assert WORDS.kinds(text.fold("半導體")) == ("聯電", "美光")
    assert WORDS.kinds(text.fold("聯電")) == ()


def test_a_term_the_lexicon_knows_as_another_name_names_that_concept_in_any_script():
    groups = known("想看霉霉的新歌", ["霉霉", "Taylor Swift"])
    required = [expressions for is_required, expressions in groups.values() if is_required]
    assert len(required) == 1 and {"霉霉", "taylor swift", text.fold("泰勒絲")} <= required[0]


def test_two_intent_concepts_the_lexicon_knows_as_one_are_one_group():
    groups = known("霉霉 泰勒絲", ["霉霉 泰勒絲"])
    assert len(groups) == 1


def test_a_concept_is_met_by_its_other_words_and_its_kinds_but_a_kind_not_by_the_concept():
    industry = known("半導體 徵才", ["半導體 徵才", "半導體 職缺"])
    assert {text.fold(w) for w in ("聯電", "美光", "semiconductor")} <= industry[text.fold("半導體")][1]
    assert {text.fold(w) for w in ("職缺", "招募", "hiring")} <= industry[text.fold("徵才")][1]
    company = known("聯電 徵才", ["聯電 徵才"])
    assert text.fold("半導體") not in company[text.fold("聯電")][1]


@pytest.mark.parametrize("intent, terms, on_topic, off_topic", [
    # 來台 is 來台灣 in a post, which no cut of the post finds as 來台
    ("黃仁勳 來台", ["黃仁勳 來台"], ["黃仁勳這次來台灣又去夜市吃了一輪"], "黃仁勳在美國的演講又提到台灣供應鏈"),
    ("台南 廟宇 散步", ["台南 廟宇", "台南 寺廟"], ["台南孔廟早上去人少，逛完再去吃早餐", "祀典武廟的紅牆超好拍，台南必去"],
     "台南的老街早上散步很舒服"),
    ("合歡山 觀星", ["合歡山 觀星", "合歡山 銀河"], ["合歡山晚上好冷，拍星軌拍到手凍僵", "上合歡山看星星前記得帶羽絨衣"],
     "合歡山的雪景今年來得好早"),
    # English names of concepts CC-CEDICT does not translate
    ("寵物殯葬", ["寵物殯葬", "寵物火化"], ["Pet cremation here costs way less than I expected, the staff were kind"],
     "Pet grooming prices went up again this year"),
    ("台北 獨立書店", ["台北 獨立書店", "獨立書店"], ["Found a tiny indie bookstore in Taipei full of zines"],
     "Taipei's new MRT line opens next year"),
    ("純網銀", ["純網銀", "將來銀行"], ["Digital-only banks here are fine for daily use but the limits are annoying"],
     "Banks raised mortgage rates again this quarter"),
])
def test_a_concept_is_met_by_the_words_and_kinds_people_write_it_with(intent, terms, on_topic, off_topic):
    judge = Gate(build_signature(intent, terms))
    for post in on_topic:
        assert judge.judge(post).accepted, post
    assert judge.judge(off_topic).reason == OFF_TOPIC


def test_food_near_a_place_is_met_by_the_dishes_people_name_instead():
    judge = Gate(build_signature("信義區 美食 推薦", ["信義區 美食", "信義區 餐廳"]))
    assert judge.judge("信義區巷子裡那間牛肉麵湯頭超濃，下班去吃剛好").accepted
    assert judge.judge("信義區的公園晚上散步很舒服").reason == OFF_TOPIC


def test_a_concept_cut_in_several_groups_is_met_by_its_other_words_and_kinds_whole():
    # 寵物友善 is cut into 寵物 and 友善; a post saying 可以帶狗 instead says both
    judge = Gate(build_signature("新竹 寵物友善 咖啡廳", ["新竹 咖啡廳", "新竹 寵物友善"]))
    assert judge.judge("新竹這間可以帶狗，老闆還準備了水碗").accepted
    assert judge.judge("新竹今天好冷，想找個地方坐").reason == OFF_TOPIC

def test_a_concept_cut_in_several_groups_is_met_by_its_short_name():
    # 太陽能光電 is cut into 太陽能 and 光電; people write the industry as 太陽能 alone.
    judge = Gate(build_signature("太陽能光電 產業", ["太陽能 光電", "光電業"]))
    assert judge.judge("屋頂型太陽能現在回收年限大概七八年，業者都在重算").accepted
    assert judge.judge("這支手機的相機感光元件好強").reason == OFF_TOPIC


def test_two_latin_letters_take_no_other_names_from_the_lexicon():
    groups = known("開拓動漫祭", ["開拓動漫祭", "FF"])
    expressions = groups[text.fold("開拓動漫祭")][1]
    assert "fancy frontier" in expressions and "ff" in expressions
    assert not {"final fantasy", text.fold("太空戰士")} & expressions


def test_latin_names_with_a_slash_between_them_are_alternatives():
    groups = known("UI/UX 設計師", ["UI/UX 設計師"])
    assert any({"ui", "ux"} <= expressions for _, expressions in groups.values())


def test_a_latin_term_of_known_words_names_each_concept():
    groups = known("半導體 徵才", ["半導體 徵才", "semiconductor hiring"])
    assert "semiconductor hiring" in groups[text.fold("半導體")][1] & groups[text.fold("徵才")][1]


def test_a_post_naming_a_kind_in_other_words_is_judged_on_its_topic():
    judge = Gate(build_signature("半導體產業 徵才", ["半導體 徵才", "半導體 職缺"], names=NAMES, words=WORDS))
    assert judge.judge("聯電今年大舉招募，應屆生也有機會，起薪不錯").accepted
    assert judge.judge("美光在台中 hiring 中，製程工程師缺很多人").accepted
    assert judge.judge("聯電今天股價大漲，外資連續買超三天").reason == OFF_TOPIC


def test_a_short_name_is_met_by_the_parts_of_the_name_it_stands_for():
    # the parts lexicon files the characters under 鬼滅之刃, the alias lexicon's name of 鬼滅
    judge = Gate(build_signature("鬼滅 無限城", ["鬼滅", "無限城篇"]))
    assert judge.judge("炭治郎跟義勇聯手那段，整廳都屏息").accepted


def test_a_common_concept_is_met_by_its_english_senses_and_a_name_keeps_its_own():
    groups = signature("花蓮 包車", ["花蓮 包車", "花蓮 司機"])
    assert "driver" in groups[text.fold("包車")][1]
    # a name takes English names from the alias lexicon only: none of the dictionary's explanations
    place = signature("日月潭 單車", ["日月潭 單車"])[text.fold("日月潭")][1]
    assert not any("nantou" in expression for expression in place)
    judge = Gate(build_signature("台中 煙火", ["台中 煙火"]))
    assert judge.judge("The fireworks over 台中 tonight were the best I have seen in years").accepted
    assert judge.judge("The concert in 台中 tonight was the best I have seen in years").reason == OFF_TOPIC
    # a word the segmenter does not know is a concept when the dictionary translates it as one
    judge = Gate(build_signature("墾丁 浮潛", ["墾丁 浮潛"]))
    assert judge.judge("First time snorkeling in 墾丁, saw clownfish and a turtle").accepted


def test_the_dictionary_keeps_plain_senses_only():
    senses = glosses.english(text.fold("課"))
    assert {"class", "lesson"} <= set(senses)
    assert not any(marker in sense for sense in senses for marker in ("cl:", "(", "variant"))
    assert glosses.english("taipei") == ()
    # no sense narrowed by an aside ("(outer part of) tire"), no article before a noun
    assert "take-out" in glosses.english(text.fold("外帶")) and "tire" not in glosses.english(text.fold("外帶"))
    assert "adult" in glosses.english(text.fold("成人"))
    # a word with a line as a proper noun is no common word, whatever its other lines say
    assert glosses.common_word(text.fold("浮潛")) and not glosses.common_word(text.fold("台北"))


def test_a_term_meeting_a_concept_by_a_part_of_it_names_a_thing_written_whole():
    # 城鎮韌性演習 meets 漢光演習 only by 演習; the member searched it whole
    judge = Gate(build_signature("漢光演習", ["漢光演習", "城鎮韌性演習"]))
    assert judge.judge("今天下午城鎮韌性演習，警報一響全街的人都躲進騎樓").accepted
    assert judge.judge("消防演習今天在學校舉行，小朋友都排隊走到操場").reason == OFF_TOPIC
    # a title after a colon, as posts write it too
    judge = Gate(build_signature("F1電影", ["F1電影", "F1：狂速飆風"]))
    assert judge.judge("昨天看了F1：狂速飆風，賽車鏡頭拍得好真實").accepted
    assert judge.judge("昨天看了 F1 新加坡站，維斯塔潘又贏了").reason == OFF_TOPIC


def test_a_stretch_meeting_a_concept_by_its_head_beside_a_word_of_its_own_is_another_kind_of_it():
    # 藍牙耳機 meets 降噪耳機 only by 耳機, beside 藍牙: the member's other kind of earphones
    sig = build_signature("通勤 降噪耳機 心得", ["通勤 降噪耳機", "通勤 藍牙耳機"])
    assert text.fold("藍牙耳機") in next(g for g in sig.groups if g.expression == text.fold("降噪耳機")).expressions
    judge = Gate(sig)
    assert judge.judge("通勤戴藍牙耳機聽 podcast，捷運上也聽得清楚").accepted
    assert judge.judge("藍牙喇叭放在浴室邊洗澡邊聽歌").reason == OFF_TOPIC


def test_a_word_beside_a_named_concept_is_not_another_name_of_a_known_thing():
    # Netflix's names are known: 韓劇 and 宋慧喬 only refine the work the terms all name
    sig = build_signature("Netflix 的《黑暗榮耀》", ["黑暗榮耀 Netflix", "黑暗榮耀 韓劇", "宋慧喬 黑暗榮耀"])
    netflix = next(g for g in sig.groups if g.expression == "netflix")
    assert not netflix.required and text.fold("韓劇") not in netflix.expressions
    assert Gate(sig).judge("黑暗榮耀第二部的復仇戲看得好爽，演員都好敢演").accepted


def test_a_name_the_alias_lexicon_knows_is_not_cut_into_its_words():
    # 最後生還者 is 最後 + 生還者 to the dictionary, and The Last of Us to the alias lexicon
    sig = build_signature("最後生還者", ["最後生還者", "The Last of Us"])
    assert [g.expression for g in sig.groups if g.required] == [text.fold("最後生還者")]
    judge = Gate(sig)
    assert judge.judge("最後生還者第二季的配樂一下，雞皮疙瘩都起來了").accepted
    assert judge.judge("大逃殺玩到剩我一個生還者，結果被毒圈毒死").reason == OFF_TOPIC


def test_a_name_cut_into_several_concepts_is_also_written_by_its_other_names():
    # 台北國際電玩展 is cut into 台北, 國際 and 電玩展; the lexicon knows it whole as Taipei Game Show
    sig = build_signature("台北國際電玩展", ["台北電玩展", "電玩展"])
    assert len(sig.groups) > 1
    judge = Gate(sig)
    assert judge.judge("Taipei Game Show this year felt smaller but the indie section was great").accepted
    assert judge.judge("Tokyo Game Show this year felt smaller but the indie section was great").reason == OFF_TOPIC


def test_a_concept_is_translated_but_not_its_kinds():
    # 外場 is a kind of 餐飲業 and, in the dictionary, also the outfield of a ball game
    industry = signature("餐飲業 缺工", ["餐飲業 缺工"])[text.fold("餐飲業")][1]
    assert "catering" in industry and text.fold("外場") in industry
    assert "outfield" not in industry


def test_a_lesson_or_shop_of_a_thing_is_written_as_the_thing_too():
    judge = Gate(build_signature("台北 鋼琴課", ["台北 鋼琴課"]))
    assert judge.judge("在台北找了一對一的鋼琴老師，從五線譜教起").accepted
    assert judge.judge("台北的吉他課推薦").reason == OFF_TOPIC
    # Also a thing the tokenizer's dictionary lacks but the English one translates (浮潛: snorkeling).
    shop = Gate(build_signature("墾丁 浮潛店", ["墾丁 浮潛店"]))
    assert shop.judge("墾丁浮潛推薦這家，教練很有耐心").accepted


def test_a_character_of_a_work_stands_for_the_work():
    judge = Gate(build_signature("鬼滅之刃", ["鬼滅之刃"]))
    assert judge.judge("炭治郎跟禰豆子那段我看三次哭三次").accepted
    # one way only: the work does not stand for its characters
    judge = Gate(build_signature("炭治郎", ["炭治郎"]))
    assert judge.judge("鬼滅之刃的配樂每一首都好聽").reason == OFF_TOPIC


def test_a_character_of_a_work_is_written_by_the_given_name_alone():
    # 吳愛純 is a character of 苦盡柑來遇見你 in the lexicon; fans write 愛純
    judge = Gate(build_signature("苦盡柑來遇見你", ["苦盡柑來遇見你", "苦盡柑來"]))
    assert judge.judge("愛純寫詩那一段我真的哭爆").accepted


def test_a_person_is_written_by_the_surname_and_an_office_but_not_a_title_many_hold():
    judge = Gate(build_signature("想看大家怎麼評價侯友宜的施政", ["侯友宜"]))
    assert judge.judge("侯市長任內新北的違停取締變超兇，騎車要小心").accepted
    assert judge.judge("侯老師的數學課好難，作業寫到半夜").reason == OFF_TOPIC
    # 董, short for 董事長 (郭董, 張董)
    chairman = Gate(build_signature("想看大家怎麼評價張忠謀", ["張忠謀"]))
    assert chairman.judge("張董那本自傳下冊我看完了，寫台積電創立那段最精彩").accepted
    # a common word that starts with a surname (馬拉松: marathon) is no one's name
    race = signature("台北馬拉松", ["台北馬拉松", "北馬"])[text.fold("馬拉松")][1]
    assert not {text.fold("拉松"), text.fold("馬市長")} & race
    # nor is a thing of a kind (an award, a lesson)
    award = signature("金馬獎 頒獎典禮", ["金馬獎"])[text.fold("金馬獎")][1]
    assert not {text.fold("馬獎"), text.fold("金市長")} & award


def test_a_compound_that_begins_with_a_name_is_written_with_the_name_s_other_names():
    # 怪物獵人 is the lexicon's other name of 魔物獵人
    judge = Gate(build_signature("魔物獵人荒野", ["魔物獵人荒野"]))
    assert judge.judge("玩了三十小時怪物獵人荒野，武器平衡做得不錯").accepted


def test_a_member_of_a_group_is_written_by_the_member_s_own_other_names():
    # 陳信宏 is a member of 五月天, and 阿信 is his other name
    judge = Gate(build_signature("五月天 演唱會", ["五月天", "Mayday"]))
    assert judge.judge("阿信今天在演唱會上又講了好長一段話，全場都在哭").accepted


def test_a_shorter_spelling_that_drops_a_word_names_something_broader():
    # 拉麵 leaves 素食 out of 素食拉麵: any ramen is not vegetarian ramen
    assert text.fold("拉麵") not in signature("素食拉麵", ["素食拉麵", "拉麵"])[text.fold("素食拉麵")][1]
    # a name's own short form is the name
    assert text.fold("大谷") in signature("大谷翔平", ["大谷翔平", "大谷"])[text.fold("大谷翔平")][1]
    assert text.fold("漢光") in signature("漢光演習", ["漢光演習", "漢光"])[text.fold("漢光演習")][1]
    # the end of a name the member searched on its own is the member's short name for it
    judge = Gate(build_signature("想看大家聊山本澪香的新書", ["山本澪香", "澪香"]))
    assert judge.judge("澪香的新書我一天就看完了，後記好感人").accepted


def test_a_name_s_beginning_no_dictionary_knows_before_its_head_is_its_short_name():
    # Given a festival whose name is a town no dictionary knows before 音樂節
    judge = Gate(build_signature("想看大家去薩爾茲堡音樂節的心得", ["薩爾茲堡音樂節", "Salzburg Festival"]))
    # Then posts that write the town alone, as people do, name it
    assert judge.judge("薩爾茲堡今年的歌劇票好難買，但卡司值得").accepted
    # while a beginning of common words (大塊 of 大塊文化) or a longer word's start (龍捲 of 龍捲風暴) is no short name
    assert text.fold("大塊") not in signature("大塊文化 新書", ["大塊文化"])[text.fold("大塊文化")][1]
    assert text.fold("龍捲") not in signature("龍捲風暴 電影", ["龍捲風暴"])[text.fold("龍捲風暴")][1]


def test_a_latin_name_after_the_is_written_without_it_unless_one_english_word_is_left():
    assert "witcher" in signature("The Witcher 第四季", ["The Witcher"])["the witcher"][1]
    assert "boys" not in signature("The Boys 第五季", ["The Boys"])["the boys"][1]


def test_a_place_inside_a_city_stands_for_the_city():
    judge = Gate(build_signature("宜蘭 溫泉", ["宜蘭 溫泉"]))
    assert judge.judge("礁溪這間溫泉旅館的湯池好大，泡完好放鬆").accepted
    # one way only: the city does not stand for the places inside it
    judge = Gate(build_signature("礁溪 溫泉", ["礁溪 溫泉"]))
    assert judge.judge("宜蘭市區的溫泉旅館也不錯").reason == OFF_TOPIC


def test_a_district_name_two_cities_share_stands_for_the_city_it_nearly_always_means():
    # Taichung has a 大安區 too, but a post naming 大安區 is about Taipei's
    judge = Gate(build_signature("台北 咖啡廳", ["台北 咖啡廳", "台北 咖啡店"]))
    assert judge.judge("大安區這間咖啡廳不限時，插座也多").accepted


# ---------------------------------------------------------------- verdicts

def gate(intent, terms):
    return Gate(build_signature(intent, terms))


def test_a_natural_request_admits_posts_that_name_only_the_topic():
    judge = gate("想找台北的陶藝課心得", ["台北 陶藝課", "台北 陶藝"])
    assert judge.judge("週末在台北上了一堂陶藝課，捏了一個歪歪的杯子").accepted
    assert judge.judge("台中的陶藝課也很好玩，老師超有耐心").reason == OFF_TOPIC


def test_a_person_is_written_by_the_given_name_alone():
    judge = gate("周興哲", ["周興哲", "Eric Chou"])
    assert judge.judge("興哲昨晚在小巨蛋唱到破音還是好感動").accepted
    assert judge.judge("我表弟也叫興哲，今天他畢業典禮").reason == OFF_TOPIC
    # a given name that is a word of its own is that word, and a place is no one's name
    assert text.fold("英文") not in signature("蔡英文 卸任後", ["蔡英文 卸任", "蔡英文 近況"])[text.fold("蔡英文")][1]
    assert not any(len(e) == 2 for e in signature("林口區", ["林口區"])[text.fold("林口區")][1])



def test_a_person_is_written_by_the_english_given_name_alone_unless_it_is_an_english_word():
    judge = gate("周興哲", ["周興哲", "Eric Chou"])
    assert judge.judge("Eric played a new song on the piano tonight, so talented").accepted
    # Tai of Tai Tzu-ying is the surname, written first: no given name of its own
    assert "tai" not in signature("戴資穎", ["戴資穎", "Tai Tzu-ying"])[text.fold("戴資穎")][1]
    singer = gate("盧廣仲", ["盧廣仲", "Crowd Lu"])
    assert singer.judge("Crowd funding 募資平台今天上線，請多支持").reason == OFF_TOPIC

def test_a_foreign_name_written_by_its_sound_is_the_latin_name_and_its_surname():
    # 哈拉瑞 writes Harari by its sound: the term Yuval Harari names him, not the book beside him,
    # and English posts write the surname alone.
    judge = gate("有人讀完哈拉瑞的新書《連結》嗎？想知道值不值得看", ["哈拉瑞 連結", "Nexus 哈拉瑞", "Yuval Harari"])
    assert judge.judge("Yuval Harari's new book is a warning about AI").accepted
    assert judge.judge("Nexus by Harari: the part on information networks is brilliant").accepted
    assert judge.judge("Nexus mod manager keeps crashing on my PC").reason == OFF_TOPIC


@pytest.mark.parametrize("name, latin, sounds_alike", [
    ("哈拉瑞", "Harari", True), ("赫拉利", "Harari", True), ("拜登", "Biden", True), ("貝佐斯", "Bezos", True),
    ("台北", "Taipei", False),  # two consonants are too few to tell
    ("連結", "Nexus", False), ("星巴克", "Starbucks", False),
])
def test_a_name_written_by_its_sound_has_the_latin_words_consonants(name, latin, sounds_alike):
    assert romanize.transliterates(text.fold(name), latin) is sounds_alike


def test_a_nickname_alone_is_enough():
    judge = gate("戴資穎最近的比賽", ["戴資穎", "小戴"])
    assert judge.judge("小戴今天這場反手拍太神了").accepted


def test_both_concepts_of_a_multi_concept_request_still_hold():
    judge = gate("想了解外包後端工程師的真實心得", ["外包 後端工程師", "後端 接案"])
    assert judge.judge("外包的後端案子報價怎麼抓").accepted
    assert judge.judge("工程師求職心得：面了十間公司").reason == OFF_TOPIC
    assert judge.judge("前端外包行情下降").reason == OFF_TOPIC


def test_simplified_and_traditional_posts_get_the_same_verdict():
    judge = gate("鬼滅之刃 無限城篇", ["鬼滅之刃", "無限城篇"])
    traditional = judge.judge("鬼滅之刃無限城篇的電影特效好華麗")
    simplified = judge.judge("鬼灭之刃无限城篇的电影特效好华丽")
    assert traditional.accepted and simplified.accepted
    assert traditional.relevance == simplified.relevance
    # and a post writing the mainland word OpenCC does not map meets the Taiwan word of the brief
    solar = gate("太陽能光電 產業", ["太陽能光電", "光電業"])
    assert solar.judge("台湾的光伏产业规模跟大陆比小很多，组件很多还是靠进口").accepted


def test_a_name_in_the_other_script_stands_for_what_a_term_writes_in_one_run():
    # Given an intent that cuts a name in pieces, a term writing it in one run, and its Latin name
    brief = ("想看大家對詹姆斯-韋伯太空望遠鏡新照片的討論", ["詹姆斯韋伯太空望遠鏡", "JWST"])
    # Then the Latin name meets every concept of that run
    assert all(text.fold("JWST") in expressions for _, expressions in signature(*brief).values())
    assert Gate(build_signature(*brief)).judge("JWST just released a new image of the Pillars of Creation").accepted
    # but beside terms that search two things apart, it stands for the brief's only name in its
    # other script, not for the other thing too
    apart = signature("想看夏嘉璐 新書的心得", ["夏嘉璐 新書", "Clara Hsia"])
    assert "clara hsia" in apart[text.fold("夏嘉璐")][1] and "clara hsia" not in apart[text.fold("新書")][1]


def test_a_place_a_name_begins_with_is_not_its_short_form():
    # Given a festival named after its place, and a term pairing the place with another word
    judge = Gate(build_signature("澎湖花火節", ["澎湖花火節", "澎湖 煙火"]))
    # Then the place alone does not name the festival
    assert judge.judge("澎湖的海鮮好便宜，丁香魚必買").reason == OFF_TOPIC
    assert judge.judge("澎湖花火節今年的無人機秀好美").accepted


def test_a_district_s_bare_name_beside_other_places_is_one_of_the_places_searched():
    # Given districts written together, one of them a bare name the place lexicon only lists with
    # its suffix (八德 of 八德區), each searched in a term of its own
    judge = Gate(build_signature("想在桃園買第一間房，中壢八德平鎮哪裡比較好？",
                                 ["桃園 首購", "中壢 買房", "八德 買房", "平鎮 房價"]))
    # Then it is one place among the others, not a concept every post must name
    assert judge.judge("中壢買房要注意學區，房價這兩年漲很多").accepted
    assert judge.judge("八德買房心得：離桃園市區近，重劃區新成屋很多").accepted
