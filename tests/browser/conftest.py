"""Browser tests: Debian's Chromium driven by Playwright against the real gateway, services and
workers (devstack.platform.Platform on free ports, dev mode on so pages can sign in)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from devstack.platform import Platform, Ports
from feeds_runtime.infra import free_port
from feeds_runtime.processes import ProcessGroup
from tests.browser.seeding import ScoutSeed

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
JWT_SECRET = "browser-tests-secret-" + uuid.uuid4().hex
# The pages render times in the browser's zone; the tests pin one to assert the conversion.
TIME_ZONE = "Asia/Taipei"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def platform(tmp_path_factory: pytest.TempPathFactory, platform_env: dict[str, str]) -> Iterator[Platform]:
    group = ProcessGroup(log_dir=tmp_path_factory.mktemp("browser-platform") / "logs", env=platform_env)
    ports = Ports(timeline=free_port(), news=free_port(), scout=free_port(), gateway=free_port())
    platform = Platform(group, ports=ports, extra_env={
        "gateway": {"GATEWAY_DEV_MODE": "true", "GATEWAY_JWT_SECRET": JWT_SECRET},
        "scout": {"SCOUT_SOURCES": "dev"},
    })
    try:
        platform.start()
        yield platform
    finally:
        group.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser) -> Iterator:
    context = browser.new_context(locale="zh-TW", timezone_id=TIME_ZONE, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"uncaught errors in the page: {errors}"


class Member:
    """A member of the platform with a dev token, speaking the REST API like a page would."""

    def __init__(self, platform: Platform) -> None:
        self.id = uuid.uuid4()
        self.base_url = platform.gateway_url
        response = httpx.post(f"{self.base_url}/dev/sign-in", json={"memberId": str(self.id)})
        response.raise_for_status()
        self.token = response.json()["token"]
        self.http = httpx.Client(base_url=self.base_url, headers={"Authorization": f"Bearer {self.token}"}, timeout=15)

    def sign_in(self, page) -> None:
        """Gives a page of the gateway's origin this member's session."""
        page.goto(f"{self.base_url}/healthz")
        page.evaluate("token => sessionStorage.setItem('feeds.memberToken', token)", self.token)


@pytest.fixture
def member(platform: Platform) -> Iterator[Member]:
    member = Member(platform)
    yield member
    member.http.close()


@pytest.fixture
def new_member(platform: Platform):
    created: list[Member] = []

    def make() -> Member:
        created.append(Member(platform))
        return created[-1]

    yield make
    for one in created:
        one.http.close()


@pytest.fixture
def scout_seed(member: Member, database_url: str, platform: Platform) -> ScoutSeed:
    return ScoutSeed(database_url, member.id).write()
