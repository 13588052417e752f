"""Reading deploy/: rendered manifests, Dockerfiles and the packages they install."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
K8S = REPO / "deploy" / "k8s"
DOCKER = REPO / "deploy" / "docker"
DOCKERFILE = DOCKER / "Dockerfile"
SERVICES = ("timeline", "news", "scout")
# The images the one Dockerfile builds, by its SERVICE build argument.
IMAGES = (*SERVICES, "gateway")
BASES = [f"base/{name}" for name in (*SERVICES, "gateway")]
OVERLAYS = ["overlays/dev", "overlays/production"]
KUSTOMIZATIONS = BASES + OVERLAYS
WORKLOADS = ("Deployment", "StatefulSet", "DaemonSet", "Job")


def kubectl() -> str:
    """The pinned kubectl of the project's environment (requirements-dev), else the machine's."""
    beside = Path(sys.executable).parent / "kubectl"
    found = str(beside) if beside.exists() else shutil.which("kubectl")
    if found is None:
        pytest.fail("kubectl not found: run `make install`")
    return found


def pod_specs(objects: list[dict]) -> list[tuple[dict, dict]]:
    """(workload, pod spec) for every workload among `objects`."""
    return [(item, item["spec"]["template"]["spec"]) for item in objects if item["kind"] in WORKLOADS]


def config_env(objects: list[dict], pod: dict, container: dict) -> dict[str, str]:
    """The environment a container gets from its ConfigMaps and literal values (secrets left out)."""
    maps = {item["metadata"]["name"]: item.get("data", {}) for item in objects if item["kind"] == "ConfigMap"}
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            env.update(maps[source["configMapRef"]["name"]])
    for variable in container.get("env", []):
        if "value" in variable:
            env[variable["name"]] = variable["value"]
    return env


def image_name(image: str) -> str:
    """`registry.example.com/feeds/timeline:0.1.0` -> `timeline`."""
    return re.sub(r"[:@].*$", "", image.rsplit("/", 1)[-1])


def project_image(image: str) -> str | None:
    """The SERVICE build argument an image is built with, when it is one of the project's images."""
    name = image_name(image)
    return name if name in IMAGES and image.split(":")[0].split("@")[0].endswith(f"feeds/{name}") else None


def pyproject(directory: Path) -> dict:
    return tomllib.loads((directory / "pyproject.toml").read_text())


@functools.cache
def local_packages() -> dict[str, Path]:
    """Distribution name -> folder, for every package of the repository."""
    folders = [REPO / "protos", *(p.parent for p in (REPO / "services").glob("*/pyproject.toml"))]
    return {pyproject(folder)["project"]["name"]: folder for folder in folders}


@functools.cache
def console_scripts() -> dict[str, Path]:
    """Console script -> package folder declaring it."""
    return {
        script: folder
        for folder in local_packages().values()
        for script in pyproject(folder)["project"].get("scripts", {})
    }


def venv_script(script: str) -> str:
    path = Path(sys.executable).parent / script
    assert path.exists(), f"{script} is not installed in {path.parent}: run `make install`"
    return str(path)


def run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, env={**os.environ, **kwargs.pop("env", {})}, **kwargs)
