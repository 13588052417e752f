"""The one folded form: width, case, Latin accents, Traditional = Simplified, white space."""

from __future__ import annotations

import pytest

from feeds_runtime.folding import fold, fold_letters, simplified


@pytest.mark.parametrize(("written", "folded"), [
    ("ＦＵＬＬ　Width", "full width"),
    ("Café  CRÈME", "cafe creme"),
    ("臺灣 電視", "台湾 电视"),
    ("小高姊 妳好", "小高姐 你好"),
    ("ﾈﾀﾊﾞﾚ", "ネタバレ"),
    ("  plain\ttext\n", "plain text"),
])
def test_fold(written, folded):
    assert fold(written) == folded
    assert fold(folded) == folded  # folding a folded text changes nothing


def test_the_parts_keep_what_they_do_not_fold():
    assert fold_letters("臺灣 Café") == "臺灣 cafe"
    assert simplified("臺灣 Café") == "台湾 Café"
