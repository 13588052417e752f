"""deploy/README.md is what the platform team configures from: it names every environment variable
every process reads (each package declares its settings class, devstack.configuration)."""

from __future__ import annotations

import re

import pytest

from devstack.configuration import environment_variables, settings_classes
from tests.deploy.support import REPO

README = (REPO / "deploy" / "README.md").read_text()
SETTINGS = settings_classes()


def test_every_process_declares_its_settings():
    assert set(SETTINGS) == {"timeline", "news", "scout", "gateway", "tracing", "grpc-tls"}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_readme_lists_every_environment_variable(name):
    settings = SETTINGS[name]
    prefix = settings.model_config.get("env_prefix", "")
    documented = set(re.findall(r"`([A-Z<][A-Z0-9_<>]+)`", README))
    missing = [variable for variable in environment_variables(settings)
               if variable not in documented and variable.replace(prefix, "<PREFIX>_", 1) not in documented]
    assert not missing, f"deploy/README.md does not document {missing}"
