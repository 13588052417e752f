"""Generate the Python contracts (messages, gRPC stubs and .pyi) from every .proto under protos/feeds.

One code-generation path for all services and the gateway:

    python protos/generate.py [OUT_DIR]

OUT_DIR defaults to protos/gen/python; the staleness test generates into a temporary folder and
compares it with the committed tree.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

PROTO_ROOT = Path(__file__).resolve().parent
DEFAULT_OUT = PROTO_ROOT / "gen" / "python"


def generate(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    well_known = resources.files("grpc_tools") / "_proto"
    failed = []
    # One protoc run per package, so a broken file in one context never blocks the others.
    for package_dir in sorted({source.parent for source in PROTO_ROOT.glob("feeds/**/*.proto")}):
        args = [
            "grpc_tools.protoc",
            f"-I{PROTO_ROOT}",
            f"-I{well_known}",
            f"--python_out={out_dir}",
            f"--pyi_out={out_dir}",
            f"--grpc_python_out={out_dir}",
            *(str(source.relative_to(PROTO_ROOT)) for source in sorted(package_dir.glob("*.proto"))),
        ]
        if protoc.main(args) != 0:
            failed.append(str(package_dir.relative_to(PROTO_ROOT)))
    # Explicit packages, so the contracts import the same way installed or from a checkout.
    for package_dir in {p.parent for p in out_dir.glob("feeds/**/*.py")} | {out_dir / "feeds"}:
        current = package_dir
        while current != out_dir:
            (current / "__init__.py").touch()
            current = current.parent
    (out_dir / "feeds" / "py.typed").touch()
    if failed:
        raise SystemExit(f"protoc failed for {', '.join(failed)}")
    return sorted(out_dir.rglob("*.py*"))


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT)
