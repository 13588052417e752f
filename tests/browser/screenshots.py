"""Screenshots of /scout and /feed for the README (docs/screenshots/), taken like the browser tests
take them: the whole platform on free ports, the scout fixture seeded, a few published news posts.

    .venv/bin/python -m tests.browser.screenshots
"""

from __future__ import annotations

import tempfile
import time
import uuid
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from devstack import infra
from devstack.processes import ProcessGroup
from devstack.testing import TEST_DATA_DIR
from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, TIME_ZONE, Member, platform_for_pages
from tests.browser.seeding import ScoutSeed

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
NEWS = [
    ("台南老街修復完成，週末開放參觀", "修復後的老街保留了日治時期的立面，週末起開放民眾參觀。"),
    ("新竹科學園區第三期擴建動工", "園區第三期擴建今日動工，預計兩年後完工。"),
    ("台北捷運環狀線北環段進度報告", "北環段土建工程已完成六成，預計明年通車。"),
]


def main() -> None:
    resolved = infra.resolve(TEST_DATA_DIR)
    database_url = resolved.server_url(f"feeds_shots_{uuid.uuid4().hex[:12]}")
    infra.ensure_database(database_url)
    env = {"DATABASE_URL": database_url, "REDIS_URL": resolved.redis_url,
           "REDIS_NAMESPACE": f"shots-{uuid.uuid4().hex[:8]}", "PYTHONUNBUFFERED": "1"}
    group = ProcessGroup(log_dir=Path(tempfile.mkdtemp()) / "logs", env=env)
    platform = platform_for_pages(group)
    try:
        platform.start()
        reader, author = Member(platform), Member(platform)
        seed = ScoutSeed(database_url, reader.id).write()
        for title, body in NEWS:
            post = author.http.post("/api/v1/news/posts", json={"title": title, "body": body}).json()
            author.http.post(f"/api/v1/news/posts/{post['id']}/publish").raise_for_status()
        reader.http.post("/api/v1/subscriptions", json={"targetKind": "Author", "targetUserId": str(author.id)})
        OUT.mkdir(parents=True, exist_ok=True)
        expect.set_options(timeout=30_000)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for width, suffix in ((1280, ""), (360, "-360")):
                context = browser.new_context(locale="zh-TW", timezone_id=TIME_ZONE,
                                              viewport={"width": width, "height": 900})
                page = context.new_page()
                reader.sign_in(page)
                page.goto(f"{platform.gateway_url}/scout")
                page.locator(f'#runs button[data-run-id="{seed.id("00000000-0000-4000-8000-000000000102")}"]').click()
                expect(page.locator("#posts-pager")).to_contain_text("共 11 筆")
                page.locator("#posts button[data-post-id]").nth(4).click()
                expect(page.get_by_role("heading", name="貼文明細")).to_be_focused()
                page.screenshot(path=OUT / f"scout{suffix}.png", full_page=True)
                if not suffix:
                    page.locator("#posts button[data-post-id]").nth(0).click()
                    page.get_by_label("回覆草稿").fill("謝謝分享！想請教您推薦的是哪一場？")
                    page.get_by_role("button", name="草擬", exact=True).click()
                    expect(page.locator("#post-message")).to_have_text("已儲存草稿。")
                    page.locator("#post-panel").screenshot(path=OUT / "scout-draft.png")
                page.goto(f"{platform.gateway_url}/feed")
                expect(page.locator("li.card")).to_have_count(len(NEWS))
                page.screenshot(path=OUT / f"feed{suffix}.png", full_page=True)
                if not suffix:
                    page.locator("li.card h3 a").first.click()
                    expect(page.locator("#post-body")).not_to_be_empty()
                    page.screenshot(path=OUT / "feed-post.png", full_page=True)
                    reader.sign_in(page, reader.token_expiring_at(time.time() - 60))
                    page.goto(f"{platform.gateway_url}/feed")
                    expect(page.locator("#feed-message")).to_contain_text("登入已過期")
                    page.screenshot(path=OUT / "feed-signed-out.png", full_page=True)
                context.close()
            browser.close()
    finally:
        group.stop()
        infra.drop_database(database_url)
    print(f"screenshots in {OUT}")


if __name__ == "__main__":
    main()
