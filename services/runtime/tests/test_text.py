"""The shared text rules: what counts as blank, and what cannot be carried as text."""

from __future__ import annotations

import pytest

from feeds_runtime.text import has_lone_surrogate, is_blank

INVISIBLE_ONLY = ["", " \t\n", "\u200b", "\u200b\u200c\u200d", "\ufeff", "\u2060\u00a0", "\u3164", "\u2800", "\u202e "]


@pytest.mark.parametrize("value", INVISIBLE_ONLY)
def test_whitespace_and_zero_width_characters_are_blank(value):
    assert is_blank(value)


@pytest.mark.parametrize("value", ["a", "\u200bx", "。", "😀", "\u0301x"])
def test_anything_visible_is_not_blank(value):
    assert not is_blank(value)


def test_lone_surrogates_are_found_and_pairs_are_not():
    assert has_lone_surrogate("\ud800") and has_lone_surrogate("ok\udfff") and has_lone_surrogate("\udc00\ud800")
    assert not has_lone_surrogate("😀") and not has_lone_surrogate("plain")


@pytest.mark.parametrize("value", INVISIBLE_ONLY[3:])
def test_every_context_refuses_zero_width_only_text(value):
    from feeds_runtime.errors import InvalidArgument
    from news.inputs import text
    from scout.brief import normalize_brief

    with pytest.raises(InvalidArgument):
        text(value, "title", maximum=200)
    with pytest.raises(InvalidArgument) as refused:
        normalize_brief(theme_key="", theme_label="", intent=value, mode="", brand_id="", terms=["t"], target_count=None)
    assert refused.value.reason == "invalid_brief"
