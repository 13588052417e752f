"""The ranked relevance beside the gate: BM25 over the run's candidates orders, never admits."""

from scout.pipeline.aliases import AliasLexicon
from scout.pipeline.gate import Gate
from scout.pipeline.rank import RULES, RULES_BM25, RULES_POOL, Ranker, _shape
from scout.pipeline.signature import build_signature

POSTS = [
    "台南牛肉湯今天排了一小時，湯頭很清甜",
    "台南的牛肉湯、牛肉燥飯、牛肉炒青菜，一桌都是牛肉湯店的招牌，台南人早餐就吃這個",
    "今天天氣很好，去公園散步",
]


# No lexicon: the signature holds the brief's own words only, so the rules see what the ranking adds.
NOTHING = AliasLexicon.parse("")


def ranked(ranking: str, posts: list[str] = POSTS, intent: str = "台南 牛肉湯",
           terms: tuple[str, ...] = ("台南 牛肉湯", "台南 早餐")) -> tuple[dict[int, float], dict[int, float]]:
    gate = Gate(build_signature(intent, list(terms), names=NOTHING, words=NOTHING))
    ranker = Ranker(gate, ranking)
    rules = {}
    for body in posts:
        verdict = gate.judge(body)
        document = ranker.add(verdict)
        if verdict.accepted:
            rules[document] = verdict.relevance
    return rules, ranker.relevance(rules)


def test_bm25_orders_the_eligible_posts_by_how_much_they_say_about_the_topic():
    rules, relevance = ranked(RULES_BM25)
    assert set(relevance) == set(rules) == {0, 1}  # the off-topic post is never ranked in
    assert relevance[1] > relevance[0]
    assert all(0 < value <= 1 for value in relevance.values())


def test_the_rules_alone_keep_the_gate_relevance():
    rules, relevance = ranked(RULES)
    assert relevance == rules


ESPORTS = [
    "電競產業的選手薪水其實不高，很多人兼職直播",
    "電競賽事的轉播權被幾個平台搶，選手跟戰隊都靠贊助",
    "電競戰隊找贊助越來越難，選手合約也縮水",
    "電競耳機跟麥克風哪一組比較推薦，預算三千左右想換一組",  # names the topic, in another sense
    "電競選手退役之後轉教練還是主播？賽事圈的出路",
    "今天天氣很好，去公園散步",
]


def test_pool_puts_a_post_in_another_sense_below_the_posts_about_the_topic():
    rules, relevance = ranked(RULES_POOL, ESPORTS, "電競產業", ("電競產業", "電競", "電競選手"))
    assert set(relevance) == set(rules) == {0, 1, 2, 3, 4}  # the off-topic post is never ranked in
    assert rules[3] >= min(rules[i] for i in (0, 1, 2, 4))  # the rules alone cannot tell them apart
    assert relevance[3] < min(relevance[i] for i in (0, 1, 2, 4))
    assert all(0 < value <= 1 for value in relevance.values())


def test_pool_of_too_few_posts_keeps_the_rules():
    rules, relevance = ranked(RULES_POOL)
    assert relevance == rules


def test_a_post_that_names_the_topic_first_is_shaped_above_one_that_mentions_it_in_passing():
    topic = ("周杰倫",)
    about = "周杰倫演唱會第二場，安可唱了晴天全場大合唱"
    passing = "加班完去夜市吃麵，隔壁攤一直在放周杰倫"
    assert _shape(about, topic) > _shape(passing, topic)
    # Saying more counts too: the same opening with more to say is shaped higher.
    assert _shape(about + "，舞台跟燈光都比上次華麗，下次還要再去", topic) > _shape(about, topic)


JAY = [
    "周杰倫演唱會第二場，安可唱了晴天全場大合唱，前排大家都哭了",
    "周杰倫的演唱會這次舞台超華麗，晴天一出來全場大合唱",
    "周杰倫演唱會搶票心得：排了四十分鐘，最後搶到看台區，晴天大合唱時整個起雞皮疙瘩",
    "加班完去夜市吃麵，隔壁攤一直在放晴天，全場大合唱，原來是周杰倫演唱會的錄音",  # in passing
]


def test_pool_ranks_a_mention_in_passing_below_the_posts_about_the_topic():
    rules, relevance = ranked(RULES_POOL, JAY, "周杰倫 演唱會", ("周杰倫 演唱會",))
    assert set(relevance) == set(rules) == {0, 1, 2, 3}
    assert rules[3] > min(rules[i] for i in (0, 1, 2))  # the rules alone put it above one of them
    assert relevance[3] < min(relevance[i] for i in (0, 1, 2))
    assert all(0 < value <= 1 for value in relevance.values())
