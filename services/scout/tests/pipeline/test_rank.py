"""The ranked relevance beside the gate: BM25 over the run's candidates orders, never admits."""

from scout.pipeline.gate import Gate
from scout.pipeline.rank import RULES, RULES_BM25, Ranker
from scout.pipeline.signature import build_signature

POSTS = [
    "台南牛肉湯今天排了一小時，湯頭很清甜",
    "台南的牛肉湯、牛肉燥飯、牛肉炒青菜，一桌都是牛肉湯店的招牌，台南人早餐就吃這個",
    "今天天氣很好，去公園散步",
]


def ranked(ranking: str) -> dict[int, float]:
    gate = Gate(build_signature("台南 牛肉湯", ["台南 牛肉湯", "台南 早餐"]))
    ranker = Ranker(gate, ranking)
    rules = {}
    for body in POSTS:
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
