"""Who may import whom: the services and the runtime never reach the dev kit or the gateway, the
runtime knows no context, and the gateway runs without the database and job libraries its image
leaves out (docs/architecture.md, "Shape")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CONTEXTS = ("timeline", "news", "scout")
PACKAGES = {
    "feeds_runtime": REPO / "services/runtime/feeds_runtime",
    **{context: REPO / f"services/{context}/{context}" for context in CONTEXTS},
    "gateway": REPO / "services/gateway/gateway",
}
FORBIDDEN = {
    "feeds_runtime": {"devstack", "gateway", *CONTEXTS},
    **{context: {"devstack", "gateway", *(set(CONTEXTS) - {context})} for context in CONTEXTS},
    "gateway": {"devstack", *CONTEXTS},
}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_imports_only_what_its_layer_may(package):
    wrong = {str(path.relative_to(REPO)): sorted(imported_roots(path) & FORBIDDEN[package])
             for path in PACKAGES[package].rglob("*.py")}
    assert not {path: names for path, names in wrong.items() if names}


def test_only_the_gateways_own_tests_import_its_internals():
    """Elsewhere the gateway is reached over HTTP; its settings class, the documented configuration
    surface, is read through the entry point it declares (devstack.configuration)."""
    outside = [path for path in REPO.glob("**/*.py") if ".venv" not in path.parts and "gateway" not in path.parts
               and "protos" not in path.parts]
    wrong = []
    for path in outside:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "gateway":
                wrong.append(f"{path.relative_to(REPO)}: {node.module}")
            elif isinstance(node, ast.Import):
                wrong += [f"{path.relative_to(REPO)}: {a.name}" for a in node.names if a.name.split(".")[0] == "gateway"]
    assert not wrong


def test_the_gateway_runs_without_database_and_job_libraries():
    # Redis it does use: rate limits, replay and idempotency records live there.
    blocked = ["sqlalchemy", "alembic", "dramatiq", "psycopg", "psycopg_pool"]
    code = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in blocked) + \
        "import gateway.__main__, gateway.app\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
