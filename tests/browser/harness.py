"""What the browser tests and the screenshot script share: Debian's Chromium and how to launch it,
the platform with dev sign-in on free ports, and a member speaking the REST API."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import httpx
import jwt

from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The pages render times in the browser's zone; the tests pin one to assert the conversion.
TIME_ZONE = "Asia/Taipei"
# The gateway's member-token secret for this test process, so a test can mint expired tokens.
JWT_SECRET = "pages-" + uuid.uuid4().hex
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def platform_for_pages(group: ProcessGroup) -> Platform:
    """Every service on free ports, the dev search source, and the gateway's dev sign-in."""
    ports = Ports.free()
    return Platform(group, ports=ports, extra_env={
        # A loaded machine (the tests run beside other work) can make one gRPC call slow.
        "gateway": {"GATEWAY_JWT_SECRET": JWT_SECRET, "GATEWAY_RPC_DEADLINE_SECONDS": "30"},
        "scout": {"SCOUT_SOURCES": "dev"},
    })


class Member:
    """A member of the platform with a dev token, speaking the REST API like a page would."""

    def __init__(self, platform: Platform) -> None:
        self.id = uuid.uuid4()
        self.base_url = platform.gateway_url
        response = httpx.post(f"{self.base_url}/dev/sign-in", json={"memberId": str(self.id)}, timeout=60)
        response.raise_for_status()
        self.token = response.json()["token"]
        self.http = httpx.Client(base_url=self.base_url, headers={"Authorization": f"Bearer {self.token}"},
                                 timeout=60)

    def token_expiring_at(self, expires: float, *, secret: str = JWT_SECRET) -> str:
        """A member token of this member, valid until `expires` (unix seconds)."""
        return jwt.encode({"sub": str(self.id), "iat": int(time.time()) - 10, "exp": int(expires)}, secret,
                          algorithm="HS256")

    def sign_in(self, page, token: str | None = None) -> None:
        """Gives a page of the gateway's origin this member's session (or the given token)."""
        page.goto(f"{self.base_url}/healthz")
        page.evaluate("token => sessionStorage.setItem('feeds.memberToken', token)", token or self.token)


def serious_accessibility_violations(page) -> list[dict]:
    """axe-core (vendored, run offline) on the page as it stands: serious and critical violations."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' '))}))""")
    return violations


def wait_until_held(page, held: list, what: str) -> None:
    """Until a request the test holds (page.route appending to `held`) has been made. Playwright runs
    the route's handler while the test waits on the page, so each short wait lets one arrive."""
    for _ in range(600):
        if held:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{what} was never requested")

