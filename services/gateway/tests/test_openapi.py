"""/openapi.json as a client generator and a fuzzer read it: every operation's answers with a schema
in its context's envelope, no status the gateway never sends, ids as UUIDs, security schemes, every
error code a service can send enumerated, and no page that loads scripts from elsewhere."""

from __future__ import annotations

import inspect

import pytest
from fastapi.testclient import TestClient

from feeds_runtime.errors import DomainError
from gateway.app import create_app
from gateway.settings import GatewaySettings
from news import codes as news_codes
from scout import codes as scout_codes
from timeline import codes as timeline_codes

REF = "#/components/schemas/"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(GatewaySettings(jwt_secret="openapi-tests"))) as client:
        yield client


@pytest.fixture(scope="module")
def document(client):
    return client.get("/openapi.json").json()


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def resolve(document, schema):
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].removeprefix(REF)]
    return schema


def test_every_answer_has_a_schema_in_its_contexts_envelope(document):
    errors = {"/api/v1/timeline": ("application/json", "TimelineError"), "/api/v1/scout": ("application/json", "ScoutError"),
              "/api/v1/jobs": ("application/json", "ScoutError"),
              "/api/v1/subscriptions": ("application/problem+json", "NewsProblem"),
              "/api/v1/feed": ("application/problem+json", "NewsProblem"),
              "/api/v1/news": ("application/problem+json", "NewsProblem")}
    count = 0
    for path, method, operation in operations(document):
        count += 1
        answers = operation["responses"]
        # FastAPI's 422 never: a 422 is an Idempotency-Key reused for another request
        keyed = any(parameter["name"] == "Idempotency-Key" for parameter in operation.get("parameters", []))
        assert ("422" in answers) == keyed, (method, path)
        assert all(200 <= int(status) < 600 and int(status) != 500 for status in answers), (method, path)
        for status, answer in answers.items():
            if status == "204":
                assert "content" not in answer
                continue
            (media_type, body), = answer["content"].items()
            assert "$ref" in body["schema"], (method, path, status)
            schema = resolve(document, body["schema"])
            assert schema["type"] == "object" and schema["required"], (method, path, status)
            if int(status) >= 400 and not path.startswith(("/healthz", "/readyz")):
                prefix = next(prefix for prefix in errors if path.startswith(prefix))
                assert (media_type, body["schema"]["$ref"]) == (errors[prefix][0], REF + errors[prefix][1])
            elif path.startswith("/api/v1/scout") or path.startswith("/api/v1/jobs"):
                assert schema["properties"]["code"] == {"const": 102000, "title": "Code", "type": "integer"}
            elif path.startswith("/api/v1/timeline"):
                assert "data" in schema["required"]
        assert any(200 <= int(status) < 300 for status in answers)
        if path.startswith("/api/v1/"):
            assert {"503", "504"} <= answers.keys() and "503" in answers and answers["503"]["headers"]["Retry-After"]
    assert count == 55


def test_ids_are_uuids_and_bodies_are_closed(document):
    for path, method, operation in operations(document):
        for parameter in operation.get("parameters", []):
            if parameter["name"].endswith("_id") and parameter["name"] != "brand_id" or parameter["name"] in ("categoryId", "X-Activity-Viewer"):
                schema = parameter["schema"]
                assert "uuid" in [schema.get("format")] + [one.get("format") for one in schema.get("anyOf", [])], (
                    method, path, parameter["name"])
    schemas = document["components"]["schemas"]
    assert schemas["TimelinePost"]["properties"]["id"]["format"] == "uuid"
    assert schemas["ScoutJob"]["properties"]["ref_id"]["format"] == "uuid"
    assert schemas["NewsPost"]["properties"]["publishedAt"]["anyOf"][0] == {"format": "date-time", "type": "string"}
    for name, schema in schemas.items():
        if schema.get("type") == "object" and "properties" in schema and not name.endswith("Body"):
            assert schema["additionalProperties"] is False, name


def test_security_schemes_cover_members_guests_and_hosts(document):
    schemes = document["components"]["securitySchemes"]
    assert schemes["memberJwt"] == {**schemes["memberJwt"], "type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
    assert {schemes[name]["name"] for name in ("hostKeyId", "hostTimestamp", "hostNonce", "hostSignature")} == {
        "X-Activity-Key-Id", "X-Activity-Timestamp", "X-Activity-Nonce", "X-Activity-Signature"}
    assert schemes["hostSignature"]["description"].startswith("`v3=`")
    paths = document["paths"]
    assert paths["/api/v1/scout/runs"]["get"]["security"] == [{"memberJwt": []}]
    assert paths["/api/v1/feed/global"]["get"]["security"] == [{}, {"memberJwt": []}]
    assert paths["/api/v1/timeline/home"]["get"]["security"] == [
        {"hostKeyId": [], "hostTimestamp": [], "hostNonce": [], "hostSignature": []},
        {"hostKeyId": [], "hostTimestamp": [], "hostSignature": []}]
    for path, method, operation in operations(document):
        if path.startswith("/api/v1/"):
            assert operation["security"] and "401" in operation["responses"], (method, path)
            names = {parameter["name"].lower() for parameter in operation.get("parameters", [])}
            assert not names & {"authorization", "x-activity-key-id", "x-activity-signature", "x-activity-timestamp"}


def service_errors(module) -> list[DomainError]:
    """One error from each constructor of a service's codes module."""
    found = []
    for _, function in inspect.getmembers(module, inspect.isfunction):
        if function.__module__ == module.__name__:
            found.append(function(*["x"] * len(inspect.signature(function).parameters)))
    return found


@pytest.mark.parametrize("module, component", [(timeline_codes, "TimelineErrorDetail"), (news_codes, "NewsProblem"),
                                               (scout_codes, "ScoutError")])
def test_every_code_a_service_sends_is_enumerated(document, module, component):
    schema = document["components"]["schemas"][component]
    words = schema["properties"]["error" if component == "ScoutError" else "code"]["enum"]
    errors = service_errors(module)
    assert errors and {error.reason for error in errors} <= set(words)
    if component == "ScoutError":
        assert {int(error.metadata["scout_code"]) for error in errors} <= set(schema["properties"]["code"]["enum"])


def test_no_documentation_page_loads_from_a_cdn(client):
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert client.get(path).status_code == 404


def test_the_label_rule_is_the_timeline_services():
    from gateway.contract.fields import LABEL_PATTERN
    from timeline.domain import LABEL_PATTERN as SERVICE_LABEL_PATTERN

    assert LABEL_PATTERN == SERVICE_LABEL_PATTERN
