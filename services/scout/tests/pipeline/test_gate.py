"""The relevance gate of flow C: anchors, entities and aliases, concept groups, noise, score."""

from datetime import UTC, datetime, timedelta

import pytest

from scout.pipeline.gate import (
    NOISE_AD, NOISE_EMPTY, NOISE_HASHTAGS, NOISE_NAVIGATION, OFF_TOPIC, Gate, noise_reason, recency_factor, score)
from scout.pipeline.signature import NoTopicEvidence, build_signature


def gate(intent, terms):
    return Gate(build_signature(intent, terms))


def test_colloquial_anchor_is_never_topic_evidence():
    # Given 「鬼滅之刃」 with terms that carry 推薦 / 心得
    judge = gate("鬼滅之刃", ["鬼滅之刃 推薦", "鬼滅 心得", "動畫 推薦"])
    # Then a post that only shares the anchor (動畫推薦) is out, the title or its alias is in
    assert judge.judge("最近的動畫推薦：葬送的芙莉蓮、藥師少女的獨語都很好看").reason == OFF_TOPIC
    assert judge.judge("大家有什麼心得分享嗎？最新熱門推薦都可以").reason == OFF_TOPIC
    assert judge.judge("鬼滅之刃無限城篇電影終於上映，特效好華麗").accepted
    assert judge.judge("鬼滅的周邊在超商集點送，杯子好可愛").accepted


def test_brief_of_anchors_only_has_no_topic():
    with pytest.raises(NoTopicEvidence):
        build_signature("推薦 心得 分享", ["最新 熱門", "請問"])


def test_every_concept_group_must_be_hit():
    # Given 「外包後端工程師」
    judge = gate("外包後端工程師", ["外包 後端工程師", "後端 接案"])
    # Then a general engineer job post is out, and so is one that keeps only one concept
    assert judge.judge("工程師求職心得：面了十間公司終於上岸").reason == OFF_TOPIC
    assert judge.judge("前端外包的行情最近下降很多").reason == OFF_TOPIC
    assert judge.judge("後端的面試題目整理：資料庫索引、快取").reason == OFF_TOPIC
    verdict = judge.judge("徵外包後端工程師，Node.js，遠端可，案子約三個月")
    assert verdict.accepted and "外包" in verdict.reason and "後端" in verdict.reason
    # an approved term's word stands for the concept it replaces (接案 for 外包)
    assert judge.judge("後端接案的報價怎麼抓，我都用人天計算").accepted


def test_required_entity_with_approved_alias():
    judge = gate("周杰倫演唱會", ["周杰倫 演唱會", "周董 巡迴演唱會 門票"])
    assert judge.judge("周董演唱會結束後在IG發文感謝歌迷").accepted
    assert judge.judge("五月天演唱會的門票今天開賣，大家準備好了嗎").reason == OFF_TOPIC
    assert judge.judge("周杰倫新專輯終於要發了，主打歌的MV在台南拍的").reason == OFF_TOPIC


def test_short_word_inside_another_word_is_no_hit():
    judge = gate("全聯", ["全聯"])
    assert judge.judge("完全聯繫不上客服，只好親自跑一趟").reason == OFF_TOPIC
    assert judge.judge("全聯今天的特價鮮奶買二送一，下班去搶").accepted


def test_latin_words_and_numbers_stand_alone():
    judge = gate("iPhone 17", ["iPhone 17"])
    assert judge.judge("ＩＰＨＯＮＥ　１７的螢幕終於全系列都有高刷新率了").accepted  # full width folded
    assert judge.judge("iPhone 170 是什麼型號，看起來像假消息喔").reason == OFF_TOPIC
    assert judge.judge("iPhone 16 Pro用了一年，電池健康度剩92%").reason == OFF_TOPIC


def test_a_space_after_a_dot_in_a_latin_name_is_optional():
    judge = gate("St.Ives 磨砂膏 心得", ["St.Ives", "St.Ives 磨砂膏"])
    assert judge.judge("St. Ives apricot scrub is too harsh for my skin").accepted
    assert judge.judge("St.Ives 的杏桃磨砂膏用了一個月").accepted


def test_a_name_of_three_characters_or_more_may_be_written_with_spaces_between_them():
    judge = gate("想看大家對謝金燕新歌的評價", ["謝金燕"])
    assert judge.judge("謝 金 燕 的新歌 MV 一出來我就重播十遍").accepted
    # a phrase's break between two characters of a shorter name is no name
    assert not gate("想看大家聊一休的減醣", ["一休 減醣"]).judge("星期一 休假 在家減醣").accepted


def test_a_name_and_its_other_name_the_member_gives_in_brackets_are_one_concept():
    judge = gate("想看大家用得利塗料（Dulux）刷牆的心得", ["得利塗料 Dulux"])
    assert judge.judge("得利塗料刷兩道就蓋過舊牆色了").accepted


def test_a_latin_word_matches_its_plural_and_nothing_longer():
    judge = gate("foldable phone", ["foldable"])
    assert judge.judge("Foldables finally feel mainstream, my mom just bought one").accepted
    assert judge.judge("The foldable I bought last year still works").accepted
    assert judge.judge("Unfoldable chairs are sturdier, foldability is overrated").reason == OFF_TOPIC


def test_a_longer_latin_word_matches_its_ed_and_ing_forms():
    judge = gate("露營", ["露營", "camp"])
    assert judge.judge("We camped by the river in Hsinchu, the stars were unreal").accepted
    assert judge.judge("Camping in the rain with two kids: never again, but we laughed a lot").accepted
    assert judge.judge("Campus life in Hsinchu is quieter than I expected").reason == OFF_TOPIC


