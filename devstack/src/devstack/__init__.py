"""The dev kit: the whole platform on one machine for `make run`, the tests and the benchmarks.
Never installed in an image; it works from a checkout of the repository."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = REPO_ROOT / ".data"
