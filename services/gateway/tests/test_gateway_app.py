"""Gateway surface: probes, OpenAPI, member tokens, and the status/ErrorInfo → HTTP mapping with each
context's envelope."""

from __future__ import annotations

import time
import uuid

import grpc
import jwt
import pytest
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel
from fastapi.testclient import TestClient

from feeds_runtime import context as request_context
from feeds_runtime.errors import Conflict, InvalidArgument, NotFound
from feeds_runtime.interceptors import error_status
from gateway.app import create_app
from gateway.auth import member
from gateway.settings import GatewaySettings

SECRET = "test-secret"


class FakeRpcError(grpc.RpcError):
    """What a stub raises: a status code, details and the trailing metadata carrying ErrorInfo."""

    def __init__(self, status: grpc.Status) -> None:
        self._status = status

    def code(self):
        return self._status.code

    def details(self):
        return self._status.details

    def trailing_metadata(self):
        return self._status.trailing_metadata


class Body(BaseModel):
    name: str


@pytest.fixture
def client():
    app = create_app(GatewaySettings(jwt_secret=SECRET, timeline_address="127.0.0.1:1", news_address="127.0.0.1:1",
                                     scout_address="127.0.0.1:1"))
    probe = APIRouter()
    errors = {
        "bad-cursor": InvalidArgument("invalid_cursor", "cursor is not valid"),
        "missing": NotFound("not_found", "no such post"),
        "self": InvalidArgument("NEWS_SUBSCRIPTION_SELF", "cannot subscribe to yourself"),
        "running": Conflict("run_not_terminal", "run is still running", scout_code="409001"),
    }

    for prefix in ("/api/v1/timeline", "/api/v1/subscriptions", "/api/v1/scout"):
        @probe.get(prefix + "/_fail/{which}")
        async def fail(which: str):
            raise FakeRpcError(error_status(errors[which]))

        @probe.get(prefix + "/_crash")
        async def crash():
            raise FakeRpcError(grpc.Status.__new__(grpc.Status))  # no details at all

    @probe.get("/api/v1/timeline/_request_id")
    async def seen_request_id(request: Request):
        return {"state": request.state.request_id, "context": request_context.request_id.get()}

    @probe.get("/api/v1/timeline/_unexpected")
    async def unexpected():
        raise RuntimeError("a bug")

    @probe.get("/api/v1/news/_whoami")
    async def whoami(request: Request):
        return {"member": str(request.app.state.member_auth.member(request))}

    @probe.get("/api/v1/scout/_typed")
    async def typed(page: int):
        return {"page": page}

    @probe.post("/api/v1/news/_members_only")
    async def members_only(body: Body, who: uuid.UUID = Depends(member)):
        return {"member": str(who), "name": body.name}

    app.include_router(probe)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def token(sub: str, *, exp_in: int = 60, secret: str = SECRET) -> str:
    return jwt.encode({"sub": sub, "exp": int(time.time()) + exp_in}, secret, algorithm="HS256")


def test_healthz_and_openapi(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/openapi.json").json()["info"]["title"] == "Feeds platform gateway"


def test_readyz_reports_unreachable_services(client):
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"status": "not_ready", "services": {
        "timeline": "NOT_SERVING", "news": "NOT_SERVING", "scout": "NOT_SERVING"}}


def test_timeline_error_envelope(client):
    response = client.get("/api/v1/timeline/_fail/bad-cursor")
    assert response.status_code == 400
    assert response.json() == {"error": {"code": "invalid_cursor", "message": "cursor is not valid"}}
    assert client.get("/api/v1/timeline/_fail/missing").json()["error"]["code"] == "not_found"


def test_news_problem_details(client):
    response = client.get("/api/v1/subscriptions/_fail/self")
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json() == {"type": "about:blank", "title": "Bad Request", "status": 400,
                               "detail": "cannot subscribe to yourself", "code": "NEWS_SUBSCRIPTION_SELF"}


def test_scout_envelope_with_specific_code(client):
    response = client.get("/api/v1/scout/_fail/running")
    assert response.status_code == 409
    assert response.json() == {"code": 409001, "message": "run is still running", "data": None, "error": "run_not_terminal"}


def test_shape_errors_use_the_context_envelope(client):
    response = client.get("/api/v1/scout/_typed?page=abc")
    assert response.status_code == 400
    assert response.json()["code"] == 400000 and response.json()["error"] == "invalid_argument"


def test_upstream_failure_without_details_is_a_bare_500(client):
    response = client.get("/api/v1/timeline/_crash")
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal", "message": "internal error"}}


def test_request_id_is_the_callers_when_usable_else_new(client):
    for sent, kept in (("abc-123", True), ("x" * 64, True), ("x" * 65, False), ("é".encode("latin-1"), False), ("", False)):
        response = client.get("/api/v1/timeline/_request_id", headers={"X-Request-Id": sent})
        rid = response.headers["x-request-id"]
        # The handler saw the same id on the request's state and in the context variable.
        assert response.json() == {"state": rid, "context": rid}
        if kept:
            assert rid == sent
        else:
            assert rid != sent and len(rid) == 32 and int(rid, 16) >= 0
    assert request_context.request_id.get() is None


def test_request_id_is_on_every_error_response(client):
    headers = {"X-Request-Id": "trace-me"}
    for response in (client.get("/api/v1/timeline/_fail/missing", headers=headers),  # an RPC's error
                     client.get("/api/v1/timeline/_nowhere", headers=headers),  # routing
                     client.post("/api/v1/timeline/_request_id", headers=headers),  # 405
                     client.post("/api/v1/timeline/posts", content=b"x" * (2 << 20), headers=headers),  # 413
                     client.get("/api/v1/timeline/_unexpected", headers=headers)):  # a bug: 500
        assert response.status_code >= 400
        assert response.headers["x-request-id"] == "trace-me", response.status_code
    assert response.status_code == 500 and response.headers["x-content-type-options"] == "nosniff"


def test_member_tokens(client):
    member = str(uuid.uuid4())
    assert client.get("/api/v1/news/_whoami", headers={"Authorization": f"Bearer {token(member)}"}).json() == {"member": member}
    for bad in (token(member, exp_in=-10), token(member, secret="other"), token("not-a-uuid"), "garbage"):
        response = client.get("/api/v1/news/_whoami", headers={"Authorization": f"Bearer {bad}"})
        assert response.status_code == 401 and response.json()["code"] == "UNAUTHORIZED"
    assert client.get("/api/v1/news/_whoami").status_code == 401


def test_guests_hear_401_before_any_complaint_about_the_body(client):
    for body in (b"{not json", b'{"other": 1}', b""):
        response = client.post("/api/v1/news/_members_only", content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 401 and response.json()["code"] == "UNAUTHORIZED"
    signed_in = {"Authorization": f"Bearer {token(str(uuid.uuid4()))}", "Content-Type": "application/json"}
    response = client.post("/api/v1/news/_members_only", content=b"{not json", headers=signed_in)
    assert response.status_code == 400 and response.json()["code"] == "VALIDATION_ERROR"