def test_traditional_and_simplified_variants_match():
    judge = gate("臺北國際書展", ["台北國際書展"])
    assert judge.judge("台北国际书展今年主题国是泰国，展区好有特色").accepted
    # mainland words read as Taiwan's: 鼠标 is 滑鼠, 数据库 is 資料庫
    judge = gate("無線滑鼠 資料庫", ["無線滑鼠 資料庫"])
    assert judge.judge("写数据库课程作业的时候，无线鼠标又没电了").accepted


def test_a_name_that_begins_with_a_place_is_also_written_without_it():
    judge = gate("想看大家去京都祇園祭的心得", ["京都祇園祭"])
    assert judge.judge("祇園祭的山鉾巡行今年人超多，熱到快中暑").accepted
    # Not a number left alone (101 of 台北101).
    judge = gate("想看台北101跨年的心得", ["台北101 跨年"])
    assert not judge.judge("101 忠犬跨年派對好好玩").accepted


def test_japanese_forms_of_characters_match_the_chinese_ones():
    judge = gate("想看大家聊澤村拓一", ["澤村拓一"])
    assert judge.judge("沢村拓一今天在東京巨蛋又登板了，球速還是很快").accepted
    # 芸 is also a Chinese word of its own (rue), so it is not read as 藝.
    judge = gate("想看大家聊吳芸的新書", ["吳芸"])
    assert not judge.judge("吳藝最近在忙什麼").accepted


@pytest.mark.parametrize("body, reason", [
    ("", NOISE_EMPTY),
    ("   \n ", NOISE_EMPTY),
    ("#鬼滅之刃 #推薦 #心得 #分享", NOISE_HASHTAGS),
    ("@someone https://example.com", NOISE_HASHTAGS),  # mentions and links only
    ("鬼滅之刃周邊限時優惠，折扣碼現折兩百，加賴私訊下單", NOISE_AD),
    ("Log in to see more posts • Threads", NOISE_NAVIGATION),
    ("登入以查看更多貼文。在 Threads 上查看追蹤者與貼文", NOISE_NAVIGATION),
    # profile and search pages as a search engine shows them
    ("12,034 Followers • 88 Threads • 鬼滅之刃同好會. See the latest conversations with @kny.fans.", NOISE_NAVIGATION),
    ("鬼滅之刃 粉絲團（@kny.tw）• Threads\n8,812 位粉絲 · 120 則串文", NOISE_NAVIGATION),
    ("Threads 上的「鬼滅之刃」相關串文 • 搜尋", NOISE_NAVIGATION),
    # resale listings
    ("鬼滅之刃 電影票兩張 原價出售，賣貨便交貨", NOISE_AD),
    ("鬼滅之刃 主題咖啡店頂讓，設備齊全，有意私訊", NOISE_AD),
    ("鬼滅之刃 特映會門票兩張 加價 私訊", NOISE_AD),
    ("鬼滅之刃 手遊推薦碼 送 $100 輸入 KNY888", NOISE_AD),
    ("鬼滅之刃 電影票兩張轉讓 今晚信義威秀", NOISE_AD),
    ("鬼滅之刃 Steam 序號 便宜賣 $800", NOISE_AD),
    ("鬼滅之刃同款髮夾 韓國連線現貨", NOISE_AD),
    ("鬼滅之刃 快閃店門票代買 手續費 $50", NOISE_AD),
    ("鬼滅之刃 粉絲群組 加入送贈品 👉LINE", NOISE_AD),
    ("鬼滅之刃 聯名椅特價 人體工學 限時 5 折", NOISE_AD),
    ("鬼滅之刃 Kimetsu (@kny_official) • Threads, 暢所欲言", NOISE_NAVIGATION),
    ("鬼滅之刃 - Threads 搜尋結果", NOISE_NAVIGATION),
    ("鬼滅之刃 - Threads 搜尋", NOISE_NAVIGATION),
    ("鬼滅之刃 — Threads 搜尋 ・ 熱門 最新", NOISE_NAVIGATION),
    ("鬼滅之刃 快閃店 (@kny_popup_tw) • 官方帳號 ・ 營業時間與活動", NOISE_NAVIGATION),
    ("鬼滅之刃 演唱會門票 搖滾區 2張 原價+500 面交", NOISE_AD),
    ("鬼滅之刃 全套漫畫 二手 合售 可議", NOISE_AD),
    ("鬼滅之刃 快閃店一日遊 含接駁 每人 1500 報名中", NOISE_AD),
    ("鬼滅之刃 角色繪畫班招生 小班制 歡迎諮詢", NOISE_AD),
    ("鬼滅之刃 主題展門票特價 快搶", NOISE_AD),
    ("鬼滅之刃 周邊公仔收藏櫃 量身訂做 免費估價", NOISE_AD),
    ("鬼滅之刃粉絲看過來 點連結領取限定桌布", NOISE_AD),
    # lessons, franchises and pre-orders
    ("想畫出鬼滅之刃的畫風嗎？插畫老師帶你練 首堂體驗 $299", NOISE_AD),
    ("鬼滅之刃 主題餐車 總部供貨 免技術", NOISE_AD),
    ("鬼滅之刃 限定版 公仔 開放預購", NOISE_AD),
    ("鬼滅之刃 主題民宿 全館 $1999 起 滿額加購", NOISE_AD),
    # notices and offers by their shape
    ("【徵才】鬼滅之刃 主題快閃店 工作人員 歡迎應屆畢業生", NOISE_AD),
    ("【售票】鬼滅之刃 交響音樂會 即日起開賣", NOISE_AD),
    ("鬼滅之刃 主題套房 方案 $3,999 起", NOISE_AD),
    ("鬼滅之刃 集換卡優惠券 買10送2 截圖使用", NOISE_AD),
    ("鬼滅之刃 抽公仔三名！追蹤+留言+分享就完成", NOISE_AD),
    # a heading in brackets is one sign of selling: with a call, a notice
    ("【鬼滅之刃 主題咖啡】期間限定菜單 可私訊", NOISE_AD),
    # an encyclopedia's entry and a brand's own site
    ("鬼滅之刃 - 維基百科，自由的百科全書", NOISE_NAVIGATION),
    ("鬼滅之刃 官方購物網站", NOISE_NAVIGATION),
    # a listing's line: parts set apart by two bars
    ("鬼滅之刃 周邊商店地圖｜營業時間查詢｜台北 新北", NOISE_NAVIGATION),
])
def test_noise_is_rejected_even_when_it_names_the_topic(body, reason):
    assert noise_reason(body) == reason
    assert gate("鬼滅之刃", ["鬼滅之刃"]).judge(body).reason == reason


