"""Proposed search terms (docs/scout.md 4.2): the core of the topic and its usual other names, in
terms that each keep every core concept, so the signature built from them still requires them."""

from __future__ import annotations

import pytest

from scout.pipeline.aliases import LEXICON, AliasLexicon
from scout.pipeline.signature import NoTopicEvidence, build_signature
from scout.pipeline.suggest import MAX_CONCEPTS, suggest_terms

LEXICON_OF_TEST = AliasLexicon.parse("""
# people
戴資穎 | 小戴 | Tai Tzu-ying
蔡依林 | Jolin
# works
鬼滅之刃 | 鬼滅 | Demon Slayer
# companies
台電 | 台灣電力公司 | Taipower
# places
台北 | 台北市 | Taipei | 天龍國
""")


def suggest(intent: str) -> list[str]:
    return suggest_terms(intent, LEXICON_OF_TEST)


def test_framing_is_never_proposed_and_the_core_comes_first() -> None:
    terms = suggest("想追戴資穎最近的比賽")
    assert terms[0] == "戴資穎"
    for word in ("想追", "最近", "的"):
        assert all(word not in term for term in terms)


def test_a_request_written_as_a_sentence_searches_the_things_it_names() -> None:
    # 比賽 and 期間限定 say what about the name; posts about it seldom write them.
    assert all("比賽" not in term for term in suggest("想追戴資穎最近的比賽"))
    assert suggest("最近鬼滅之刃有什麼期間限定的活動？")[0] == "鬼滅之刃"
    # A request naming nothing but a place keeps its concepts.
    assert suggest("想找台北的陶藝課")[0] == "台北 陶藝課"


def test_a_known_name_makes_the_core_before_a_word_the_dictionary_merely_lacks() -> None:
    terms = suggest("電價好像又要調漲了，想看大家最近怎麼討論台電跟電費")
    assert terms[0].split()[0] == "台電" and "Taipower" in " ".join(terms)
    assert all("調漲" not in term for term in terms)


def test_a_title_in_title_marks_is_proposed_whole() -> None:
    assert suggest("有人看過《喵的奇幻漂流》嗎？想看大家的心得")[0] == "喵的奇幻漂流"


def test_a_place_is_proposed_only_as_written() -> None:
    terms = suggest("台北陶藝課")
    assert not any(name in term for term in terms for name in ("台北市", "Taipei", "天龍國"))


def test_a_country_only_says_where_unless_nothing_else_is_named() -> None:
    assert all("台灣" not in term for term in suggest("台灣精釀啤酒"))
    assert suggest("台灣")[0] == "台灣"


def test_a_name_is_proposed_with_its_nickname_and_english_name_beside_the_other_concepts() -> None:
    terms = suggest("想追戴資穎最近的比賽")
    assert {"小戴", "Tai Tzu-ying"} <= set(terms)
    # The names become one required group of alternatives; 比賽 only scores, as in the core's signature.
    signature = build_signature("想追戴資穎最近的比賽", terms)
    required = [set(g.expressions) for g in signature.required]
    assert len(required) == 1 and {"戴资颖", "小戴", "tai tzu-ying"} <= required[0]


def test_an_other_name_keeps_the_concepts_the_topic_requires() -> None:
    terms = suggest("鬼滅之刃 無限城 心得")
    core = terms[0]
    assert core == "鬼滅之刃 無限城"
    assert "鬼滅 無限城" in terms and "Demon Slayer 無限城" in terms
    signature = build_signature("鬼滅之刃 無限城 心得", terms)
    assert len(signature.required) == 2


def test_a_lexicon_name_is_found_in_simplified_or_any_case() -> None:
    assert {"鬼滅", "Demon Slayer"} <= set(suggest("鬼灭之刃"))
    assert suggest("JOLIN 新歌")[0].lower().startswith("jolin")


def test_two_names_the_intent_gives_for_one_person_become_alternatives() -> None:
    terms = suggest("Jolin 蔡依林 新專輯")
    assert terms[:2] == ["Jolin 新專輯", "蔡依林 新專輯"]


def test_a_multi_concept_phrase_is_split_into_its_concepts() -> None:
    assert suggest("外包後端工程師")[0] == "外包 後端 工程師"
    assert suggest("台北陶藝課")[0] == "台北 陶藝課"


def test_a_long_request_keeps_its_most_specific_concepts() -> None:
    core = suggest("想找台北適合帶長輩去的陶藝課，最好是週末有開的")[0]
    assert len(core.split()) <= MAX_CONCEPTS
    assert "台北" in core and "陶藝課" in core


def test_the_core_is_also_proposed_in_simplified_characters() -> None:
    terms = suggest("台北陶藝課")
    assert "台北 陶艺课" in terms and len(terms) == len(set(terms))


def test_an_intent_of_framing_only_names_no_topic() -> None:
    with pytest.raises(NoTopicEvidence):
        suggest("請問 有沒有 推薦 心得")


def test_the_shipped_lexicon_reads_cleanly() -> None:
    entries = [line for line in LEXICON.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.lstrip().startswith("#")]
    firsts = [line.split("|")[0].strip() for line in entries]
    assert len(entries) >= 100
    assert all(len([n for n in line.split("|") if n.strip()]) >= 2 for line in entries)
    assert len(firsts) == len(set(firsts))
