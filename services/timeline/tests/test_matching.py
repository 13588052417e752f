"""Word filters match in one folded form, whole words for Latin text and as written for CJK, each
case checked against the specification written apart in the tests (conftest.filter_matches)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from feeds_runtime.folding import fold
from timeline.domain import FilterAction, FilterMatch, WordFilter
from timeline.matching import ReadPolicy

from .conftest import filter_matches


def word_filter(phrase: str, action: FilterAction = FilterAction.HIDE) -> WordFilter:
    return WordFilter(uuid.uuid4(), phrase, fold(phrase), action, datetime.now(UTC), None)


@pytest.mark.parametrize(("phrase", "body", "matches"), [
    ("cat", "A Cat sat.", True),                  # case
    ("cat", "ＣＡＴ！", True),                      # full width
    ("ｃａｔ", "the cat", True),
    ("cafe", "Un café noir", True),              # accents
    ("café", "the CAFE", True),
    ("cat", "concatenate", False),               # whole words in Latin text
    ("cat", "cats", False),
    ("cat", "cat_x", True),                      # an underscore is not a letter
    ("new york", "I love New   York!", True),     # spaces folded
    ("台灣", "我住在臺灣", True),                   # Traditional = Simplified
    ("臺灣", "台湾的夜市", True),
    ("台北", "去台北玩", True),                     # CJK as written, inside a run of characters
    ("iphone", "買了iPhone手機", True),             # Latin beside CJK is a word
    ("iphone", "iphones", False),
    ("ネタバレ", "これはﾈﾀﾊﾞﾚです", True),           # half-width kana
    ("스포", "스포일러", True),                      # Hangul as written
    ("dog", "hot-dog stand", True),
])
def test_the_folded_phrase_matches_as_specified(phrase, body, matches):
    policy = ReadPolicy([word_filter(phrase)], {})
    assert filter_matches(phrase, body) is matches
    assert policy.judge(body, fold(body), []) == (matches, [])
    # A stored folded body and one folded when read give the same verdict
    assert policy.judge(body, None, []) == (matches, [])


def test_warn_names_every_matching_filter_and_a_hide_wins():
    warn_a, warn_b = word_filter("spoiler", FilterAction.WARN), word_filter("結局", FilterAction.WARN)
    hide = word_filter("ending", FilterAction.HIDE)
    body = "Spoiler: the 結局 is sad"
    assert ReadPolicy([warn_a, warn_b], {}).judge(body, fold(body), []) == (False, [
        FilterMatch("word", str(warn_a.id), "spoiler"), FilterMatch("word", str(warn_b.id), "結局")])
    assert ReadPolicy([warn_a, hide], {}).judge(body + " ending", None, []) == (True, [])
    assert ReadPolicy([], {}).empty and ReadPolicy([], {}).judge(body, None, ["nsfw"]) == (False, [])


def test_labels_warn_before_words_and_a_hiding_label_wins():
    warn = word_filter("spoiler", FilterAction.WARN)
    labels = {"nsfw": FilterAction.HIDE, "spoiler": FilterAction.WARN}
    policy = ReadPolicy([warn], labels)
    assert not policy.empty and policy.needs_bodies and not ReadPolicy([], labels).needs_bodies
    assert policy.judge("a spoiler", None, ["art", "spoiler"]) == (False, [
        FilterMatch("label", "", "spoiler"), FilterMatch("word", str(warn.id), "spoiler")])
    assert policy.judge("a spoiler", None, ["spoiler", "nsfw"]) == (True, [])
