"""Member tokens live at most GATEWAY_JWT_MAX_LIFETIME_SECONDS (24 h unless configured): a token whose
`exp` lies further past now, or past its own `iat`, is refused like any invalid token."""

from __future__ import annotations

import time
import uuid

import jwt
import pytest
from fastapi import Request
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.settings import GatewaySettings

SECRET = "member-tokens-secret-0123456789abcdef"
DAY = 24 * 3600


def gateway(**settings) -> TestClient:
    app = create_app(GatewaySettings(jwt_secret=SECRET, **settings))

    @app.get("/api/v1/news/_whoami")
    async def whoami(request: Request):
        return {"member": str(request.app.state.member_auth.member(request))}

    return TestClient(app)


def status(client: TestClient, claims: dict) -> int:
    token = jwt.encode({"sub": str(uuid.uuid4()), **claims}, SECRET, algorithm="HS256")
    return client.get("/api/v1/news/_whoami", headers={"Authorization": f"Bearer {token}"}).status_code


def test_a_day_is_the_longest_a_token_lives_by_default():
    client = gateway()
    now = int(time.time())
    assert status(client, {"iat": now, "exp": now + DAY}) == 200
    assert status(client, {"exp": now + DAY - 5}) == 200
    for claims in ({"exp": 10**30}, {"exp": now + DAY + 60}, {"iat": now, "exp": now + DAY + 60},
                   # issued long ago with a long life: it has not a day left, but lived more than one
                   {"iat": now - 3 * DAY, "exp": now + 60}, {"exp": str(now + 10 * DAY)}):
        assert status(client, claims) == 401, claims


@pytest.mark.parametrize("lifetime,ok", [(600, False), (7200, True)])
def test_the_limit_is_configurable(lifetime, ok):
    now = int(time.time())
    assert status(gateway(jwt_max_lifetime_seconds=lifetime), {"iat": now, "exp": now + 3600}) == (200 if ok else 401)