def test_a_heading_in_brackets_or_a_price_from_in_a_members_own_words_is_no_notice():
    for body in ("【有雷】鬼滅之刃無限城篇看完，猗窩座那段哭爆", "鬼滅之刃票價 $400 起跳了嗎，好貴",
                 "查了維基百科才知道鬼滅之刃的作者是女生"):
        assert noise_reason(body) is None, body


def test_a_name_given_to_someone_else_is_not_the_one_the_brief_names():
    judge = gate("戴資穎", ["戴資穎", "小戴"])
    for other in ("我家的貓取名小戴，因為她很會跳", "我同學也叫小戴，今天她生日", "小戴是我阿公的名字，今天他九十大壽",
                  "我表妹長得超像戴資穎，走在路上常被認錯", "我姪女叫小戴，今天三歲生日", "我家的狗狗叫小戴，超愛撿球"):
        assert judge.judge(other).reason == OFF_TOPIC, other
    # someone the writer knows by the name
    for colleague in ("我們公司的小戴今天請大家喝飲料", "我們部門新來的小戴超會做簡報", "我同事小戴今天又遲到",
                      "我們公司小戴今天又在早會講了一小時",
                      "我們公司新來的日本同事叫小戴 人超好", "我們班也有一個小戴 每次點名都有人偷笑",
                      "我同事是新來的會計，大家都叫她小戴", "我女友的妹妹從小被叫小戴，因為她姓戴"):
        assert judge.judge(colleague).reason == OFF_TOPIC, colleague
    # a mention that is about her stays, beside a nickname explained or the name people call her
    assert judge.judge("戴資穎也叫小戴，今天的比賽又贏了").accepted
    assert judge.judge("大家都叫她小戴，今天的比賽又贏了").accepted
    assert judge.judge("原來小戴本名叫戴資穎，我現在才知道").accepted
    assert judge.judge("我們公司的人都在看小戴的比賽，午休全員停工").accepted


def test_a_thing_in_the_style_of_it_is_a_likeness_not_it():
    judge = gate("消防員 工作 心得", ["消防員", "消防員 工作"])
    assert judge.judge("萬聖節買了消防員造型的衣服給小孩，超可愛").reason == OFF_TOPIC
    assert judge.judge("當消防員第三年，出勤完回來還要寫報告").accepted
    brand = gate("宜家家居", ["宜家家居", "IKEA"])
    assert brand.judge("這間民宿走宜家家居風格，房間很簡約").reason == OFF_TOPIC

def test_a_common_word_given_as_a_name_is_not_the_thing_but_a_street_of_it_still_is():
    judge = gate("麻糬", ["麻糬"])
    assert judge.judge("我家的貓取名麻糬，每天都黏著我").reason == OFF_TOPIC
    assert judge.judge("花蓮的麻糬還是最好吃，紅豆餡超多").accepted
    assert gate("婚紗", ["婚紗"]).judge("台北婚紗街一整排都是婚紗店，拍照很方便").accepted


def test_a_work_the_dictionary_files_as_a_common_noun_is_still_a_name_given_to_others():
    # jieba files 航海王 as a common noun; the alias lexicon knows it as a work
    judge = gate("航海王", ["航海王", "One Piece"])
    assert judge.judge("我家的掃地機器人取名航海王，每天都在客廳冒險").reason == OFF_TOPIC
    assert judge.judge("航海王最新一話的伏筆好多，尾田又要收線了").accepted
    # a shop or a person called by it (一間叫航海王的, 有位叫) is another bearer; what everyone calls it is not
    assert judge.judge("台中有一間叫航海王的居酒屋，生魚片很新鮮").reason == OFF_TOPIC
    assert judge.judge("大家叫航海王的那部漫畫，我從國小看到現在").accepted


def test_a_nickname_inside_the_full_name_is_read_with_the_full_name():
    # 光漢 stands inside 許光漢: the likeness read before 許光漢 holds for both.
    judge = gate("許光漢", ["許光漢", "光漢"])
    assert judge.judge("我男友說他長得像許光漢 我看了十秒 不像").reason == OFF_TOPIC
    assert judge.judge("許光漢新片的宣傳照好帥，光漢這次的角色很不一樣").accepted


