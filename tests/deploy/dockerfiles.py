"""Reading the images' recipe: the one Dockerfile (with dockerfile-parse), as Docker builds it for each
SERVICE build argument, and the root .dockerignore."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from dockerfile_parse import DockerfileParser

from tests.deploy.support import DOCKERFILE, REPO

# Instructions whose values Docker expands build arguments in (RUN through the shell); never
# ENTRYPOINT or CMD in exec form.
EXPANDED = {"ADD", "COPY", "ENV", "EXPOSE", "LABEL", "RUN", "USER", "WORKDIR"}


@dataclass
class Stage:
    base: str
    instructions: list[tuple[str, str]]  # (INSTRUCTION, value)

    def values(self, instruction: str) -> list[str]:
        return [value for name, value in self.instructions if name == instruction]


def stages(service: str, dockerfile: Path = DOCKERFILE) -> list[Stage]:
    """The stages as built with `--build-arg SERVICE=<service>`; a stage sees the argument only
    after its own `ARG SERVICE`."""
    parser = DockerfileParser(path=str(dockerfile), build_args={"SERVICE": service})
    images = iter(parser.parent_images)  # ARG defaults substituted
    result: list[Stage] = []
    declared = False
    for item in parser.structure:
        instruction, value = item["instruction"], item["value"]
        if instruction == "FROM":
            result.append(Stage(next(images), []))
            declared = False
        elif result and instruction != "COMMENT":
            if instruction == "ARG" and value.split("=")[0] == "SERVICE":
                declared = True
            if declared and instruction in EXPANDED:
                value = value.replace("${SERVICE}", service).replace("$SERVICE", service)
            result[-1].instructions.append((instruction, value))
    return result


def exec_form(value: str) -> list[str] | None:
    """The argument list of an exec-form instruction, None for the shell form."""
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        return None
    return parsed if isinstance(parsed, list) and all(isinstance(v, str) for v in parsed) else None


def links(stage: Stage) -> dict[str, str]:
    """Scripts linked in RUN steps (`ln -s <target> /opt/venv/bin/<name>`): name -> target."""
    found = {}
    for value in stage.values("RUN"):
        for command in re.split(r"&&|;", value):
            tokens = shlex.split(command)
            if tokens[:2] == ["ln", "-s"] and len(tokens) == 4:
                found[tokens[3].rsplit("/", 1)[-1]] = tokens[2].rsplit("/", 1)[-1]
    return found


def entrypoint(service: str) -> list[str]:
    """The image's entry point in exec form, a linked script resolved to the script it names."""
    all_stages = stages(service)
    (value,) = all_stages[-1].values("ENTRYPOINT")
    parsed = exec_form(value)
    assert parsed, f"ENTRYPOINT is not in exec form: {value}"
    linked = {name: target for stage in all_stages for name, target in links(stage).items()}
    return [linked.get(parsed[0], parsed[0]), *parsed[1:]]


def env(stage: Stage) -> dict[str, str]:
    result = {}
    for value in stage.values("ENV"):
        for token in shlex.split(value):
            key, _, item = token.partition("=")
            result[key] = item
    return result


def copies(stage: Stage) -> list[tuple[list[str], str]]:
    """(sources, destination) of each COPY from the build context."""
    result = []
    for value in stage.values("COPY") + stage.values("ADD"):
        tokens = [t for t in shlex.split(value) if not t.startswith("--")]
        if any(t.startswith("--from") for t in shlex.split(value)):
            continue
        result.append((tokens[:-1], tokens[-1]))
    return result


def pip_installs(stage: Stage) -> list[str]:
    """The local folders given to `pip install` in RUN steps."""
    folders = []
    for value in stage.values("RUN"):
        for command in re.split(r"&&|;", value):
            tokens = shlex.split(command)
            if "pip" in " ".join(tokens[:1]) and "install" in tokens:
                folders += [t.removeprefix("./") for t in tokens if t.startswith("./")]
    return folders


def _pattern(pattern: str) -> re.Pattern:
    """A .dockerignore pattern as a regular expression (Go filepath.Match plus `**`)."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        elif pattern[i] == "[":
            end = pattern.index("]", i)
            out += pattern[i : end + 1]
            i = end + 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def ignore_rules() -> list[tuple[re.Pattern, bool]]:
    """(pattern, excludes) in file order; the last rule matching a path or a parent of it decides."""
    rules = []
    for line in (REPO / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        rules.append((_pattern(line.removeprefix("!").strip("/")), not negate))
    return rules


def sent_to_build(path: str, rules: list[tuple[re.Pattern, bool]]) -> bool:
    """Whether a repository path (relative, `/`-separated) reaches the Docker build context."""
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    excluded = False
    for pattern, excludes in rules:
        if any(pattern.match(candidate) for candidate in candidates):
            excluded = excludes
    return not excluded
