"""The dictionaries mapped from tries hold exactly what the libraries' own tables hold, and a
trie is built once per source and builder."""

from __future__ import annotations

import os
from pathlib import Path

import jieba
import jieba.posseg
import pytest
from pypinyin.phrases_dict import phrases_dict

from scout.pipeline import mapped, romanize, text


def test_the_mapped_jieba_dictionary_is_jiebas_own_table_with_its_tags() -> None:
    frequencies, total = jieba.Tokenizer.gen_pfdict(jieba.get_dict_file())
    tags = jieba.posseg.POSTokenizer(jieba.Tokenizer()).word_tag_tab
    table = text._base().FREQ
    assert text._base().total == total
    assert all(table[word] == freq and text.dictionary_tag(word) == tags.get(word) for word, freq in frequencies.items())
    assert "鬼滅之刃x" not in table and text.dictionary_frequency("鬼滅之刃x") == 0 and text.dictionary_tag("鬼滅之刃x") is None


def test_words_a_tokenizer_adds_stay_in_that_tokenizer() -> None:
    added = text.tokenizer_with(["草东没有派对"])
    assert added.lcut("草东没有派对", HMM=False) == ["草东没有派对"]
    assert text.tokenizer_with([]).lcut("草东没有派对", HMM=False) != ["草东没有派对"]
    assert text.dictionary_frequency("草东没有派对") == 0


def test_the_mapped_pinyin_phrases_are_pypinyins_own() -> None:
    romanize._mapped_phrases()
    phrases = romanize.converter.PHRASES_DICT  # type: ignore[attr-defined]
    assert len(phrases) == len(phrases_dict)
    assert all(phrases[phrase] == readings for phrase, readings in phrases_dict.items())
    prefixes = {p[:end] for p in phrases_dict for end in range(1, len(p) + 1)}
    assert all(prefix in romanize.mmseg.seg._prefix_set for prefix in prefixes)
    assert "长市" not in romanize.mmseg.seg._prefix_set
    assert romanize.syllables("市长") == ["shi zhang", "shih chang"]


def test_a_trie_is_built_once_and_builds_of_other_data_are_removed(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mapped, "CACHE_DIR", tmp_path)
    stale = tmp_path / "jieba-0000000000000000.marisa"
    stale.write_bytes(b"")
    other = tmp_path / "jieba-tags-0000000000000000.marisa"
    other.write_bytes(b"")
    source = Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME)

    def load() -> tuple[object, dict]:
        return mapped.mapped("jieba", lambda: text.marisa_trie.RecordTrie(text._RECORD), text._build_dictionary,
                             source)

    trie, facts = load()
    built = next(p for p in tmp_path.glob("jieba-*.marisa") if p not in (stale, other))
    assert facts == {"total": text._dictionary()[1]} and "中国" in trie
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([built.name, built.with_suffix(".json").name,
                                                                other.name])
    os.utime(built, (0, 0))
    load()
    assert built.stat().st_mtime == 0
