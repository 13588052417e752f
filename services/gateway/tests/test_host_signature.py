"""Host request signing exactly as docs/architecture.md fixes it: the signature covers the method, the
path and the raw query string as sent, the timestamp, the viewer and the body's SHA-256."""

from __future__ import annotations

import json
import time

import pytest
from fastapi import APIRouter, Request
from fastapi.testclient import TestClient

from gateway.app import create_app
from feeds_runtime.signing import sign
from gateway.settings import GatewaySettings, HostKey

KEYS = [
    HostKey(tenant_id="11111111-1111-1111-1111-111111111111", key_id="key-a", secret="secret-a"),
    HostKey(tenant_id="22222222-2222-2222-2222-222222222222", key_id="key-b", secret="secret-b"),
]
PATH = "/api/v1/timeline/_signed"


@pytest.fixture
def client():
    app = create_app(GatewaySettings(host_keys=KEYS))
    probe = APIRouter()

    @probe.api_route(PATH, methods=["GET", "POST"])
    async def signed(request: Request):
        call = await request.app.state.host_signature.verify(request)
        return {"tenant": call.tenant_id, "viewer": call.viewer_id}

    app.include_router(probe)
    with TestClient(app) as client:
        yield client


def headers(key: HostKey, method: str, query: str, *, viewer: str = "v-1", body: bytes = b"",
            timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    return {
        "X-Activity-Key-Id": key.key_id,
        "X-Activity-Timestamp": ts,
        "X-Activity-Viewer": viewer,
        "X-Activity-Signature": sign(key.secret, method, PATH, query, ts, viewer, body),
    }


def url(query: str) -> str:
    return f"{PATH}?{query}" if query else PATH


def assert_refused(response) -> None:
    assert response.status_code == 401
    assert response.json() == {"error": {"code": "invalid_signature", "message": response.json()["error"]["message"]}}


def test_a_correctly_signed_request_names_the_key_tenant_and_viewer(client):
    query = "limit=50&cursor=eyJhdCI6IjIwMjYifQ%3D%3D"
    response = client.get(url(query), headers=headers(KEYS[0], "GET", query))
    assert response.status_code == 200
    assert response.json() == {"tenant": KEYS[0].tenant_id, "viewer": "v-1"}


def test_signed_body_is_checked(client):
    body = json.dumps({"body": "hello", "visibility": "public"}).encode()
    signed = headers(KEYS[1], "POST", "", body=body)
    assert client.post(PATH, content=body, headers=signed).json()["tenant"] == KEYS[1].tenant_id
    assert_refused(client.post(PATH, content=body.replace(b"hello", b"hellO"), headers=signed))


def test_tampered_query_string(client):
    signed = headers(KEYS[0], "GET", "limit=10")
    assert_refused(client.get(url("limit=100"), headers=signed))
    assert_refused(client.get(url("limit=10&limit=100"), headers=signed))


def test_reencoded_cursor(client):
    # The host signs the cursor as it sends it; a proxy or client that decodes padding breaks the signature.
    signed_query = "cursor=eyJhdCI6IjIwMjYifQ%3D%3D&limit=5"
    signed = headers(KEYS[0], "GET", signed_query)
    assert_refused(client.get(url("cursor=eyJhdCI6IjIwMjYifQ==&limit=5"), headers=signed))
    assert_refused(client.get(url("limit=5&cursor=eyJhdCI6IjIwMjYifQ%3D%3D"), headers=signed))
    assert client.get(url(signed_query), headers=signed).status_code == 200


def test_stale_and_future_timestamps(client):
    now = int(time.time())
    assert_refused(client.get(PATH, headers=headers(KEYS[0], "GET", "", timestamp=now - 301)))
    # The clock is read again, with a margin: the request above may take seconds on a loaded machine.
    assert_refused(client.get(PATH, headers=headers(KEYS[0], "GET", "", timestamp=int(time.time()) + 305)))
    assert client.get(PATH, headers=headers(KEYS[0], "GET", "", timestamp=now - 250)).status_code == 200


def test_non_ascii_digits_in_the_timestamp(client):
    signed = headers(KEYS[0], "GET", "")
    # Header bytes are read as Latin-1, where b"\xb2" is "²": a digit to str.isdigit, not to int().
    assert_refused(client.get(PATH, headers={**signed, "X-Activity-Timestamp": b"\xb2"}))


def test_wrong_tenant_key(client):
    # Signed with tenant B's secret while naming tenant A's key: refused, never served as either tenant.
    forged = headers(KEYS[0], "GET", "")
    forged["X-Activity-Signature"] = headers(KEYS[1], "GET", "")["X-Activity-Signature"]
    assert_refused(client.get(PATH, headers=forged))


def test_unknown_key_missing_headers_and_changed_viewer(client):
    unknown = HostKey(tenant_id=KEYS[0].tenant_id, key_id="key-x", secret="secret-a")
    assert_refused(client.get(PATH, headers=headers(unknown, "GET", "")))
    assert_refused(client.get(PATH))
    signed = headers(KEYS[0], "GET", "", viewer="v-1")
    assert_refused(client.get(PATH, headers={**signed, "X-Activity-Viewer": "v-2"}))
