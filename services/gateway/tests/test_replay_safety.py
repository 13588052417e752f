"""Replay-safe host writes and Idempotency-Key (docs/architecture.md, "Host signing" and
"Idempotency-Key"): a `v2` signature covers the key, a `v3` signature also a nonce that is good for
one write (so identical writes in one second are told apart), a `v2` write's signature is good for one request,
and a keyed write answers its retries with the first answer (IETF idempotency-key draft: 422 for the
key reused on another request, 409 while the first still runs). Real Redis; no service behind."""

from __future__ import annotations

import asyncio
import itertools
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import httpx
import pytest
import redis
from fastapi import Request
from fastapi.testclient import TestClient

from feeds_runtime.signing import NONCE_HEADER, new_nonce, sign
from gateway import envelopes
from gateway.api_error import ApiError
from gateway.app import create_app
from gateway.settings import GatewaySettings, HostKey

KEY = HostKey(tenant_id="11111111-1111-1111-1111-111111111111", key_id="key-a", secret="k" * 40)
PATH = "/api/v1/timeline/_write"
VIEWER = str(uuid.uuid4())


def app_with_probes(**settings):
    app = create_app(GatewaySettings(**{"jwt_secret": "s" * 40, "host_keys": [KEY], **settings}))
    app.state.calls = itertools.count(1)
    app.state.started, app.state.release = None, None  # events of the in-flight test

    @app.api_route(PATH, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
    async def write(request: Request):
        call = await request.app.state.host_signature.verify(request)

        async def handler():
            number = next(request.app.state.calls)
            if request.app.state.release is not None:
                request.app.state.started.set()
                await request.app.state.release.wait()
            if request.headers.get("x-fail") == "unavailable":
                raise ApiError(503, "", "the service is restarting")
            return envelopes.timeline_data({"call": number, "body": (await request.body()).decode()}, status=201)

        return await request.app.state.idempotency.run(request, f"host:{call.tenant_id}:{call.viewer_id}", handler)

    return app


@pytest.fixture
def gateways(redis_url):
    """Gateways on the test Redis (each its own namespace unless told), stopped after the test."""
    with ExitStack() as stack:
        def start(namespace: str | None = None, **settings) -> TestClient:
            app = app_with_probes(**{"redis_url": redis_url,
                                     "redis_namespace": namespace or f"replay-{uuid.uuid4().hex[:8]}", **settings})
            return stack.enter_context(TestClient(app, raise_server_exceptions=False))
        yield start


def signed(method: str, body: bytes = b"", *, key: str | None = None, signed_key: str | None = None,
           version: str = "v2", timestamp: int | None = None, nonce: str | None = None) -> dict[str, str]:
    ts = str(timestamp if timestamp is not None else int(time.time()))
    signature = sign(KEY.secret, method, PATH, "", ts, VIEWER, body, version=version,  # type: ignore[arg-type]
                     idempotency_key=signed_key if signed_key is not None else (key or ""), nonce=nonce or "")
    headers = {"X-Activity-Key-Id": KEY.key_id, "X-Activity-Timestamp": ts, "X-Activity-Viewer": VIEWER,
               "X-Activity-Signature": signature}
    if nonce is not None:
        headers[NONCE_HEADER] = nonce
    return {**headers, "Idempotency-Key": key} if key is not None else headers


_last_stamp = 0


def fresh(method: str, body: bytes = b"", **kwargs) -> dict[str, str]:
    """Signed with a timestamp of its own, inside the window when it is sent: a new request, not a
    replay of an earlier one."""
    global _last_stamp
    _last_stamp = max(_last_stamp + 1, int(time.time()) - 200)
    return signed(method, body, timestamp=_last_stamp, **kwargs)


# The signature.

def test_v2_covers_the_idempotency_key_and_v1_still_verifies(gateways):
    client = gateways()
    assert client.post(PATH, content=b"x", headers=fresh("POST", b"x", key="k-1")).status_code == 201
    swapped = client.post(PATH, content=b"x", headers=fresh("POST", b"x", key="k-2", signed_key="k-1"))
    assert swapped.status_code == 401 and swapped.json()["error"]["code"] == "invalid_signature"
    stripped = fresh("POST", b"x", signed_key="k-3")
    assert client.post(PATH, content=b"x", headers=stripped).status_code == 401
    assert client.post(PATH, content=b"y", headers=fresh("POST", b"y", version="v1")).status_code == 201
    unknown = {**fresh("POST", b"y"), "X-Activity-Signature": "v3=" + "0" * 64}
    assert client.post(PATH, content=b"y", headers=unknown).status_code == 401


def test_v3_covers_a_nonce_that_is_good_for_one_write_within_the_window(gateways, redis_url):
    namespace = f"replay-{uuid.uuid4().hex[:8]}"
    client, now = gateways(namespace), int(time.time())
    # The same write, the same second: each nonce makes it a request of its own.
    nonces = [new_nonce() for _ in range(5)]
    assert [client.post(PATH, content=b"x", headers=signed("POST", b"x", version="v3", timestamp=now, nonce=nonce))
            .status_code for nonce in nonces] == [201] * 5
    # A nonce used before is refused, even signed anew with another timestamp.
    again = client.post(PATH, content=b"x", headers=signed("POST", b"x", version="v3", timestamp=now + 1,
                                                            nonce=nonces[0]))
    assert again.status_code == 401 and again.json()["error"]["code"] == "invalid_signature"
    # The signature covers the nonce; a missing, short or foreign-alphabet nonce is no v3 signature.
    swapped = {**signed("POST", b"x", version="v3", nonce=new_nonce()), NONCE_HEADER: new_nonce()}
    assert client.post(PATH, content=b"x", headers=swapped).status_code == 401
    missing = signed("POST", b"x", version="v3", nonce=new_nonce())
    del missing[NONCE_HEADER]
    assert client.post(PATH, content=b"x", headers=missing).status_code == 401
    for bad in ("f" * 31, "f" * 129, "a b" * 11, "+/" * 16):
        headers = {**signed("POST", b"x", version="v2"), NONCE_HEADER: bad,
                   "X-Activity-Signature": "v3=" + "0" * 64}
        assert client.post(PATH, content=b"x", headers=headers).status_code == 401
    twice = httpx.Headers([*signed("POST", b"x", version="v3", nonce=nonces[1]).items(), (NONCE_HEADER, nonces[1])])
    assert client.post(PATH, content=b"x", headers=twice).status_code == 401
    # Reads are not single-use, whatever the version.
    read = signed("GET", version="v3", nonce=new_nonce())
    assert [client.get(PATH, headers=read).status_code for _ in range(2)] == [201, 201]
    # Each nonce is remembered for a whole window from its first use, per host key.
    remembered = redis.Redis.from_url(redis_url).keys(f"{namespace}:host-nonces:{KEY.key_id}:*")
    assert len(remembered) == 5


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_a_write_signature_is_good_once_across_replicas(gateways, method):
    namespace = f"replay-{uuid.uuid4().hex[:8]}"
    first, second = gateways(namespace), gateways(namespace)
    headers = fresh(method, b"{}")
    assert first.request(method, PATH, content=b"{}", headers=headers).status_code == 201
    for client in (first, second):
        replayed = client.request(method, PATH, content=b"{}", headers=headers)
        assert replayed.status_code == 401 and replayed.json()["error"]["code"] == "invalid_signature"
    # The same write signed anew is a new request.
    assert second.request(method, PATH, content=b"{}", headers=fresh(method, b"{}")).status_code == 201


def test_reads_may_be_sent_again_and_a_signature_is_remembered_only_for_its_window(gateways, redis_url):
    client = gateways("replay-window")
    headers = signed("GET")
    assert [client.get(PATH, headers=headers).status_code for _ in range(2)] == [201, 201]
    write = signed("POST", b"w")
    assert client.post(PATH, content=b"w", headers=write).status_code == 201
    store = redis.Redis.from_url(redis_url)
    remembered = store.keys("replay-window:host-signatures:*")
    assert len(remembered) == 1
    assert 290 <= store.ttl(remembered[0]) <= 301  # until the timestamp leaves the 300 s tolerance
    store.delete(*remembered)


def test_without_redis_a_write_is_a_503_and_a_read_goes_on(gateways):
    client = gateways(redis_url="redis://127.0.0.1:1/0")
    write = client.post(PATH, content=b"w", headers=fresh("POST", b"w"))
    assert write.status_code == 503 and write.json()["error"]["code"] == "unavailable" and write.headers["retry-after"]
    assert client.get(PATH, headers=signed("GET")).status_code == 201


# Idempotency-Key.

def test_a_retry_gets_the_first_answer_and_another_request_under_the_key_is_a_422(gateways):
    client = gateways()
    key = uuid.uuid4().hex
    first = client.post(PATH, content=b'{"a":1}', headers=fresh("POST", b'{"a":1}', key=key))
    assert first.status_code == 201 and first.json()["data"]["call"] == 1
    retry = client.post(PATH, content=b'{"a":1}', headers=fresh("POST", b'{"a":1}', key=key))
    assert (retry.status_code, retry.content, retry.headers["content-type"]) == (201, first.content, "application/json")
    other = client.post(PATH, content=b'{"a":2}', headers=fresh("POST", b'{"a":2}', key=key))
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_conflict"
    # Without a key, or with another one, each request runs.
    assert client.post(PATH, content=b'{"a":1}', headers=fresh("POST", b'{"a":1}')).json()["data"]["call"] == 2
    assert client.post(PATH, content=b'{"a":1}', headers=fresh("POST", b'{"a":1}', key=key + "x")).json()["data"]["call"] == 3


def test_a_failed_first_attempt_leaves_the_key_free_for_the_retry(gateways):
    client = gateways()
    key = uuid.uuid4().hex
    failed = client.post(PATH, content=b"x", headers={**fresh("POST", b"x", key=key), "X-Fail": "unavailable"})
    assert failed.status_code == 503
    retried = client.post(PATH, content=b"x", headers=fresh("POST", b"x", key=key))
    assert retried.status_code == 201 and retried.json()["data"]["call"] == 2


def test_a_retry_while_the_first_runs_is_a_409(redis_url):
    app = app_with_probes(redis_url=redis_url, redis_namespace=f"replay-{uuid.uuid4().hex[:8]}")
    key = uuid.uuid4().hex

    async def scenario():
        async with app.router.lifespan_context(app):
            app.state.started, app.state.release = asyncio.Event(), asyncio.Event()
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gateway") as client:
                first = asyncio.create_task(client.post(PATH, content=b"x", headers=fresh("POST", b"x", key=key)))
                await asyncio.wait_for(app.state.started.wait(), 30)
                try:
                    retry = await asyncio.wait_for(
                        client.post(PATH, content=b"x", headers=fresh("POST", b"x", key=key)), 30)
                finally:
                    app.state.release.set()
                return retry, await first

    # Its own thread: the browser tests' session keeps an event loop running on the main one.
    with ThreadPoolExecutor(max_workers=1) as thread:
        retry, first = thread.submit(asyncio.run, scenario()).result()
    assert retry.status_code == 409 and retry.json()["error"]["code"] == "idempotency_in_progress"
    assert first.status_code == 201


def test_a_malformed_key_is_a_400(gateways):
    client = gateways()
    long_key = client.post(PATH, content=b"x", headers=fresh("POST", b"x", key="k" * 256))
    assert long_key.status_code == 400 and long_key.json()["error"]["code"] == "invalid_request"
    assert "Idempotency-Key" in long_key.json()["error"]["message"]
    twice = httpx.Headers([*fresh("POST", b"x", key="k-1").items(), ("Idempotency-Key", "k-1")])
    response = client.post(PATH, content=b"x", headers=twice)
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request"
