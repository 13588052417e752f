"""deploy/README.md is what the platform team configures from: it names every environment variable
every process reads."""

from __future__ import annotations

import re

import pytest
from pydantic_settings import BaseSettings

from feeds_runtime.observability.tracing import TracingSettings
from gateway.settings import GatewaySettings
from news.settings import NewsSettings
from scout.settings import ScoutSettings
from tests.deploy.support import REPO
from timeline.settings import TimelineSettings

README = (REPO / "deploy" / "README.md").read_text()


def variables(settings: type[BaseSettings]) -> list[str]:
    prefix = settings.model_config.get("env_prefix", "")
    return [
        (field.validation_alias if isinstance(field.validation_alias, str) else f"{prefix}{name}").upper()
        for name, field in settings.model_fields.items()
    ]


@pytest.mark.parametrize("settings", [TimelineSettings, NewsSettings, ScoutSettings, GatewaySettings, TracingSettings],
                         ids=lambda s: s.__name__)
def test_readme_lists_every_environment_variable(settings):
    prefix = settings.model_config.get("env_prefix", "")
    documented = set(re.findall(r"`([A-Z<][A-Z0-9_<>]+)`", README))
    missing = [name for name in variables(settings)
               if name not in documented and name.replace(prefix, "<PREFIX>_", 1) not in documented]
    assert not missing, f"deploy/README.md does not document {missing}"