def test_a_name_glossed_as_the_writers_own_person_is_another_bearer():
    judge = gate("謝金河 財經觀點", ["謝金河", "老謝"])
    assert judge.judge("我們家老謝（我爸）今天又在看財經台罵股票").reason == OFF_TOPIC
    assert judge.judge("老謝今天在節目上說台股還會再漲，財經觀點一向很敢講").accepted


def test_a_name_used_only_as_a_measure_or_a_figure_of_speech_is_off_topic():
    judge = gate("海底撈 評價", ["海底撈"])
    about = judge.judge("海底撈的服務真的很誇張，生日還幫我唱歌")
    assert about.accepted and not about.weak
    for post in ("這間新開的麻辣鍋服務好到快跟海底撈一樣，價格便宜一半",
                 "這家火鍋比海底撈便宜，湯頭也不輸",
                 "我室友根本是海底撈轉世，什麼都能涮"):
        assert judge.judge(post).reason == OFF_TOPIC, post


def test_a_name_only_listed_among_others_is_off_topic():
    judge = gate("謝金河 財經觀點", ["謝金河"])
    assert judge.judge("財經網紅一堆，謝金河、股癌、游庭皓…我誰都不信，只信定期定額").reason == OFF_TOPIC
    # So is a name inside one item of such a list.
    assert judge.judge("週末行程：補眠、看謝金河的節目、整理房間，很充實").reason == OFF_TOPIC
    # Two names side by side are no list; the post talks about both.
    assert judge.judge("謝金河、游庭皓今天的節目都在講台股還會不會漲").accepted
    assert judge.judge("謝金河今天在節目上說台股還會再漲").accepted
    # So is one item of a numbered list; a name before the list heads it.
    assert judge.judge("財經網紅我心中的排名：1.股癌 2.謝金河 3.游庭皓，大家的呢？").reason == OFF_TOPIC
    assert judge.judge("謝金河節目重點：1. 台股 2. 美債 3. 匯率，很受用").accepted
    # A name that does what its clause lists heads no list: it is the subject.
    assert judge.judge("謝金河今天分析了台股、美債、匯率，講得很清楚").accepted


def test_a_name_said_before_the_post_turns_to_its_subject_is_in_passing():
    judge = gate("海底撈 評價", ["海底撈"])
    assert judge.judge("昨天跟同事去吃海底撈，今天主要想分享回家路上買的鹹酥雞").reason == OFF_TOPIC
    assert judge.judge("吃完海底撈好撐，今天想問大家胃藥推薦哪款").reason == OFF_TOPIC
    # Named after the turn, it is the subject.
    assert judge.judge("今天想分享海底撈的生日服務，店員幫我唱歌還送長壽麵").accepted


def test_a_street_named_after_the_name_is_not_it():
    judge = gate("光陽機車", ["光陽", "KYMCO"])
    assert judge.judge("光陽路上的那家蔥油餅每天都排到轉角").reason == OFF_TOPIC
    assert judge.judge("光陽街口新開的早餐店好好吃喔").reason == OFF_TOPIC
    # street snaps and passing by are still about the one named
    idol = gate("IU", ["IU", "李知恩"])
    assert idol.judge("IU路透照又來了，機場私服好好看").accepted
    assert idol.judge("李知恩街拍的那件外套是哪個牌子").accepted
    # nor is a path or the way things go (路徑, 路況)
    storm = gate("丹娜絲颱風", ["丹娜絲", "颱風 丹娜絲"])
    assert storm.judge("颱風丹娜絲路徑好怪，轉彎之後直接往台灣來").accepted


def test_a_post_about_another_place_is_not_about_the_one_asked():
    judge = gate("台中 親子餐廳", ["台中 親子餐廳", "親子餐廳"])
    # naming no place at all may still be about it; naming another city or a place inside one is not
    assert judge.judge("這間親子餐廳的遊戲區好大，小孩玩到不想走").accepted
    assert judge.judge("台北內湖的親子餐廳週末好難訂，小孩玩到不想走").reason == OFF_TOPIC
    assert judge.judge("去了一趟士林的親子餐廳，小孩玩到不想走").reason == OFF_TOPIC
    assert judge.judge("南屯這間親子餐廳很大，小孩玩到不想走").accepted
    # the place asked, beside another, stays
    assert judge.judge("從台北開車下來台中吃這間親子餐廳，值得").accepted
    # a place's name inside a longer word is no mention of it (新化 of 台南 in 創新化)
    assert judge.judge("親子餐廳也要創新化經營，這間的遊戲區好大").accepted


def test_a_name_the_brief_places_is_another_one_after_another_place():
    judge = gate("艋舺龍山寺", ["龍山寺", "艋舺龍山寺"])
    assert judge.judge("龍山寺今天好多人來拜拜，香火很旺").accepted
    # 鹿港龍山寺 is another temple of that name, even in a post that also names Taipei
    assert judge.judge("鹿港龍山寺的木雕好精緻，比台北安靜").reason == OFF_TOPIC
    fair = gate("台北國際旅展 優惠", ["台北國際旅展", "旅展"])
    assert fair.judge("旅展的機票優惠今年好多").accepted
    assert fair.judge("台中旅展這週末開始，聽說飯店券比較便宜").reason == OFF_TOPIC
    # a name the brief writes without a place is anyone's: 台北故宮 is still 故宮
    museum = gate("故宮 特展", ["故宮", "故宮南院"])
    assert museum.judge("台北故宮的書畫特展好精彩").accepted


