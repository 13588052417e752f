"""Page helpers for the /scout workbench tests."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.seeding import ScoutSeed


LEGACY_THEME = "夜市小吃"  # the fixture's results saved without a run


def fixture_run(n: int) -> str:
    return f"00000000-0000-4000-8000-0000000001{n:02d}"


def fixture_post(n: int) -> str:
    return f"00000000-0000-4000-8000-0000000002{n:02d}"


class ScoutPage:
    def __init__(self, page: Page, seed: ScoutSeed | None = None) -> None:
        self.page = page
        self.seed = seed

    def open(self, member) -> ScoutPage:
        member.sign_in(self.page)
        self.page.goto(f"{member.base_url}/scout?poll=400")
        expect(self.page.locator("#runs > li").first).to_be_visible()
        return self

    # Locators.
    def run(self, n: int):
        return self.page.locator(f'#runs button[data-run-id="{self.seed.id(fixture_run(n))}"]')

    def post(self, n: int):
        return self.page.locator(f'#posts button[data-post-id="{self.seed.id(fixture_post(n))}"]')

    def run_ids(self) -> list[str]:
        return self.page.locator("#runs button[data-run-id]").evaluate_all("els => els.map(e => e.dataset.runId)")

    def post_ids(self) -> list[str]:
        expect(self.page.locator("#posts")).not_to_have_attribute("aria-busy", "true")
        return self.page.locator("#posts button[data-post-id]").evaluate_all("els => els.map(e => e.dataset.postId)")

    def runs_ids_of(self, *ns: int) -> list[str]:
        return [self.seed.id(fixture_run(n)) for n in ns]

    def posts_ids_of(self, *ns: int) -> list[str]:
        return [self.seed.id(fixture_post(n)) for n in ns]

    @property
    def runs_pager(self):
        return self.page.locator("#runs-pager")

    @property
    def posts_pager(self):
        return self.page.locator("#posts-pager")

    # Actions.
    def select_run(self, n: int) -> None:
        self.run(n).click()
        expect(self.run(n)).to_have_attribute("aria-pressed", "true")

    def runs_next(self) -> None:
        self.page.get_by_role("button", name="批次下一頁").click()

    def runs_previous(self) -> None:
        self.page.get_by_role("button", name="批次上一頁").click()

    def posts_next(self) -> None:
        self.page.get_by_role("button", name="結果下一頁").click()

    def delete_selected_run(self) -> None:
        self.page.locator("#run-detail").get_by_role("button", name="刪除批次").click()
        self.page.locator("#run-detail").get_by_role("button", name="確認刪除批次？").click()

    def delete_selected_post(self) -> None:
        # The detail shows the selected result first: a press on the detail of a result that a
        # reload is replacing would confirm nothing.
        expect(self.page.locator("#posts")).not_to_have_attribute("aria-busy", "true")
        selected = self.page.locator('#posts button[data-post-id][aria-pressed="true"]')
        expect(selected).to_have_count(1)
        detail = self.page.locator("#post-detail")
        expect(detail).to_have_attribute("data-post-id", selected.get_attribute("data-post-id") or "")
        detail.get_by_role("button", name="刪除結果").click()
        detail.get_by_role("button", name="確認刪除結果？").click()

    def legacy_run(self):
        return self.page.locator(f'#runs button[data-run-id="{self.seed.legacy_run_id(LEGACY_THEME)}"]')
