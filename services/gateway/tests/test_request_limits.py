"""What one caller may send: bodies up to GATEWAY_MAX_BODY_BYTES (1 MiB) and header blocks up to
GATEWAY_MAX_HEADER_BYTES, refused before anything is parsed or authenticated; and requests per member
(reads, and each kind of write apart) and per host key, counted in Redis across replicas, with the
IETF RateLimit fields on each counted response and a 429 with Retry-After past the quota."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack

import jwt
import pytest
from fastapi import Depends, Request
from fastapi.testclient import TestClient

from feeds_runtime.signing import sign
from gateway.app import create_app
from gateway.auth import member
from gateway.request_limits.rate import member_policy
from gateway.settings import GatewaySettings, HostKey

SECRET = "request-limits-secret-0123456789abcdef"
KEY = HostKey(tenant_id="11111111-1111-1111-1111-111111111111", key_id="key-a", secret="k" * 40)
UNREACHABLE = {f"{name}_address": "127.0.0.1:1" for name in ("timeline", "news", "scout")}
MIB = 1024 * 1024


CLIENTS = ExitStack()


@pytest.fixture(autouse=True)
def _stop_gateways():
    """Each gateway runs its lifespan (channels, Redis pool) and stops at the end of the test."""
    with CLIENTS:
        yield


def gateway(**settings) -> TestClient:
    app = create_app(GatewaySettings(**{"jwt_secret": SECRET, "host_keys": [KEY], "rpc_deadline_seconds": 1,
                                        **UNREACHABLE, **settings}))

    @app.get("/api/v1/news/_whoami")
    async def whoami(who: uuid.UUID = Depends(member)):
        return {"member": str(who)}

    @app.api_route("/api/v1/timeline/_signed", methods=["GET", "POST"])
    async def signed(request: Request):
        return {"tenant": (await request.app.state.host_signature.verify(request)).tenant_id}

    return CLIENTS.enter_context(TestClient(app, raise_server_exceptions=False))


def bearer(member_id: str) -> dict[str, str]:
    token = jwt.encode({"sub": member_id, "exp": int(time.time()) + 600}, SECRET, algorithm="HS256")
    return {"Authorization": f"Bearer {token}"}


def signed_headers(method: str = "GET", body: bytes = b"", key: HostKey = KEY) -> dict[str, str]:
    ts = str(int(time.time()))
    return {"X-Activity-Key-Id": key.key_id, "X-Activity-Timestamp": ts, "X-Activity-Viewer": "",
            "X-Activity-Signature": sign(key.secret, method, "/api/v1/timeline/_signed", "", ts, "", body)}


# Bodies.

def test_the_default_body_bound_is_one_mebibyte():
    assert GatewaySettings(jwt_secret=SECRET).max_body_bytes == MIB
    client = gateway()
    just = client.post("/api/v1/timeline/_signed", content=b" " * MIB)  # at the bound: on to the signature check
    assert just.status_code == 401
    over = client.post("/api/v1/timeline/_signed", content=b" " * (MIB + 1))
    assert over.status_code == 413


@pytest.mark.parametrize("path,envelope", [
    ("/api/v1/timeline/posts", lambda body: body["error"]["code"] == "payload_too_large"),
    ("/api/v1/news/posts", lambda body: body["code"] == "PAYLOAD_TOO_LARGE" and body["status"] == 413),
    ("/api/v1/subscriptions", lambda body: body["code"] == "PAYLOAD_TOO_LARGE"),
    ("/api/v1/scout/scan", lambda body: body["code"] == 413000 and body["error"] == "payload_too_large"),
])
def test_a_declared_oversized_body_is_refused_before_authentication(path, envelope):
    """No token, no signature: the 413 comes first, so a stranger cannot make the gateway read 10 MB."""
    response = gateway(max_body_bytes=4096).post(path, content=b"{" * 10_000, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert envelope(response.json()), response.json()
    assert response.headers["x-content-type-options"] == "nosniff" and response.headers["x-request-id"]


def chunks(total: int, size: int = 1024) -> Iterator[bytes]:
    for _ in range(total // size):
        yield b" " * size


def test_a_body_without_a_length_is_cut_at_the_bound_while_it_is_read():
    client = gateway(max_body_bytes=4096)
    member_post = client.post("/api/v1/news/posts", content=chunks(64 * 1024),
                              headers={**bearer(str(uuid.uuid4())), "Content-Type": "application/json"})
    assert member_post.status_code == 413 and member_post.json()["code"] == "PAYLOAD_TOO_LARGE"
    # A host request is hashed for its signature: the hashing stops at the bound too.
    host_post = client.post("/api/v1/timeline/_signed", content=chunks(64 * 1024), headers=signed_headers("POST"))
    assert host_post.status_code == 413 and host_post.json()["error"]["code"] == "payload_too_large"


def test_an_oversized_header_block_is_a_431():
    client = gateway(max_header_bytes=2048)
    assert client.get("/api/v1/news/_whoami", headers={"X-Padding": "p" * 1000}).status_code == 401
    response = client.get("/api/v1/news/_whoami", headers={"X-Padding": "p" * 3000})
    assert response.status_code == 431 and response.json()["code"] == "HEADERS_TOO_LARGE"


# Rates.

@pytest.fixture
def counted(redis_url: str):
    """Two gateway replicas sharing one Redis namespace, with low quotas."""
    namespace = f"limits-{uuid.uuid4().hex[:8]}"
    settings = {"redis_url": redis_url, "redis_namespace": namespace, "member_read_rate_limit": "3/minute",
                "member_post_rate_limit": "2/minute", "member_subscription_rate_limit": "1/minute",
                "host_rate_limit": "2/minute"}
    return gateway(**settings), gateway(**settings)


RATE_LIMIT = re.compile(r'^"(reads|posts|subscriptions|scans|suggestions|writes|host)";r=(\d+);t=(\d+)$')


def test_the_default_quotas_hold_writes_to_what_a_person_does():
    settings = GatewaySettings(jwt_secret=SECRET)
    assert settings.member_read_rate_limit == "3000/minute"
    assert (settings.member_post_rate_limit, settings.member_subscription_rate_limit, settings.member_scan_rate_limit,
            settings.member_suggestion_rate_limit, settings.member_write_rate_limit) == (
        "60/minute", "120/minute", "10/minute", "60/minute", "300/minute")


def test_a_member_reads_on_one_quota_across_contexts_and_replicas(counted):
    first, second = counted
    alice, bob = bearer(str(uuid.uuid4())), bearer(str(uuid.uuid4()))
    # Every context counts the member; the services being unreachable (503) does not matter.
    responses = [first.get("/api/v1/news/_whoami", headers=alice), second.get("/api/v1/scout/runs", headers=alice),
                 first.get("/api/v1/subscriptions", headers=alice)]
    assert [r.status_code for r in responses] == [200, 503, 503]
    for left, response in zip((2, 1, 0), responses):
        assert response.headers["ratelimit-policy"] == '"reads";q=3;w=60'
        policy, remaining, reset = RATE_LIMIT.match(response.headers["ratelimit"]).groups()
        assert (policy, int(remaining)) == ("reads", left) and 1 <= int(reset) <= 60
    for client, path, envelope in ((second, "/api/v1/news/_whoami", "RATE_LIMITED"),
                                   (first, "/api/v1/scout/runs", "rate_limited"),
                                   (second, "/api/v1/feed/global", "RATE_LIMITED")):
        refused = client.get(path, headers=alice)
        assert refused.status_code == 429, path
        assert envelope in refused.text
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert RATE_LIMIT.match(refused.headers["ratelimit"]).group(2) == "0"
    # Another member, and guests, are not held back by Alice's quota.
    assert first.get("/api/v1/news/_whoami", headers=bob).status_code == 200
    assert first.get("/api/v1/feed/global").status_code == 503


def test_each_kind_of_member_write_has_its_own_quota_apart_from_reads(counted):
    first, second = counted
    alice = {**bearer(str(uuid.uuid4())), "Content-Type": "application/json"}
    post = b'{"title": "t", "body": "b"}'
    # Posts: two writes (creating, publishing), on either replica; the services are away (503).
    for client, path in ((first, "/api/v1/news/posts"), (second, f"/api/v1/news/posts/{uuid.uuid4()}/publish")):
        response = client.post(path, content=post if path.endswith("posts") else b"", headers=alice)
        assert response.status_code == 503 and response.headers["ratelimit-policy"] == '"posts";q=2;w=60'
    refused = first.post("/api/v1/news/posts", content=post, headers=alice)
    assert refused.status_code == 429 and refused.json()["code"] == "RATE_LIMITED"
    assert RATE_LIMIT.match(refused.headers["ratelimit"]).groups()[:2] == ("posts", "0")
    assert "posts quota" in refused.json()["detail"]
    # A subscription counts against its own quota, a read against reads: neither is held by the posts.
    subscribe = b'{"targetKind": "Author", "targetUserId": "%s"}' % str(uuid.uuid4()).encode()
    subscribed = second.post("/api/v1/subscriptions", content=subscribe, headers=alice)
    assert subscribed.status_code == 503 and subscribed.headers["ratelimit-policy"] == '"subscriptions";q=1;w=60'
    assert second.delete(f"/api/v1/subscriptions/{uuid.uuid4()}", headers=alice).status_code == 429
    read = first.get("/api/v1/news/_whoami", headers=alice)
    assert read.status_code == 200 and read.headers["ratelimit"].startswith('"reads";r=2;')


@pytest.mark.parametrize(("method", "path", "policy"), [
    ("GET", "/api/v1/news/posts/1", "reads"), ("HEAD", "/api/v1/scout/runs", "reads"),
    ("POST", "/api/v1/news/posts", "posts"), ("PUT", "/api/v1/news/posts/1", "posts"),
    ("POST", "/api/v1/news/posts/1/unpublish", "posts"), ("POST", "/api/v1/subscriptions", "subscriptions"),
    ("DELETE", "/api/v1/subscriptions/1", "subscriptions"), ("POST", "/api/v1/scout/scan", "scans"),
    ("POST", "/api/v1/scout/suggestions", "suggestions"), ("POST", "/api/v1/scout/posts/1/draft", "writes"),
    ("PUT", "/api/v1/scout/homework/k", "writes"), ("POST", "/api/v1/jobs/1/cancel", "writes"),
    ("POST", "/api/v1/news/postscript", "writes"),
])
def test_the_quota_a_member_request_counts_against(method, path, policy):
    assert member_policy(method, path) == policy


def test_a_host_key_has_its_own_quota(counted):
    first, second = counted
    assert first.get("/api/v1/timeline/_signed", headers=signed_headers()).status_code == 200
    assert second.get("/api/v1/timeline/_signed", headers=signed_headers()).headers["ratelimit"].startswith('"host";r=0;')
    refused = first.get("/api/v1/timeline/_signed", headers=signed_headers())
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1
    assert refused.headers["ratelimit-policy"] == '"host";q=2;w=60'
    # A forged request is refused for its signature and counts against no one.
    forged = {**signed_headers(), "X-Activity-Signature": "v1=" + "0" * 64}
    assert first.get("/api/v1/timeline/_signed", headers=forged).status_code == 401


def test_limits_can_be_turned_off():
    client = gateway(rate_limits_enabled=False, member_read_rate_limit="1/minute")
    alice = bearer(str(uuid.uuid4()))
    for _ in range(3):
        response = client.get("/api/v1/news/_whoami", headers=alice)
        assert response.status_code == 200 and "ratelimit" not in response.headers


def test_without_redis_requests_go_through_uncounted():
    client = gateway(redis_url="redis://127.0.0.1:1/0", member_read_rate_limit="1/minute")
    alice = bearer(str(uuid.uuid4()))
    for _ in range(3):
        response = client.get("/api/v1/news/_whoami", headers=alice)
        assert response.status_code == 200 and "ratelimit" not in response.headers


def test_a_quota_must_say_requests_per_period():
    with pytest.raises(ValueError, match="requests per period"):
        GatewaySettings(jwt_secret=SECRET, member_post_rate_limit="lots")
