"""Dictionaries held as memory-mapped tries (marisa-trie) rather than Python objects: a dictionary of
hundreds of thousands of words takes a few MiB of file pages, which every scout process maps from
the same file and so shares, where a dict of it takes tens of MiB in each process.

A trie is built once from its source data, in a child process (the building's memory never stays
in a server or worker), and cached under the user's cache folder by a hash of the data and of the
module that builds it, so new data or a new way of reading it builds anew."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import marisa_trie

Trie = TypeVar("Trie", marisa_trie.Trie, marisa_trie.RecordTrie, marisa_trie.BytesTrie)
# What a build gives: the trie, and small facts about the dictionary kept beside it (JSON).
Built = tuple[Trie, dict[str, Any]]

CACHE_DIR = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "feeds-scout"


def mapped(name: str, empty: Callable[[], Trie], build: Callable[..., Built], *sources: Path) -> Built:
    """The trie `build` makes from `sources` (and its facts), mapped from the cache, built first
    when the cache has none for these sources and this builder. `empty` makes the trie to map into;
    `build` must be a module-level function (a child process imports it and calls it with `sources`)."""
    digest = hashlib.sha256()
    for source in (*sources, Path(build.__code__.co_filename)):
        digest.update(source.read_bytes())
    path = CACHE_DIR / f"{name}-{digest.hexdigest()[:16]}.marisa"
    facts = path.with_suffix(".json")
    if not path.exists():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", __name__, build.__module__, build.__name__, str(path),
                        *map(str, sources)], check=True)
        # Builds of older data or code are never read again (a process still mapping one keeps it);
        # another process's partial files are left to it.
        for stale in CACHE_DIR.glob(f"{name}-*"):
            if stale.suffix in (".marisa", ".json") and stale.stem.rsplit("-", 1)[0] == name \
                    and stale.stem != path.stem:
                stale.unlink(missing_ok=True)
    return empty().mmap(str(path)), json.loads(facts.read_text(encoding="utf-8"))


def _save(build: Callable[..., Built], path: Path, sources: list[Path]) -> None:
    """Both files written under a name of this process, then renamed into place, the trie last: a
    process building at the same time, or one that died halfway, never leaves a partial file under
    the name that readers open."""
    trie, facts = build(*sources)
    partial = f".{os.getpid()}.partial"
    facts_path = path.with_suffix(".json")
    Path(f"{facts_path}{partial}").write_text(json.dumps(facts), encoding="utf-8")
    os.replace(f"{facts_path}{partial}", facts_path)
    trie.save(f"{path}{partial}")
    os.replace(f"{path}{partial}", path)


if __name__ == "__main__":
    module, function, target, *paths = sys.argv[1:]
    _save(getattr(importlib.import_module(module), function), Path(target), [Path(p) for p in paths])
