"""建議搜尋詞 over REST (docs/scout.md 4.2): the topic's core and its usual other names, never the
request repeated; a topic-less or bad intent is the envelope's 400 and writes nothing."""

from __future__ import annotations

import pytest

from tests.scout.conftest import Member, Seed
from tests.scout.test_input_and_ownership import written


def test_a_request_typed_as_people_type_it_proposes_its_core_and_the_names_it_goes_by(member: Member) -> None:
    terms = member.ok("POST", "/api/v1/scout/suggestions", json={"intent": "想追周杰倫最近的演唱會"})["terms"]
    # The core first: the singer the request names, framing (想追、最近、的) gone, and what it asks
    # about him (演唱會) left to the intent rather than narrowing every search.
    assert terms[0] == "周杰倫"
    assert all("想追" not in t and "最近" not in t and "演唱會" not in t for t in terms)
    # Other names of the singer stand in for him.
    assert {"周董", "Jay Chou"} <= set(terms)
    assert 1 <= len(terms) <= 10 and len(set(terms)) == len(terms)


def test_the_proposed_terms_are_accepted_as_a_brief(member: Member) -> None:
    terms = member.ok("POST", "/api/v1/scout/suggestions", json={"intent": "外包後端工程師職缺"})["terms"]
    created = member.ok("POST", "/api/v1/scout/scan", json={"brief": {"intent": "外包後端工程師職缺", "terms": terms}})
    assert created["run"]["terms"] == terms


@pytest.mark.parametrize("body, code", [
    ({"intent": "請問 有沒有 推薦 心得"}, 400001),   # nothing but framing: no topic to propose
    ({"intent": "   "}, 400001),
    ({"intent": "x" * 501}, 400001),
    ({}, 400000),
    ({"intent": 5}, 400000),
    ({"intent": "鬼滅之刃", "terms": ["x"]}, 400000),  # unknown field
    ({"intent": "鬼滅\u0000之刃"}, 400005),
])
def test_bad_intents_are_400_in_the_envelope_and_write_nothing(member: Member, seed: Seed, body: dict,
                                                               code: int) -> None:
    response = member.call("POST", "/api/v1/scout/suggestions", json=body)
    envelope = response.json()
    assert response.status_code == 400 and envelope["code"] == code and envelope["data"] is None, envelope
    assert envelope["message"]
    assert written(seed, member.id) == 0


def test_a_control_character_at_either_end_is_refused_not_trimmed(member: Member) -> None:
    for intent in ("\u001e周杰倫演唱會", "周杰倫演唱會\u001f"):
        response = member.call("POST", "/api/v1/scout/suggestions", json={"intent": intent})
        assert response.status_code == 400 and response.json()["code"] == 400001, response.text
        scan = member.call("POST", "/api/v1/scout/scan", json={"brief": {"intent": intent, "terms": ["周杰倫"]}})
        assert scan.status_code == 400 and scan.json()["code"] == 400001, scan.text