def test_a_post_about_another_year_or_season_ranks_lower():
    judge = gate("2026台灣燈會在哪裡辦", ["2026 台灣燈會", "台灣燈會"])
    this_year = judge.judge("2026台灣燈會的主燈好壯觀，交通管制記得先查")
    last_year = judge.judge("2025台灣燈會的主燈好壯觀，交通管制記得先查")
    undated = judge.judge("今年台灣燈會的主燈好壯觀，交通管制記得先查")
    assert this_year.relevance > last_year.relevance and undated.relevance > last_year.relevance
    series = gate("我們與惡的距離第二季", ["我們與惡的距離"])
    assert series.judge("我們與惡的距離第一季重看還是好痛").relevance < series.judge("我們與惡的距離第二季重看還是好痛").relevance
    # a year of the Republic dates an edition too (115 is 2026)
    exam = gate("2026 統測 心得", ["2026統測", "115統測"])
    assert exam.judge("114統測的數學好難，考完直接哭").relevance < exam.judge("115統測的數學好難，考完直接哭").relevance
    # a brief naming no edition: a post looking back to a year is about a past one
    fest = gate("大港開唱 心得", ["大港開唱"])
    looking_back = fest.judge("翻到2019年大港開唱的照片，那時候還能擠到最前面")
    assert looking_back.accepted
    assert looking_back.relevance < fest.judge("大港開唱的照片整理好了，這次還能擠到最前面").relevance
    assert fest.judge("大港開唱2019那屆的卡司好強").relevance < fest.judge("大港開唱的卡司今年好強").relevance


def test_a_name_the_member_capitalized_written_only_in_lower_case_ranks_lower():
    judge = gate("Coach 包包 心得", ["Coach", "Coach 包包"])
    lower = judge.judge("健身房的 coach 說我深蹲的姿勢要再調整")
    assert lower.accepted
    assert lower.relevance < judge.judge("健身房的 Coach 說我深蹲的姿勢要再調整").relevance
    # a member who writes the name in lower case too says nothing by its case
    casual = gate("coach 包包 心得", ["Coach", "coach 包包"])
    assert casual.judge("新買的 coach 托特包好能裝").relevance == casual.judge("新買的 Coach 托特包好能裝").relevance

def ranks_below(judge, lower, higher):
    """Whether both posts are eligible and the first ranks below the second."""
    low, high = judge.judge(lower), judge.judge(higher)
    return low.accepted and high.accepted and low.relevance < high.relevance


def test_selling_words_short_of_an_ad_rank_a_post_lower():
    judge = gate("怪獸8號", ["怪獸8號"])
    assert ranks_below(judge, "怪獸8號的壓克力立牌現貨，保科副隊長超帥", "怪獸8號的動畫第二季終於出了，保科副隊長超帥")


def test_a_shop_called_by_the_name_ranks_below_a_post_about_the_one_named():
    judge = gate("林書豪", ["林書豪", "豪哥"])
    assert ranks_below(judge, "豪哥牛肉麵今天排好長，整個店門口都炸開了", "豪哥今天最後一節的三分球，整個主場都炸開了")


def test_honest_post_with_one_selling_word_is_not_an_ad():
    assert noise_reason("星巴克今天買一送一，排隊人龍排到門外，大家都好拚") is None


def test_a_buyer_telling_of_an_order_is_not_selling():
    assert noise_reason("這家網購出貨速度真的快，昨天下單今天就到") is None
    assert noise_reason("出貨超快 下單就寄 歡迎詢問") == NOISE_AD


def test_a_job_ad_is_an_ad_and_a_worker_telling_their_pay_is_not():
    assert noise_reason("知名會計師事務所 誠徵審計員 月薪 42K 起 意者請投履歷") == NOISE_AD
    assert noise_reason("清心福全 新竹店 徵全職 月薪 32K 起") == NOISE_AD
    assert noise_reason("在四大做審計第一年，月薪大概 42K，加班很多") is None
    assert noise_reason("護理師起薪 36K 起跳真的太低了") is None


def test_a_fan_with_two_tickets_is_not_selling_them():
    assert noise_reason("搶到兩張鬼滅之刃特映會的票，跟我妹一起去！") is None


@pytest.mark.parametrize("page", [
    "搜尋結果：春水堂 · Threads",
    "搜尋結果：呂捷",
    "Search results for 鬼滅 on Threads",
    "@jjlin 的 Threads 個人檔案 · 貼文 · 回覆 · 轉發",
    "#味全龍 的熱門貼文 · Threads",
    "#鏈鋸人 · Threads 上的熱門話題",
    "Threads 上的 #鏈鋸人 熱門貼文",
    "鬼滅之刃 - 搜尋 • Threads",
    "Threads 搜尋 鬼滅之刃 熱門 最新 個人檔案 標籤",
    "Threads 春水堂 (@chunshuitang) 個人檔案",
    "春水堂 門市 · 地址 · 營業時間",
])
def test_search_profile_and_tag_pages_are_navigation_whatever_dot_separates_their_parts(page):
    assert noise_reason(page) == NOISE_NAVIGATION


def test_a_post_about_followers_or_threads_is_not_a_navigation_page():
    assert noise_reason("我的搜尋結果都是廣告，演算法是不是壞了") is None
    assert noise_reason("Threads 上的鬼滅討論好熱烈，大家都在猜無限城第二章什麼時候上映") is None
    assert noise_reason("我在 Threads 上追蹤了 500 位粉絲專頁，每天滑不完") is None
    assert noise_reason("我在Threads搜尋了好久才找到這篇心得，真的很實用") is None
    # A shop's address and hours with their values are a recommendation, not a listing page.
    assert noise_reason("推薦這家拉麵！地址：台北市中山區，營業時間 11-21，必吃叉燒") is None


