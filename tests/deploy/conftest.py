"""Every base and overlay rendered once per test session."""

from __future__ import annotations

import subprocess

import pytest
import yaml

from tests.deploy.support import K8S, KUSTOMIZATIONS, kubectl


@pytest.fixture(scope="session")
def rendered() -> dict[str, list[dict]]:
    """Every base and overlay rendered by `kubectl kustomize`, as lists of objects."""
    result = {}
    for path in KUSTOMIZATIONS:
        completed = subprocess.run([kubectl(), "kustomize", str(K8S / path)], capture_output=True, text=True)
        assert completed.returncode == 0, f"kubectl kustomize {path} failed:\n{completed.stderr}"
        result[path] = [item for item in yaml.safe_load_all(completed.stdout) if item]
    return result
