"""The committed generated contracts are exactly what `make proto` produces from protos/."""

from __future__ import annotations

import filecmp
import importlib.util
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
COMMITTED = REPO_ROOT / "protos" / "gen" / "python"


def _generator():
    spec = importlib.util.spec_from_file_location("protos_generate", REPO_ROOT / "protos" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tree(root: Path) -> dict[str, Path]:
    # Build leftovers of an editable install (egg-info, caches) are not contracts.
    return {str(p.relative_to(root)): p for p in root.rglob("*")
            if p.is_file() and not any(part == "__pycache__" or part.endswith(".egg-info") for part in p.parts)}


def test_generated_code_is_not_stale(tmp_path):
    _generator().generate(tmp_path)
    fresh, committed = _tree(tmp_path), _tree(COMMITTED)
    assert sorted(fresh) == sorted(committed), "run `make proto` and commit protos/gen"
    stale = [name for name in fresh if not filecmp.cmp(fresh[name], committed[name], shallow=False)]
    assert not stale, f"stale generated files (run `make proto`): {stale}"


def test_every_context_has_a_versioned_package():
    for context in ("timeline", "news", "scout"):
        protos = list((REPO_ROOT / "protos" / "feeds" / context / "v1").glob("*.proto"))
        assert protos, f"no contract for {context}"
        for proto in protos:
            assert f"package feeds.{context}.v1;" in proto.read_text()
