"""Schemathesis hooks for tests/gateway/test_openapi_contract.py (loaded by the CLI through
SCHEMATHESIS_HOOKS): the credentials the document's security schemes ask for, added to each request
exactly as it is sent. The host key, token secret and member come from the test's environment."""

from __future__ import annotations

import json
import os
import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import requests
import schemathesis

from devstack.host_client import Host
from devstack.tokens import member_token
from scout.pipeline.signature import NoTopicEvidence, build_signature

HOST_KEY = json.loads(os.environ["CONTRACT_HOST_KEY"])
JWT_SECRET = os.environ["CONTRACT_JWT_SECRET"]
MEMBER = os.environ["CONTRACT_MEMBER"]


class Credentials(requests.auth.AuthBase):
    """A host signature (v3, over the raw path, query, body, Idempotency-Key and a fresh nonce) on the
    timeline API, a member token elsewhere. Schemathesis sends its authentication probes without
    this, so they arrive unauthenticated."""

    def __init__(self) -> None:
        self.host = Host("http://unused", HOST_KEY)

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        url = urlsplit(request.path_url)
        if url.path.startswith("/api/v1/timeline/"):
            body = request.body or b""
            signed = self.host.headers(request.method or "", url.path, query=url.query,
                                       viewer=request.headers.get("X-Activity-Viewer", ""),
                                       body=body.encode() if isinstance(body, str) else body,
                                       idempotency_key=request.headers.get("Idempotency-Key", ""))
            signed.pop("X-Activity-Viewer")  # sent as generated (absent, empty or an id)
            request.headers.update(signed)
        else:
            request.headers["Authorization"] = f"Bearer {member_token(JWT_SECRET, MEMBER)}"
        return request


schemathesis.auth.set_from_requests(Credentials())


# Rules the document states in prose because JSON Schema cannot: a cursor is opaque and only the
# gateway mints valid ones, an Idempotency-Key names one request, a user cannot follow, block or mute
# themselves, a mute ends in the future, and a brief must name a topic beyond colloquial words. A valid (positive) case is kept
# within them; invalid cases are left alone.
SELF_REFERENCES = ("/api/v1/timeline/follows/", "/api/v1/timeline/blocks/", "/api/v1/timeline/mutes/")
# Body fields that name a time still to come.
FUTURE_TIMES = ("until", "expires_at")
A_TOPIC = "鬼滅之刃"
BRIEFS = ("/api/v1/scout/scan", "/api/v1/scout/homework/{theme_key}", "/api/v1/scout/suggestions")


@schemathesis.hook
def before_call(context, case, kwargs) -> None:
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    if isinstance(case.query, dict):
        case.query.pop("cursor", None)
    if case.headers and "Idempotency-Key" in case.headers:  # a key names one request
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    if case.path.startswith(SELF_REFERENCES) and case.headers:
        followee = next(iter(case.path_parameters.values()), None)
        if case.headers.get("X-Activity-Viewer") == followee:
            case.headers["X-Activity-Viewer"] = str(uuid.uuid4())
    if isinstance(case.body, dict):
        for field in FUTURE_TIMES:
            if isinstance(case.body.get(field), str):
                case.body[field] = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    brief = case.body.get("brief", case.body) if isinstance(case.body, dict) else None
    if case.path in BRIEFS and isinstance(brief, dict):
        try:
            build_signature(brief.get("intent", ""), brief.get("terms", []))
        except NoTopicEvidence:
            brief["intent"] = A_TOPIC
