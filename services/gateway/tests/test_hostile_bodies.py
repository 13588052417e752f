"""Every JSON route of the document, given hostile bodies: numbers beyond 64 bits where text or an
enum is expected, NaN and Infinity, a key given twice, lone surrogates, deep nesting and wrong types,
at every field of a valid body and in place of the body. Each is a 400 in its context's envelope,
naming the field, before any service is called (none is reachable here, so a body that got through
would be a 503, and a crash a 500)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from devstack.host_client import Host
from devstack.tokens import member_headers
from gateway.app import create_app
from gateway.envelopes import Context, context_for_path
from gateway.settings import GatewaySettings, HostKey

SECRET = "hostile-bodies-secret-0123456789abcdef"
KEY = HostKey(tenant_id=str(uuid.uuid4()), key_id="key-h", secret="h" * 40)
UNREACHABLE = {f"{name}_address": "127.0.0.1:1" for name in ("timeline", "news", "scout")}

# A valid body of every JSON route: the hostile cases change one field of it at a time.
BRIEF = {"intent": "鬼滅之刃", "terms": ["鬼滅之刃"], "theme_key": "", "theme_label": "", "mode": "topic",
         "brand_id": "b", "target_count": 5, "recent_days": 30}
VALID: dict[tuple[str, str], Any] = {
    ("POST", "/api/v1/timeline/posts"): {"body": "hello", "visibility": "public"},
    ("PUT", "/api/v1/timeline/posts/{post_id}/moderation"): {"moderation_state": "hidden"},
    ("PUT", "/api/v1/timeline/posts/{post_id}/labels"): {"labels": ["spoiler"]},
    ("PUT", "/api/v1/timeline/mutes/{author_id}"): {"until": "2030-01-01T00:00:00Z"},
    ("POST", "/api/v1/timeline/filters"): {"phrase": "spoiler", "action": "warn", "expires_at": "2030-01-01T00:00:00Z"},
    ("PUT", "/api/v1/timeline/label-policies/{label}"): {"action": "warn", "viewer_may_change": True},
    ("PUT", "/api/v1/timeline/label-preferences/{label}"): {"action": "show"},
    ("POST", "/api/v1/subscriptions"): {"targetKind": "Author", "targetUserId": str(uuid.uuid4()),
                                        "targetCompanyId": None},
    ("POST", "/api/v1/news/posts"): {"title": "t", "body": "b", "categoryId": str(uuid.uuid4())},
    ("PUT", "/api/v1/news/posts/{post_id}"): {"title": "t", "body": "b", "categoryId": str(uuid.uuid4())},
    ("POST", "/api/v1/scout/scan"): {"brief": BRIEF},
    ("POST", "/api/v1/scout/suggestions"): {"intent": "鬼滅之刃"},
    ("PUT", "/api/v1/scout/homework/{theme_key}"): {key: value for key, value in BRIEF.items() if key != "theme_key"},
    ("POST", "/api/v1/scout/posts/{post_id}/draft"): {"draft_text": "a reply"},
}
PATH_VALUES = {"post_id": str(uuid.uuid4()), "theme_key": "theme-1", "author_id": str(uuid.uuid4()),
               "label": "spoiler"}

# Values no field takes, as raw JSON text (json.dumps writes none of the first ones).
ANYWHERE = {
    "integer beyond 64 bits": "1" + "0" * 30,
    "negative integer beyond 64 bits": "-" + "9" * 25,
    "integer past Python's digit limit": "9" * 5000,
    "float beyond double range": "1e400",
    "NaN": "NaN",
    "Infinity": "Infinity",
    "-Infinity": "-Infinity",
    "lone surrogate": '"\\ud800"',
    "deep nesting": "[" * 40 + "]" * 40,
}
# Values of another JSON type than the field's.
WRONG_TYPES = {str: ("{}", "[1]", "true", "12"), int: ("{}", "[1]", '"x"', "12.5"), list: ("{}", '"x"', "1"),
               dict: ("[]", '"x"', "1")}
# Bodies that are no object at all; FastAPI's draft body may be null, the others may not.
NOT_AN_OBJECT = ("[1]", '"x"', "12", "true", "1" + "0" * 30, "NaN", "[" * 5000 + "]" * 5000)

PLACEHOLDER = "\u0000hostile\u0000"


def leaves(value: Any, path: tuple[str | int, ...] = ()):
    """Every field of a valid body, nested ones included, with the value it holds."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield (*path, key), child
            yield from leaves(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield (*path, index), child
            yield from leaves(child, (*path, index))


def with_value(body: Any, path: tuple[str | int, ...], raw: str, *, twice: bool = False) -> bytes:
    """The body, its field at `path` replaced by the raw JSON text (or, `twice`, its key given twice)."""
    copy = json.loads(json.dumps(body))
    parent = copy
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = PLACEHOLDER
    text = json.dumps(copy, ensure_ascii=False)
    quoted = json.dumps(PLACEHOLDER, ensure_ascii=False)
    if twice:
        return text.replace(quoted, f"{raw}, {json.dumps(path[-1], ensure_ascii=False)}: {raw}").encode()
    return text.replace(quoted, raw).encode()


def cases():
    for (method, path), body in VALID.items():
        for field, value in leaves(body):
            name = ".".join(str(part) for part in field)
            for label, raw in ANYWHERE.items():
                yield pytest.param(method, path, with_value(body, field, raw), name, id=f"{method} {path} {name} {label}")
            for raw in WRONG_TYPES.get(type(value), ()):
                yield pytest.param(method, path, with_value(body, field, raw), name, id=f"{method} {path} {name} {raw}")
            if isinstance(field[-1], str):
                twice = with_value(body, field, json.dumps(value, ensure_ascii=False), twice=True)
                yield pytest.param(method, path, twice, name, id=f"{method} {path} {name} twice")
        for raw in NOT_AN_OBJECT:
            yield pytest.param(method, path, raw.encode(), "", id=f"{method} {path} body {raw[:12]}")


@pytest.fixture(scope="module")
def client():
    app = create_app(GatewaySettings(jwt_secret=SECRET, host_keys=[KEY], rate_limits_enabled=False,
                                     rpc_deadline_seconds=1, **UNREACHABLE))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_the_table_covers_every_json_route(client):
    document = client.get("/openapi.json").json()
    json_routes = {(method.upper(), path) for path, operations in document["paths"].items()
                   for method, operation in operations.items()
                   if "application/json" in operation.get("requestBody", {}).get("content", {})}
    assert json_routes == set(VALID)


def send(client: TestClient, method: str, template: str, body: bytes):
    path = template.format(**PATH_VALUES)
    headers = {"Content-Type": "application/json"}
    if context_for_path(path) is Context.TIMELINE:
        headers.update(Host("http://unused", KEY.model_dump()).headers(method, path, viewer=uuid.uuid4(), body=body))
    else:
        headers.update(member_headers(SECRET, uuid.uuid4()))
    return client.request(method, path, content=body, headers=headers)


@pytest.mark.parametrize(("method", "path", "body", "field"), list(cases()))
def test_a_hostile_body_is_a_400_naming_the_field(client, method, path, body, field):
    response = send(client, method, path, body)
    assert response.status_code == 400, response.text
    payload = response.json()
    context = context_for_path(path)
    if context is Context.TIMELINE:
        assert payload["error"]["code"] == "invalid_request"
        message = payload["error"]["message"]
    elif context is Context.NEWS:
        assert response.headers["content-type"] == "application/problem+json"
        assert payload["code"] == "VALIDATION_ERROR" and payload["status"] == 400
        message = payload["detail"]
    else:
        assert payload["error"] == "invalid_argument" and payload["code"] // 1000 == 400 and payload["data"] is None
        message = payload["message"]
    assert message and message.startswith(field), message


def test_a_valid_body_gets_through(client):
    # The table's bodies are valid: each reaches the (unreachable) service, a 503.
    for (method, path), body in VALID.items():
        assert send(client, method, path, json.dumps(body).encode()).status_code == 503, (method, path)
