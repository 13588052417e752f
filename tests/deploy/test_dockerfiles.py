"""The images' recipe, read without a Docker engine: one Dockerfile builds every image by its SERVICE
build argument; each image is multi-stage on a pinned slim base, runs as a numeric non-root user, and
installs exactly the packages its entry point needs from files the build context really sends."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.deploy.dockerfiles import copies, entrypoint, env, exec_form, ignore_rules, pip_installs, sent_to_build, stages
from tests.deploy.support import DOCKER, DOCKERFILE, IMAGES, REPO, console_scripts, local_packages, pyproject

SECRET_NAMES = re.compile(r"SECRET|PASSWORD|TOKEN|KEY|DATABASE_URL|REDIS_URL|JWT|JWKS", re.I)


def test_one_dockerfile_builds_each_service_and_the_gateway_by_its_build_argument():
    assert sorted(DOCKER.iterdir()) == [DOCKERFILE]
    build = stages("news", DOCKERFILE)[0]
    assert "SERVICE" in [value.split("=")[0] for value in build.values("ARG")], "the build stage declares SERVICE"
    assert {image: entrypoint(image)[0] for image in IMAGES} == {image: f"feeds-{image}" for image in IMAGES}


def local_closure(folder) -> list[str]:
    """The repository folders a package needs installed with it (itself and local dependencies)."""
    by_name = local_packages()
    needed, pending = [], [folder]
    while pending:
        current = pending.pop()
        relative = str(current.relative_to(REPO))
        if relative in needed:
            continue
        needed.append(relative)
        for requirement in pyproject(current)["project"].get("dependencies", []):
            name = re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]
            if name in by_name:
                pending.append(by_name[name])
    return sorted(needed)


@pytest.mark.parametrize("image", IMAGES)
def test_runs_from_a_pinned_slim_base_as_a_numeric_non_root_user(image):
    all_stages = stages(image)
    assert len(all_stages) >= 2, "multi-stage: build tools stay out of the final image"
    for stage in all_stages:
        assert re.fullmatch(r"python:\d+\.\d+\.\d+-slim-[a-z]+(@sha256:[0-9a-f]{64})?", stage.base), stage.base
    final = all_stages[-1]
    (user,) = final.values("USER")
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) > 0 and (not gid or gid.isdigit()), "numeric, so runAsNonRoot can check it"
    variables = env(final)
    assert variables.get("PYTHONUNBUFFERED") == "1"
    assert variables.get("PYTHONDONTWRITEBYTECODE") == "1", "the root filesystem is read-only"
    for stage in all_stages:
        names = list(env(stage)) + [v.split("=")[0] for v in stage.values("ARG")]
        assert not [n for n in names if SECRET_NAMES.search(n)], "no secret is baked into an image"
    assert exec_form(final.values("CMD")[0]) == ["server"]


@pytest.mark.parametrize("image", IMAGES)
def test_entry_point_is_the_console_script_of_the_installed_package(image):
    script = entrypoint(image)
    assert len(script) == 1, "the process kind comes from the manifests' args"
    folder = console_scripts().get(script[0])
    assert folder is not None, f"{script[0]} is declared by no package of the repository"
    assert folder.name == image
    build = stages(image)[0]
    assert sorted(pip_installs(build)) == local_closure(folder)
    python = re.match(r"python:(\d+)\.(\d+)", build.base)
    for relative in local_closure(folder):
        requires = pyproject(REPO / relative)["project"]["requires-python"]
        minimum = tuple(int(n) for n in re.search(r">=\s*(\d+)\.(\d+)", requires).groups())
        assert tuple(int(n) for n in python.groups()) >= minimum, f"{relative} needs Python {requires}"


@pytest.mark.parametrize("image", IMAGES)
def test_install_steps_copy_every_file_of_the_installed_packages(image):
    """Each package pip installs gets its pyproject.toml and its sources from the build context."""
    build = stages(image)[0]
    (workdir,) = build.values("WORKDIR")
    copied = []
    for sources, destination in copies(build):
        for source in sources:
            assert (REPO / source).exists(), f"COPY {source}: no such path in the repository"
            target = destination.rstrip("/") + ("/" + source.rsplit("/", 1)[-1] if destination.endswith("/") else "")
            assert target == source, f"COPY {source} {destination}: keep the repository layout under {workdir}"
            copied.append(source)
    rules = ignore_rules()
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    for folder in pip_installs(build):
        config = pyproject(REPO / folder)
        find = config.get("tool", {}).get("setuptools", {}).get("packages", {}).get("find", {})
        roots = [f"{folder}/{where}" for where in find.get("where", ["."])]
        needed = [f"{folder}/pyproject.toml"] + [
            path for path in tracked for root in roots for include in find.get("include", ["*"])
            if path.startswith(root.rstrip("/.") + "/" + include.rstrip("*")) and path.endswith(".py")
            and "/tests/" not in path
        ]
        assert len(needed) > 1, f"{folder}: no sources found"
        for path in needed:
            assert any(path == c or path.startswith(c.rstrip("/") + "/") for c in copied), f"{path} is not copied"
            assert sent_to_build(path, rules), f"{path} is excluded by .dockerignore"


def test_dockerignore_keeps_data_environments_and_tests_out():
    rules = ignore_rules()
    for path in [".venv/bin/python", ".data/test/pg/base", ".git/HEAD", "tests/deploy/test_dockerfiles.py",
                 "services/timeline/tests/test_x.py", "services/runtime/feeds_runtime/__pycache__/db.cpython-311.pyc",
                 "services/news/feeds_news.egg-info/PKG-INFO", "bench/results/x.json", "deploy/k8s/base/news/server.yaml",
                 "services/scout/eval/dataset.jsonl", "services/timeline/bench/run.py", "protos/feeds/news/v1/news.proto"]:
        assert not sent_to_build(path, rules), f"{path} reaches the build context"
    for path in ["protos/gen/python/feeds/__init__.py", "services/runtime/feeds_runtime/server.py",
                 "services/gateway/pyproject.toml"]:
        assert sent_to_build(path, rules), f"{path} is kept out of the build context"
