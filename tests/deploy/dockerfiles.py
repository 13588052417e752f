"""Reading the images' recipes: Dockerfiles (with dockerfile-parse) and the root .dockerignore."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from dockerfile_parse import DockerfileParser

from tests.deploy.support import REPO


@dataclass
class Stage:
    base: str
    instructions: list[tuple[str, str]]  # (INSTRUCTION, value)

    def values(self, instruction: str) -> list[str]:
        return [value for name, value in self.instructions if name == instruction]


def stages(dockerfile: Path) -> list[Stage]:
    parser = DockerfileParser(path=str(dockerfile))
    images = iter(parser.parent_images)  # ARG defaults substituted
    result: list[Stage] = []
    for item in parser.structure:
        if item["instruction"] == "FROM":
            result.append(Stage(next(images), []))
        elif result and item["instruction"] != "COMMENT":
            result[-1].instructions.append((item["instruction"], item["value"]))
    return result


def exec_form(value: str) -> list[str] | None:
    """The argument list of an exec-form instruction, None for the shell form."""
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        return None
    return parsed if isinstance(parsed, list) and all(isinstance(v, str) for v in parsed) else None


def entrypoint(dockerfile: Path) -> list[str]:
    (value,) = stages(dockerfile)[-1].values("ENTRYPOINT")
    parsed = exec_form(value)
    assert parsed, f"{dockerfile.name}: ENTRYPOINT is not in exec form: {value}"
    return parsed


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
