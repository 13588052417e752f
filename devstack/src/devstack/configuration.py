"""The configuration surface each package of the workspace declares: its settings class, named in its
pyproject.toml under the entry point group `feeds.settings`, and the environment variables that class
reads. Tests read another package's settings this way, never through its modules."""

from __future__ import annotations

from importlib.metadata import entry_points

from pydantic_settings import BaseSettings

GROUP = "feeds.settings"


def settings_classes() -> dict[str, type[BaseSettings]]:
    """Every declared settings class, by its entry point's name (timeline, news, scout, gateway, tracing)."""
    return {entry.name: entry.load() for entry in entry_points(group=GROUP)}


def environment_variables(settings: type[BaseSettings]) -> list[str]:
    """The variables a settings class reads: its prefix and field name, or the field's own alias."""
    prefix = settings.model_config.get("env_prefix", "")
    return [
        (field.validation_alias if isinstance(field.validation_alias, str) else f"{prefix}{name}").upper()
        for name, field in settings.model_fields.items()
    ]
