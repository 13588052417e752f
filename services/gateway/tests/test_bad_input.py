"""Input that once answered 500 through the gateway, each refused in its context's envelope before any
service is called (the gateway here has no reachable service): oversized timestamps, lone surrogates,
deep nesting, hostile asset paths, a trailing slash under a forged Host, and a service cancelling or
failing over mid-call."""

from __future__ import annotations

import json
import time
import uuid

import grpc
import jwt
import pytest
from fastapi import APIRouter
from fastapi.testclient import TestClient
from google.rpc import status_pb2
from grpc_status import rpc_status

from gateway.app import create_app
from feeds_runtime.signing import sign
from gateway.settings import GatewaySettings, HostKey

SECRET = "bad-input-tests-secret-0123456789"
KEY = HostKey(tenant_id=str(uuid.uuid4()), key_id="key-a", secret="secret-a-0123456789abcdef")
UNREACHABLE = {f"{name}_address": "127.0.0.1:1" for name in ("timeline", "news", "scout")}


class StatusError(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode) -> None:
        self._status = rpc_status.to_status(status_pb2.Status(code=code.value[0], message="gone"))

    def code(self):
        return self._status.code

    def details(self):
        return self._status.details

    def trailing_metadata(self):
        return self._status.trailing_metadata


@pytest.fixture
def client():
    app = create_app(GatewaySettings(jwt_secret=SECRET, host_keys=[KEY], rpc_deadline_seconds=1, **UNREACHABLE))
    probe = APIRouter()
    for prefix in ("/api/v1/timeline", "/api/v1/feed", "/api/v1/scout"):
        @probe.get(prefix + "/_status/{name}")
        async def fail(name: str):
            raise StatusError(getattr(grpc.StatusCode, name))
    app.include_router(probe)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def bearer() -> dict[str, str]:
    claims = {"sub": str(uuid.uuid4()), "exp": int(time.time()) + 60}
    return {"Authorization": f"Bearer {jwt.encode(claims, SECRET, algorithm='HS256')}", "Content-Type": "application/json"}


def signed(method: str, path: str, body: bytes = b"", *, timestamp: str | None = None) -> dict[str, str]:
    ts = timestamp or str(int(time.time()))
    viewer = str(uuid.uuid4())
    return {"X-Activity-Key-Id": KEY.key_id, "X-Activity-Timestamp": ts, "X-Activity-Viewer": viewer,
            "X-Activity-Signature": sign(KEY.secret, method, path, "", ts, viewer, body),
            "Content-Type": "application/json"}


def test_a_timestamp_of_hundreds_of_digits_is_an_invalid_signature(client):
    for timestamp in ("9" * 400, "1" * 5000, "0" * 13 + str(int(time.time()))):
        response = client.get("/api/v1/timeline/home", headers=signed("GET", "/api/v1/timeline/home", timestamp=timestamp))
        assert response.status_code == 401 and response.json()["error"]["code"] == "invalid_signature"


SURROGATE = b'"\\ud800"'  # the JSON escape of a lone UTF-16 surrogate


@pytest.mark.parametrize(("path", "body", "envelope_code"), [
    ("/api/v1/news/posts", b'{"title": %s, "body": "b"}' % SURROGATE, "VALIDATION_ERROR"),
    ("/api/v1/news/posts", b'{"title": "t", "body": "x\\udfff"}', "VALIDATION_ERROR"),
    ("/api/v1/subscriptions", b'{"targetKind": %s}' % SURROGATE, "VALIDATION_ERROR"),
    ("/api/v1/scout/scan", b'{"brief": {"intent": "i", "terms": [%s]}}' % SURROGATE, "invalid_argument"),
    ("/api/v1/scout/scan", b'{"brief": {"intent": "i", "terms": ["t"], %s: 1}}' % SURROGATE, "invalid_argument"),
])
def test_lone_surrogates_are_a_validation_error(client, path, body, envelope_code):
    response = client.post(path, content=body, headers=bearer())
    assert response.status_code == 400
    payload = response.json()
    assert envelope_code in (payload.get("code"), payload.get("error"))


def test_a_lone_surrogate_in_a_signed_post_is_invalid_request(client):
    path, body = "/api/v1/timeline/posts", b'{"body": %s}' % SURROGATE
    response = client.post(path, content=body, headers=signed("POST", path, body))
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request"


def test_deeply_nested_json_is_refused_on_every_context(client):
    deep = b"[" * 100_000 + b"]" * 100_000
    path = "/api/v1/timeline/posts"
    response = client.post(path, content=deep, headers=signed("POST", path, deep))
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request"
    nested = json.dumps({"title": "t", "body": "b", "categoryId": None}).encode()
    for depth in (40, 5000):
        body = b'{"brief": ' + b'{"a": ' * depth + b"1" + b"}" * depth + b"}"
        response = client.post("/api/v1/scout/scan", content=body, headers=bearer())
        assert response.status_code == 400 and response.json()["error"] == "invalid_argument"
    # A body within the bound still reaches the service (unreachable here: a clean 503, never a 500).
    assert client.post("/api/v1/news/posts", content=nested, headers=bearer()).status_code == 503


@pytest.mark.parametrize("asset", ["a%00b.js", "%00", "x" * 300 + ".js", "../../app.py", "scout/" + "y" * 5000])
def test_hostile_asset_paths_are_not_found(client, asset):
    response = client.get(f"/pages/assets/{asset}")
    assert response.status_code == 404


def test_a_shipped_asset_is_still_served(client):
    assert client.get("/pages/assets/app.css").status_code == 200


@pytest.mark.parametrize("code", ["UNAVAILABLE", "CANCELLED"])
def test_a_cancelled_or_unavailable_call_is_a_retryable_503(client, code):
    for path, read in [("/api/v1/timeline/_status/", lambda b: b["error"]["code"]),
                       ("/api/v1/feed/_status/", lambda b: b["code"]),
                       ("/api/v1/scout/_status/", lambda b: b["error"])]:
        response = client.get(path + code)
        assert response.status_code == 503, path
        assert int(response.headers["Retry-After"]) >= 1
        assert read(response.json()) in ("unavailable", "SERVICE_UNAVAILABLE")


@pytest.mark.parametrize("path", ["/api/v1/subscriptions/", "/api/v1/feed/global/", "/api/v1/timeline/home/",
                                  "/api/v1/scout/runs/", "/feed/", "/scout/", "/healthz/", "/openapi.json/"])
def test_a_trailing_slash_is_a_404_never_a_redirect_to_the_host_header(client, path):
    response = client.get(path, headers={"Host": "attacker.example"}, follow_redirects=False)
    assert response.status_code == 404 and "location" not in response.headers
    assert "attacker.example" not in response.text