def test_a_word_of_the_topic_is_no_selling_signal():
    # 二手 sells in general, but here it is the topic: a complaint about a resale price is a post about it.
    complaint = "二手精品店的收購價真的很低，我的包只收原價三成"
    assert noise_reason(complaint) == NOISE_AD
    assert gate("二手精品", ["二手精品"]).judge(complaint).accepted
    # The seller's own words still make an ad, topic or not.
    assert gate("二手精品", ["二手精品"]).judge("二手精品限時優惠，私訊下單").reason == NOISE_AD


def test_match_reason_names_the_concepts_hit():
    verdict = gate("台南 牛肉湯", ["台南 牛肉湯"]).judge("來台南一定要吃牛肉湯當早餐，配肉燥飯剛好")
    assert verdict.reason.startswith("命中核心概念：")
    assert "台南" in verdict.reason and "牛肉湯" in verdict.reason


def test_a_post_covering_more_of_the_topic_ranks_higher_and_a_name_by_any_spelling_alike():
    judge = Gate(build_signature("鬼滅之刃 無限城篇", ["鬼滅之刃", "無限城篇", "鬼滅之刃 無限城篇"]))
    both = judge.judge("鬼滅之刃無限城篇的作畫真的是電影院等級")
    one = judge.judge("鬼滅之刃遊郭篇的作畫真的是電影院等級啊")
    assert both.accepted and one.accepted and both.relevance > one.relevance
    # the full name and the nickname of one person are the same evidence, less the small
    # discount for an alias only
    judge = Gate(build_signature("戴資穎", ["戴資穎", "小戴"]))
    full = judge.judge("戴資穎今天的比賽打得好穩")
    short = judge.judge("小戴今天的比賽打得好穩啊")
    assert full.relevance - short.relevance == pytest.approx(0.03)


def test_a_word_two_concepts_share_is_one_concept_named():
    # 記者 is a concept of the intent and, in the synonym lexicon, a kind of 新聞業: a post that
    # only writes 記者 names one of them, not an intent phrase joining two, nor an optional concept more
    judge = gate("現在當記者還有前途嗎？想看新聞業的人怎麼說", ["記者", "新聞業"])
    word = judge.judge("記者的薪水十年沒漲，大家都轉行了")
    field = judge.judge("新聞業的薪水十年沒漲，大家都轉行了")
    both = judge.judge("新聞業的記者薪水十年沒漲，大家都轉行")
    assert word.accepted and field.accepted and both.accepted
    assert word.relevance <= field.relevance < both.relevance


def test_age_lowers_the_score_only_past_the_soft_limit_and_never_rejects():
    now = datetime(2026, 8, 10, tzinfo=UTC)
    judge = gate("颱風假", ["颱風假"])
    verdict = judge.judge("颱風假宣布了，明天台北市停班停課")
    assert verdict.accepted
    fresh = score(verdict.relevance, now - timedelta(days=1), now)
    months = score(verdict.relevance, now - timedelta(days=300), now)
    older = score(verdict.relevance, now - timedelta(days=365 + 90), now)
    ancient = score(verdict.relevance, now - timedelta(days=365 * 20), now)
    # Within the limit posting time only breaks ties; past it the score falls, softly.
    assert fresh == months == verdict.relevance
    assert months > older > ancient > 0
    # score() rounds to four places.
    assert ancient >= verdict.relevance * 0.95 - 1e-4
    assert recency_factor(None, now) == pytest.approx(0.975)


def test_a_compound_concept_is_met_by_its_words_in_one_sentence():
    # Given a concept written as a compound no dictionary knows (寵物保險), searched on its own
    judge = gate("寵物保險", ["寵物保險", "毛孩保險"])
    # Then a post saying its words in its own order, in one sentence, names it
    assert judge.judge("幫家裡的寵物買了保險，結果理賠流程比想像中麻煩").accepted
    # but not words of it scattered over separate sentences
    assert judge.judge("今天帶寵物去公園散步。下午又去銀行辦保險的事情").reason == OFF_TOPIC
    # and a title set in title marks is only ever met whole
    title = gate("《海角七號》心得", ["海角七號"])
    assert title.judge("看完海角的夕陽，七號公園也很美，推薦大家去走走").reason == OFF_TOPIC


def test_narrow_single_concept_searches_are_alternatives_within_the_request_s_place():
    # Given a request in a place, searched by the place with one part and by a narrow part alone
    judge = gate("想找台中看足底筋膜炎的骨科", ["足底筋膜炎", "台中 骨科"])
    # Then a post meeting one search whole in that place is on topic, without the other part
    assert judge.judge("台中這間骨科醫生很仔細，超音波看得很清楚，掛號也方便").accepted
    assert judge.judge("足底筋膜炎在台中復健了兩個月，終於可以走路不痛").accepted
    # but the place still holds: the narrow search found posts from everywhere, so a post naming no
    # place only makes up a shortfall, and one naming another place is out
    assert judge.judge("足底筋膜炎真的很痛，早上下床第一步最難受").weak
    assert judge.judge("足底筋膜炎在高雄復健了兩個月，終於可以走路不痛").reason == OFF_TOPIC


def test_a_broader_word_searched_on_its_own_only_makes_up_a_shortfall():
    # Given a trade searched whole and by its shorter word on its own
    judge = gate("想了解當機場塔台管制員的心得", ["塔台管制員", "管制員"])
    # Then a post writing the shorter word is eligible, weakly: after every post on the trade itself
    verdict = judge.judge("管制員輪夜班真的很傷身，但薪水穩定")
    assert verdict.accepted and verdict.weak
    assert not judge.judge("塔台管制員輪夜班真的很傷身，但薪水穩定").weak


