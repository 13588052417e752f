"""Browser tests: Debian's Chromium driven by Playwright against the real gateway, services and
workers (devstack.platform.Platform on free ports, FEEDS_ENV=dev, so pages can sign in)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine

from devstack.platform import Platform
from devstack.processes import ProcessGroup
from feeds_runtime.settings import normalize_database_url
from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, TIME_ZONE, Member, platform_for_pages
from tests.browser.seeding import ScoutSeed


# Package scope: the stack stops when this folder's tests end, so its workers and relays never
# take jobs of the suites that run after it on the same database.
@pytest.fixture(scope="package")
def platform(tmp_path_factory: pytest.TempPathFactory, platform_env: dict[str, str]) -> Iterator[Platform]:
    group = ProcessGroup(log_dir=tmp_path_factory.mktemp("browser-platform") / "logs", env=platform_env)
    platform = platform_for_pages(group)
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


# Every wait is on what the person sees; on a loaded machine the page may take a while to get there.
ACTION_TIMEOUT_MS = 30_000
EXPECT_TIMEOUT_MS = 20_000
NAVIGATION_TIMEOUT_MS = 60_000


@pytest.fixture
def context(browser) -> Iterator:
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    context = browser.new_context(locale="zh-TW", timezone_id=TIME_ZONE, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
    yield context
    context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.call_failed = report.failed
    return report


@pytest.fixture
def page(context, request, tmp_path):
    page = context.new_page()
    errors: list[str] = []
    # What the page did, shown with a failing test beside a screenshot of where it stopped.
    events: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: events.append(f"console {message.type}: {message.text}"))
    page.on("framenavigated", lambda frame: events.append(f"navigated {frame.url}") if frame == page.main_frame else None)
    page.on("requestfailed", lambda r: events.append(f"request failed {r.method} {r.url}: {r.failure}"))
    page.on("response", lambda r: events.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None)
    yield page
    if getattr(request.node, "call_failed", False) and not page.is_closed():
        page.screenshot(path=tmp_path / "failure.png", full_page=True)
        print("\n".join([f"page at {page.url}; screenshot {tmp_path / 'failure.png'}", *events]))
    assert not errors, f"uncaught errors in the page: {errors}"


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


@pytest.fixture(scope="session")
def news_engine(database_url: str) -> Iterator[Engine]:
    engine = create_engine(normalize_database_url(database_url), pool_size=1)
    yield engine
    engine.dispose()


@pytest.fixture
def scout_seed(member: Member, database_url: str, platform: Platform) -> ScoutSeed:
    return ScoutSeed(database_url, member.id).write()
