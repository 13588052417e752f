"""What the approved terms teach the signature beyond the intent's own words: translated names,
interchangeable concepts, other spellings, joined Latin words; and classified ads as noise."""

from scout.pipeline.gate import NOISE_AD, OFF_TOPIC, Gate, noise_reason
from scout.pipeline.signature import build_signature


def gate(intent, terms):
    return Gate(build_signature(intent, terms))


def test_name_given_in_two_scripts_is_one_entity():
    judge = gate("Innisfree 悅詩風吟 保養心得", ["悅詩風吟", "Innisfree"])
    assert judge.judge("innisfree 綠茶精華用完一瓶，混合肌很適合").accepted
    assert judge.judge("悅詩風吟的火山泥面膜清粉刺滿有感").accepted
    assert judge.judge("保養心得：最近換成理膚寶水，敏感肌穩定多了").reason == OFF_TOPIC


def test_term_in_the_other_script_stands_for_the_whole_name():
    judge = gate("落日飛車 樂團 演出", ["落日飛車", "Sunset Rollercoaster"])
    assert judge.judge("Sunset Rollercoaster 的現場薩克斯風太迷人").accepted
    assert judge.judge("落日飛車的新專輯聽了三遍").accepted
    assert judge.judge("Sunset 時段的海邊好美，樂團在沙灘表演").reason == OFF_TOPIC


def test_terms_differing_by_one_concept_make_it_interchangeable():
    judge = gate("護理師 徵才與職缺", ["護理師 徵才", "護理師 職缺"])
    assert judge.judge("醫學中心護理師職缺開了，夜班津貼有調").accepted
    assert judge.judge("診所徵才：護理師兩名，週休二日").accepted
    # each concept is still required: a hiring post of another trade, or nursing without hiring
    assert judge.judge("餐廳徵才：外場服務生 時薪 200").reason == OFF_TOPIC
    assert judge.judge("護理師的日常：今天病房好忙").reason == OFF_TOPIC


def test_terms_that_write_concepts_together_need_them_together_and_separate_terms_are_alternatives():
    # 外包 後端 searched together: a post needs both
    together = gate("外包 後端 工程師", ["外包 後端", "後端 接案"])
    assert together.judge("後端工程師職缺：全職，台北內湖").reason == OFF_TOPIC
    assert together.judge("後端接案一個月收入大概多少？想轉外包").accepted
    # each searched on its own: the member's alternatives, either one is the topic
    apart = gate("花藝師 插花老師 工作心得", ["花藝師", "插花老師"])
    assert apart.judge("當花藝師三年，薪水真的不高").accepted
    assert apart.judge("插花老師的收入其實很不穩定").accepted
    assert apart.judge("今天去花市買了一束花").reason == OFF_TOPIC
    either = gate("調酒師 咖啡師 工作", ["調酒師", "咖啡師"])
    assert either.judge("我是咖啡師，每天站十小時").accepted


def test_shorter_spelling_inside_a_term_aliases_the_concept():
    judge = gate("台南 虱目魚肚粥 推薦", ["台南虱目魚肚粥", "台南魚肚粥"])
    assert judge.judge("台南的魚肚粥早上六點就開賣，配油條剛好").accepted
    assert judge.judge("台南 牛肉湯 早餐 推薦").reason == OFF_TOPIC


def test_latin_name_written_joined_or_spaced_from_chinese():
    judge = gate("Galaxy Watch 使用心得", ["Galaxy Watch"])
    assert judge.judge("GalaxyWatch 的睡眠偵測比想像中準").accepted
    assert gate("85度C 蛋糕", ["85度C"]).judge("85 度C 的草莓蛋糕今天半價").accepted


def test_classified_ads_are_noise():
    assert noise_reason("相機 二手 九成新 $12000 面交板橋 私訊") == NOISE_AD
    assert noise_reason("耳機 全新未拆 特價 $990 聊聊下單") == NOISE_AD
    assert noise_reason("健身房 入會 優惠 專人洽詢 LINE:@gymfit") == NOISE_AD
    assert noise_reason("藍光 全新 售 $600") == NOISE_AD
    # one contact word in an honest post is not an ad
    assert noise_reason("我們實驗室在找助理，有興趣歡迎私訊，工作內容很單純") is None
    assert noise_reason("門票今天開賣，售價 $2800 有點貴但還是會去") is None