def test_a_term_that_names_none_of_the_intent_s_concepts_is_a_search_of_its_own():
    # The member searched two museums by name beside the request's own words.
    judge = gate("想找台北適合帶小孩看的展覽，最好是互動的科學類", ["科教館", "天文館", "台北 親子 展覽"])
    # A post naming one of them is on topic, counting toward the target like any other.
    verdict = judge.judge("天文館三樓那個可以爬進去的太空艙，兒子一直不想走")
    assert verdict.accepted and not verdict.weak
    # A term that names the request's concepts still needs them all.
    assert judge.judge("台北的親子餐廳好多，週末都客滿").reason == OFF_TOPIC
    # A name of two Latin words searched on its own is such a search too, each word counted.
    judge = gate("想看大家聊大阪那個夏天的搖滾音樂祭", ["大阪 搖滾音樂祭", "Summer Sonic"])
    assert judge.judge("Summer Sonic 今年卡司超強，熱到快中暑還是值得").accepted


def test_a_place_only_the_intent_names_is_the_setting_not_the_asked_place():
    judge = gate("下個月要去京都，想看大家怎麼評價林氏璧的攻略", ["林氏璧", "林氏璧 攻略"])
    assert judge.judge("林氏璧說的那家大阪燒我去了，確實好吃，就是要等很久").accepted
    searched = gate("京都 美食 推薦", ["京都 美食"])
    assert searched.judge("大阪美食真的多，道頓堀吃一整晚").reason == OFF_TOPIC


def test_a_concept_searched_with_and_without_its_place_does_not_need_the_place():
    # The member searched 咖啡展 alone beside 咖啡展 南港: the place is one alternative, not required.
    judge = gate("想看今年南港咖啡展的心得", ["咖啡展", "咖啡展 南港"])
    verdict = judge.judge("咖啡展逛一整天，試喝到心悸，最推淺焙那攤")
    assert verdict.accepted and not verdict.weak


def test_an_abbreviation_searched_alone_beside_the_concept_and_its_place_does_not_need_the_place():
    # 漫博 abbreviates 漫畫 博覽會, which the member also searched beside 台北.
    judge = gate("想看大家今年去漫博的心得，八月的台北漫畫博覽會", ["漫畫博覽會", "漫博", "台北漫畫博覽會"])
    verdict = judge.judge("漫博第一天早上就排到外面，限定本直接完售")
    assert verdict.accepted and not verdict.weak


def test_a_name_written_with_a_dot_after_each_letter_is_the_name_without_them():
    # R.E.P.O. searched alone is the REPO of the intent: 遊戲 is not required of every post.
    judge = gate("REPO 遊戲 心得", ["R.E.P.O.", "REPO 遊戲"])
    assert judge.judge("REPO 跟朋友開語音玩到凌晨三點，搬一個花瓶搬到碎掉大家笑死").accepted
    assert judge.judge("R.E.P.O. 比 Lethal Company 好上手，畫面也比較可愛").accepted


def test_a_titles_number_is_met_in_either_kind_of_numeral():
    judge = gate("邊緣禁地4 心得", ["邊緣禁地4", "Borderlands 4"])
    assert judge.judge("邊緣禁地四主線大概三十小時，支線超多").accepted
    assert judge.judge("邊緣禁地三的劇情比較好笑").reason == OFF_TOPIC


def test_a_name_searched_without_the_place_it_was_written_with_is_met_without_it():
    judge = gate("台中新光三越 氣爆", ["台中新光三越 氣爆", "新光三越 氣爆"])
    verdict = judge.judge("新光三越氣爆案檢方起訴了幾個人？有人在追嗎")
    assert verdict.accepted and not verdict.weak


def test_a_chinese_name_is_met_by_its_latin_spellings_in_an_english_post():
    # Given a person and a place of worship named in Chinese only
    person = gate("想看大家怎麼評價林昶佐", ["林昶佐"])
    temple = gate("佛光山 參訪心得", ["佛光山"])
    # Then an English post spelling them as Taiwan's press does, or in Pinyin, names them
    assert person.judge("Lin Chang-tso spoke at the rally tonight, the crowd was huge").accepted
    assert person.judge("Chang-tso Lin just announced a new album with his band").accepted
    assert temple.judge("Spent a weekend at Fo Guang Shan, the monastery stay was peaceful").accepted
    # and a place by its spelled name before its kind in English
    shrine = gate("碧雲寺 參拜", ["碧雲寺"])
    assert shrine.judge("Biyun Temple at dawn is so peaceful, worth the hike up").accepted
    assert shrine.judge("Biyun is a common name for a tea house here").reason == OFF_TOPIC
    # while a spelling too short to tell one name from another (阿信: a xin) is left out
    assert gate("阿信 新歌", ["阿信"]).judge("A Xin is such a common nickname").reason == OFF_TOPIC


@pytest.mark.parametrize("post", [
    "鋼琴家教 一堂$900 到府教學 歡迎詢問",
    "矯正 5 萬起 台北 新竹 分院 免費諮詢",
    "英文家教 時薪700 可線上 私訊",
    "Netflix 家庭方案合購 一個月90 私訊",
    "跨年景觀餐廳 代訂位 名額不多",
    "飆股群組 加群免費報明牌",
    "寬口奶瓶 240ml 買二送一 官方限時 連結在留言",
    "毛孩保險一年只要$2,988 線上投保送贈品 連結👉",
    "節目完整版免費看 點連結👉 bit.ly/3xYzAb",
    "迪卡儂 登山鞋 全新 $1290",
    "代客停車 優惠 $150/天 24小時",
    "汽座展場價 快來攤位看看",
    "寵物險規劃私訊我，幫你比較各家方案",
])
def test_classified_ad_shapes_are_noise(post):
    assert noise_reason(post) == NOISE_AD


