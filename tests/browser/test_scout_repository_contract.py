"""One contract, two scout repositories (docs/scout.md 5.2 and 9): the mock over the fixture and
the live one over the REST API with the same fixture seeded for a member, run in the browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.seeding import FIXTURE_PREFIX

CONTRACT = (Path(__file__).parent / "scout_contract.js").read_text(encoding="utf-8")
CONTRACT_URL = "/__tests__/scout_contract.js"

RUN_CONTRACT = """async ({kind, prefix}) => {
  const repositories = await import('/pages/assets/scout/repository.js');
  const { runScoutContract } = await import('%s');
  const repository = kind === 'mock'
    ? repositories.createMockRepository(await (await fetch('/pages/assets/scout/fixtures.json')).json())
    : repositories.createLiveRepository();
  const id = (fixtureId) => prefix + fixtureId.slice(%d);
  return runScoutContract(repository, id);
}""" % (CONTRACT_URL, len(FIXTURE_PREFIX))


def run_contract(page, base_url: str, kind: str, prefix: str) -> list[dict]:
    page.route(f"{base_url}{CONTRACT_URL}", lambda route: route.fulfill(
        status=200, content_type="text/javascript", body=CONTRACT))
    return page.evaluate(RUN_CONTRACT, {"kind": kind, "prefix": prefix})


def assert_contract(results: list[dict]) -> None:
    failed = [result for result in results if not result["ok"]]
    assert len(results) == 22, json.dumps(results, ensure_ascii=False)
    assert not failed, json.dumps(failed, ensure_ascii=False, indent=1)


@pytest.mark.browser
def test_mock_repository_passes_the_contract(page, platform):
    page.goto(f"{platform.gateway_url}/healthz")
    assert_contract(run_contract(page, platform.gateway_url, "mock", FIXTURE_PREFIX))


@pytest.mark.browser
def test_live_repository_passes_the_same_contract(page, platform, member, scout_seed):
    member.sign_in(page)
    assert_contract(run_contract(page, platform.gateway_url, "live", scout_seed.prefix))
