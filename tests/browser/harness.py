"""What the browser tests and the screenshot script share: Debian's Chromium and how to launch it,
the platform with dev sign-in on free ports, and a member speaking the REST API."""

from __future__ import annotations

import uuid

import httpx

from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The pages render times in the browser's zone; the tests pin one to assert the conversion.
TIME_ZONE = "Asia/Taipei"


def platform_for_pages(group: ProcessGroup) -> Platform:
    """Every service on free ports, the dev search source, and the gateway's dev sign-in."""
    ports = Ports.free()
    return Platform(group, ports=ports, extra_env={
        "gateway": {"GATEWAY_DEV_MODE": "true", "GATEWAY_JWT_SECRET": "pages-" + uuid.uuid4().hex},
        "scout": {"SCOUT_SOURCES": "dev"},
    })


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