def test_a_price_or_a_wage_told_in_passing_is_no_ad():
    assert noise_reason("家教時薪多少才合理？我大學時一堂課拿500，現在好像都漲了") is None
    assert noise_reason("訂閱一個月90其實不貴，但我還是退了，片單太少") is None
    # two selling words without a price are a buyer's story
    assert noise_reason("迪卡儂週年慶衝了，跑鞋打七折") is None


def test_a_latin_name_of_three_words_is_met_by_its_initials():
    judge = gate("想看大家玩《Final Fantasy Tactics》重製版的心得", ["Final Fantasy Tactics", "太空戰士戰略版"])
    assert judge.judge("FFT 的職業系統還是好複雜，練等練到忘記主線").accepted
    # the words that only join count or not, as people write it
    album = gate("想看大家聽《The Wind of Dark Rivers》的心得", ["The Wind of Dark Rivers"])
    assert album.judge("WODR 整張聽完，第三首最好聽").accepted
    assert album.judge("WDR 整張聽完，第三首最好聽").accepted
    # a name with a number keeps no initials of it
    assert gate("iPhone 17 Pro 開箱", ["iPhone 17 Pro"]).judge("i1p 是什麼型號？").reason == OFF_TOPIC
    # initials that are another thing's name (BMW) name that thing, in either script
    wukong = gate("黑神話悟空的DLC什麼時候出", ["黑神話", "Black Myth Wukong"])
    assert wukong.judge("BMW 的新車開起來好安靜").reason == OFF_TOPIC
    assert wukong.judge("寶馬的新車開起來好安靜").reason == OFF_TOPIC


def test_a_title_set_in_title_marks_names_the_work_its_term_searches():
    # Given a book whose title is a common word, searched with its author
    judge = gate("有人讀完哈拉瑞的新書《連結》嗎？跟《人類大歷史》比起來值得看嗎", ["哈拉瑞 連結", "Nexus 哈拉瑞"])
    # Then the title in title marks names the book, its author unsaid
    assert judge.judge("覺得《連結》寫得有點悲觀，但對理解社群演算法很有幫助").accepted
    # but the word unmarked is any link, and a title the brief only compares with is not what it searches
    assert judge.judge("覺得這個連結寫得有點悲觀，但對理解社群演算法很有幫助").reason == OFF_TOPIC
    assert judge.judge("《人類大歷史》十年前讀的，最近重讀還是很震撼").reason == OFF_TOPIC


def test_a_nickname_no_dictionary_knows_is_not_the_beginning_of_a_word():
    judge = gate("黃仁勳這次來台灣又去吃了哪些小吃", ["黃仁勳", "老黃", "Jensen Huang"])
    assert judge.judge("老黃昨晚又去夜市吃了滷肉飯，攤販老闆笑到合不攏嘴").accepted
    assert judge.judge("做人要有老黃牛精神，默默做事不邀功").reason == OFF_TOPIC
    # a word the dictionary knows may still begin a longer one (浮潛 in 浮潛店)
    assert gate("墾丁 浮潛", ["墾丁 浮潛"]).judge("墾丁後壁湖的浮潛店，教練會先在岸邊教換氣").accepted




def test_a_name_as_often_something_else_alone_ranks_below_the_topics_context():
    judge = gate("新北國王 TPBL 戰績", ["新北國王", "國王"])
    alone = judge.judge("國王今天又贏了，好開心")
    with_context = judge.judge("新北國王今天又贏了，好開心")
    assert alone.accepted and with_context.accepted
    assert alone.relevance < with_context.relevance


def test_a_post_about_what_the_member_does_not_want_ranks_below_the_rest():
    judge = gate("最近在追《葬送的芙莉蓮》動畫，想看大家的心得，漫畫原作的劇透就不用了", ["葬送的芙莉蓮", "芙莉蓮"])
    assert ranks_below(judge, "芙莉蓮漫畫最新話劇透：那個角色竟然回來了，動畫黨先別看", "芙莉蓮動畫第二季的作畫好穩，每一集都看得好療癒")


def test_the_words_of_what_is_turned_away_that_the_brief_asks_for_elsewhere_are_not_unwanted():
    signature = build_signature("想看大家對林內熱水器的評價，林內鄉的旅遊就不用了", ["林內", "林內 熱水器"])
    assert "旅游" in signature.unwanted and not {"林内", "热水器", "不用"} & set(signature.unwanted)
    # The list a clause of what is not wanted ends is turned away whole.
    listed = build_signature("想看大家讀謝沅瑾的風水書的心得，他的生肖運勢、開運農民曆那種就不用了", ["謝沅瑾", "謝沅瑾 風水"])
    assert {"生肖", "运势"} & set(listed.unwanted) and "农民历" in listed.unwanted


def test_a_word_the_member_searched_names_the_short_word_inside_it_however_the_dictionary_cuts_it():
    judge = gate("最近想學羽球，新手該買什麼樣的球拍？", ["羽球拍 新手", "新手 球拍"])
    assert judge.judge("朋友推薦新手先買便宜的羽球拍練手感").accepted
