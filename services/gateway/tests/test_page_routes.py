"""How the gateway serves the pages: assets only from the pages folder, and the dev sign-in only
under FEEDS_ENV=dev (production, what runs when nothing is set, has no such path)."""

from __future__ import annotations

import re
import uuid

import jwt
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.settings import GatewaySettings

SECRET = "page-routes-secret-0123456789abcdef"


def client(**settings) -> TestClient:
    return TestClient(create_app(GatewaySettings(jwt_secret=SECRET, host_keys=[], **settings)))


def test_dev_sign_in_does_not_exist_in_production(monkeypatch):
    monkeypatch.delenv("FEEDS_ENV")
    gateway = client(redis_url="redis://127.0.0.1:1/0", grpc_mesh_mtls=True)
    assert not any(getattr(route, "path", "") == "/dev/sign-in" for route in gateway.app.routes)
    assert gateway.get("/dev/sign-in").status_code == 404
    response = gateway.post("/dev/sign-in", json={"memberId": "6f1c2d1e-8a43-4a55-9d43-0c6c8e0f3a10"})
    assert response.status_code == 404 and "token" not in response.text
    page = gateway.get("/scout")
    assert page.status_code == 200 and "feeds-sign-in" not in page.text


def test_dev_issues_a_short_lived_token_for_the_chosen_member():
    gateway = client(feeds_env="dev")
    member = "6f1c2d1e-8a43-4a55-9d43-0c6c8e0f3a10"
    response = gateway.post("/dev/sign-in", json={"memberId": member})
    assert response.status_code == 200
    claims = jwt.decode(response.json()["token"], SECRET, algorithms=["HS256"])
    assert claims["sub"] == member and claims["exp"] - claims["iat"] == 3600
    assert gateway.post("/dev/sign-in", json={"memberId": "not-a-uuid"}).status_code == 400
    assert '<meta name="feeds-sign-in" content="/dev/sign-in">' in gateway.get("/feed").text


def test_a_configured_sign_in_page_is_where_the_pages_send_members():
    gateway = client(sign_in_url="https://id.example.com/sign-in?app=feeds", feeds_env="production",
                     redis_url="redis://127.0.0.1:1/0", grpc_mesh_mtls=True)
    for path in ("/scout", "/feed"):
        assert '<meta name="feeds-sign-in" content="https://id.example.com/sign-in?app=feeds">' in gateway.get(path).text
    assert gateway.get("/dev/sign-in").status_code == 404


def test_pages_and_assets_are_served_with_a_strict_policy_and_nothing_outside_the_folder():
    gateway = client()
    for path in ("/scout", "/feed", "/pages/assets/scout/repository.js", "/pages/assets/app.css"):
        response = gateway.get(path)
        assert response.status_code == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"]
    assert gateway.get("/pages/assets/scout/page.js").headers["content-type"].startswith("text/javascript")
    for path in ("/pages/assets/../../routes/pages.py", "/pages/assets/%2e%2e/%2e%2e/settings.py",
                 "/pages/assets/missing.js"):
        assert gateway.get(path).status_code == 404, path


def test_dev_sign_in_form_arrives_with_a_new_member_id_in_its_field():
    gateway = client(feeds_env="dev")
    ids = [re.search(r'<input id="member-id" name="memberId" value="([^"]*)"', gateway.get("/dev/sign-in").text)[1]
           for _ in range(2)]
    assert all(uuid.UUID(value) for value in ids) and ids[0] != ids[1]
