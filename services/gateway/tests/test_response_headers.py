"""What every response says about itself, and requests that say one thing twice: one Authorization
header (or host-signature header) only, `Allow` on a 405 naming every method of the path, `nosniff`
on every response, `no-store` on every API answer (member and host data)."""

from __future__ import annotations

import time
import uuid

import httpx
import jwt
import pytest
from fastapi import APIRouter, Request
from fastapi.testclient import TestClient

from feeds_runtime.signing import sign
from gateway.app import create_app
from gateway.settings import GatewaySettings, HostKey

SECRET = "response-headers-secret-0123456789abcdef"
KEY = HostKey(tenant_id="11111111-1111-1111-1111-111111111111", key_id="key-a", secret="k" * 40)
UNREACHABLE = {f"{name}_address": "127.0.0.1:1" for name in ("timeline", "news", "scout")}


@pytest.fixture
def client():
    app = create_app(GatewaySettings(jwt_secret=SECRET, host_keys=[KEY], rpc_deadline_seconds=1, **UNREACHABLE))
    probe = APIRouter()

    @probe.get("/api/v1/news/_whoami")
    async def whoami(request: Request):
        return {"member": str(request.app.state.member_auth.member(request))}

    @probe.get("/api/v1/timeline/_signed")
    async def signed(request: Request):
        return {"tenant": (await request.app.state.host_signature.verify(request)).tenant_id}

    @probe.get("/api/v1/scout/_crash")
    async def crash():
        raise RuntimeError("a bug")

    app.include_router(probe)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def bearer(member: str) -> str:
    return "Bearer " + jwt.encode({"sub": member, "exp": int(time.time()) + 60}, SECRET, algorithm="HS256")


def signature_headers(path: str) -> list[tuple[str, str]]:
    ts = str(int(time.time()))
    return [("X-Activity-Key-Id", KEY.key_id), ("X-Activity-Timestamp", ts), ("X-Activity-Viewer", ""),
            ("X-Activity-Signature", sign(KEY.secret, "GET", path, "", ts, "", b""))]


def test_two_authorization_headers_are_refused_even_when_both_are_valid(client):
    member = str(uuid.uuid4())
    assert client.get("/api/v1/news/_whoami", headers={"Authorization": bearer(member)}).json() == {"member": member}
    twice = httpx.Headers([("Authorization", bearer(member)), ("Authorization", bearer(str(uuid.uuid4())))])
    for path in ("/api/v1/news/_whoami", "/api/v1/feed/global", "/api/v1/subscriptions", "/api/v1/scout/runs"):
        response = client.get(path, headers=twice)
        assert response.status_code == 401, path


def test_a_signature_header_sent_twice_is_refused(client):
    path = "/api/v1/timeline/_signed"
    good = signature_headers(path)
    assert client.get(path, headers=httpx.Headers(good)).status_code == 200
    for name, value in good:
        response = client.get(path, headers=httpx.Headers([*good, (name, value)]))
        assert response.status_code == 401 and response.json()["error"]["code"] == "invalid_signature", name


@pytest.mark.parametrize("method,path,allowed", [
    ("PATCH", "/api/v1/timeline/posts/p-1", "DELETE, GET"),
    ("POST", "/api/v1/subscriptions/s-1", "DELETE"),
    ("PUT", "/api/v1/scout/runs/r-1", "DELETE, GET"),
    ("HEAD", "/api/v1/feed/global", "GET"),
    ("DELETE", "/healthz", "GET"),
])
def test_405_names_every_method_of_the_path_in_the_contexts_envelope(client, method, path, allowed):
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allowed
    assert method == "HEAD" or "method_not_allowed" in response.text
    for other in allowed.split(", "):
        assert client.request(other, path).status_code != 405, other


def test_every_response_says_nosniff_and_api_answers_are_never_stored(client):
    member = {"Authorization": bearer(str(uuid.uuid4()))}
    path = "/api/v1/timeline/_signed"
    api = [
        client.get("/api/v1/news/_whoami", headers=member),                      # member data
        client.get(path, headers=httpx.Headers(signature_headers(path))),          # host data
        client.get("/api/v1/news/_whoami"),                                      # 401
        client.get("/api/v1/feed/global"),                                       # 503, service unreachable
        client.get("/api/v1/scout/_crash"),                                      # 500
        client.get("/api/v1/nowhere"),                                           # 404
        client.post("/api/v1/feed/global"),                                      # 405
    ]
    assert [r.status_code for r in api] == [200, 200, 401, 503, 500, 404, 405]
    for response in api:
        assert response.headers["x-content-type-options"] == "nosniff", response.request.url
        assert response.headers["cache-control"] == "no-store", response.request.url
    for path in ("/healthz", "/openapi.json", "/feed", "/pages/assets/app.css", "/nowhere"):
        response = client.get(path)
        assert response.headers["x-content-type-options"] == "nosniff", path
        assert response.headers.get("cache-control") != "no-store", path
