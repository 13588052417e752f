"""docs/scout.md 5.1 and 7: sign-in, bad input (400xxx, nothing written) and owner isolation on every route."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.scout.conftest import Member, Seed

GOOD_BRIEF = {"intent": "鬼滅之刃 動畫心得", "terms": ["鬼滅之刃"], "target_count": 5}


def written(seed: Seed, owner: uuid.UUID) -> int:
    return seed.count("""SELECT (SELECT count(*) FROM scout.runs WHERE owner_id = :o)
                              + (SELECT count(*) FROM scout.jobs WHERE owner_id = :o)
                              + (SELECT count(*) FROM scout.homework WHERE owner_id = :o)""", o=owner)


# Every route as (method, path template, request options); ids are filled in by `routes`.
ROUTES: list[tuple[str, str, dict]] = [
    ("POST", "/api/v1/scout/scan", {"json": {"brief": GOOD_BRIEF}}),
    ("POST", "/api/v1/scout/suggestions", {"json": {"intent": GOOD_BRIEF["intent"]}}),
    ("GET", "/api/v1/scout/runs", {}),
    ("GET", "/api/v1/scout/runs/{run_id}", {}),
    ("GET", "/api/v1/scout/runs/{run_id}/posts", {}),
    ("DELETE", "/api/v1/scout/runs/{run_id}", {}),
    ("GET", "/api/v1/scout/posts", {}),
    ("DELETE", "/api/v1/scout/themes/theme", {}),
    ("GET", "/api/v1/scout/homework", {}),
    ("PUT", "/api/v1/scout/homework/theme", {"json": GOOD_BRIEF}),
    ("DELETE", "/api/v1/scout/homework/theme", {}),
    ("POST", "/api/v1/scout/posts/{post_id}/draft", {"json": {"draft_text": "x"}}),
    ("POST", "/api/v1/scout/posts/{post_id}/skip", {}),
    ("POST", "/api/v1/scout/posts/{post_id}/publish", {}),
    ("DELETE", "/api/v1/scout/posts/{post_id}", {}),
    ("GET", "/api/v1/jobs/{job_id}", {}),
    ("POST", "/api/v1/jobs/{job_id}/cancel", {}),
]
ID_ROUTES = [route for route in ROUTES if "{" in route[1]]


def routes(run_id: str, post_id: str, job_id: str,
           selection: list[tuple[str, str, dict]] = ROUTES) -> list[tuple[str, str, dict]]:
    return [(method, template.format(run_id=run_id, post_id=post_id, job_id=job_id), kwargs)
            for method, template, kwargs in selection]


def test_every_route_needs_a_member_token(scout_stack) -> None:
    anonymous = httpx.Client(base_url=scout_stack.gateway_url)
    forged = httpx.Client(base_url=scout_stack.gateway_url, headers={"authorization": "Bearer not.a.jwt"})
    for client in (anonymous, forged):
        for method, path, kwargs in routes(str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4())):
            response = client.request(method, path, **kwargs)
            body = response.json()
            assert response.status_code == 401, (method, path)
            assert 401000 <= body["code"] < 402000 and body["data"] is None and body["error"]
        # sign-in is checked before the body or query is validated
        for method, path, kwargs in [("POST", "/api/v1/scout/scan", {"json": {"brief": 5}}),
                                     ("GET", "/api/v1/scout/runs", {"params": {"page": "two"}}),
                                     ("POST", f"/api/v1/scout/posts/{uuid.uuid4()}/draft", {"json": {"draft_text": 1}})]:
            assert client.request(method, path, **kwargs).status_code == 401, (method, path)


def test_another_owners_ids_are_not_found_on_every_route(member: Member, other_member: Member, seed: Seed) -> None:
    # Given a finished run with a result and a queued run, both of `member`
    run_id = seed.run(member.id, theme_key="theme", posts=[{"score": 0.5}])
    post_id = seed.count("SELECT id FROM scout.posts WHERE run_id = :r", r=run_id)
    queued = seed.run(member.id, theme_key="theme", status="queued")
    job_id = seed.count("SELECT job_id FROM scout.runs WHERE id = :r", r=queued)
    member.ok("PUT", "/api/v1/scout/homework/theme", json=GOOD_BRIEF)
    # When another member uses those ids on every route that takes one
    assert len(ID_ROUTES) == 9
    for method, path, kwargs in routes(run_id, str(post_id), str(job_id), ID_ROUTES):
        response = other_member.call(method, path, **kwargs)
        # Then not found, in the envelope, without saying whether it exists
        assert response.status_code == 404, (method, path, response.text)
        assert 404000 <= response.json()["code"] < 405000
    # And nothing of `member` shows in the other member's lists, nor is touched by their deletes
    assert other_member.ok("GET", "/api/v1/scout/runs")["pagination"]["total"] == 0
    assert other_member.ok("GET", "/api/v1/scout/posts")["pagination"]["total"] == 0
    assert other_member.ok("GET", "/api/v1/scout/homework")["list"] == []
    assert other_member.call("DELETE", "/api/v1/scout/homework/theme").status_code == 404
    assert other_member.ok("DELETE", "/api/v1/scout/themes/theme")["deleted_runs"] == 0
    assert member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["pagination"]["total"] == 1
    assert member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "queued"
    assert len(member.ok("GET", "/api/v1/scout/homework")["list"]) == 1


@pytest.mark.parametrize("brief, code", [
    ({"terms": ["鬼滅之刃"]}, 400000),                                  # intent missing
    ({"intent": "  ", "terms": ["鬼滅之刃"]}, 400001),                  # blank intent
    ({"intent": "鬼滅之刃", "terms": []}, 400001),                      # no approved term
    ({"intent": "鬼滅之刃", "terms": ["ok", " "]}, 400001),             # blank term
    ({"intent": "鬼滅之刃", "terms": [f"t{i}" for i in range(11)]}, 400001),
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "mode": "bogus"}, 400001),
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "mode": "brand"}, 400001),  # brand mode without brand
    ({"intent": "推薦 心得", "terms": ["推薦"]}, 400001),              # nothing but colloquial anchors
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "target_count": 41}, 400002),
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "target_count": -1}, 400002),
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "target_count": 0}, 400002),        # 0 is below the minimum
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "target_count": True}, 400000),     # a boolean is not a count
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "target_count": 5.5}, 400000),
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "target_count": "5"}, 400000),
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "target_count": "many"}, 400000),
    ({"intent": "鬼滅之刃", "terms": "鬼滅"}, 400000),
    ({"intent": "鬼滅之刃", "terms": ["鬼滅"], "owner_id": str(uuid.uuid4())}, 400000),  # no owner from a body
    ({"intent": "鬼滅\u0000之刃", "terms": ["鬼滅"]}, 400005),           # NUL refused before any rule runs
    ({"intent": "鬼滅之刃", "terms": ["鬼滅\u0000"]}, 400005),
])
def test_bad_briefs_are_400_and_write_nothing(member: Member, seed: Seed, brief: dict, code: int) -> None:
    response = member.call("POST", "/api/v1/scout/scan", json={"brief": brief})
    body = response.json()
    assert response.status_code == 400 and body["code"] == code and body["data"] is None, body
    homework = member.call("PUT", "/api/v1/scout/homework/key", json=brief)
    assert homework.status_code == 400
    assert written(seed, member.id) == 0


def test_a_long_request_without_a_label_is_a_brief_labeled_by_its_start(member: Member) -> None:
    intent = "大學時每天循環〈年少有為〉。" * 30  # 450 characters: a valid intent, too long for a label
    created = member.ok("POST", "/api/v1/scout/scan", json={"brief": {"intent": intent, "terms": ["李榮浩"]}})
    run = created["run"]
    assert run["intent"] == intent
    assert run["theme_label"] == intent[:200]
    # A label the member sends is theirs to keep short.
    refused = member.call("POST", "/api/v1/scout/scan",
                          json={"brief": {"intent": intent, "terms": ["李榮浩"], "theme_label": intent}})
    assert refused.status_code == 400 and refused.json()["code"] == 400001


@pytest.mark.parametrize("method, path, params", [
    ("GET", "/api/v1/scout/runs/not-a-uuid", {}),
    ("GET", "/api/v1/scout/runs/not-a-uuid/posts", {}),
    ("DELETE", "/api/v1/scout/runs/123", {}),
    ("POST", "/api/v1/scout/posts/xyz/skip", {}),
    ("DELETE", "/api/v1/scout/posts/xyz", {}),
    ("GET", "/api/v1/jobs/xyz", {}),
    ("POST", "/api/v1/jobs/xyz/cancel", {}),
    ("GET", "/api/v1/scout/runs", {"page": "two"}),
    ("GET", "/api/v1/scout/runs", {"pageSize": "1.5"}),
    ("GET", f"/api/v1/scout/runs/{uuid.uuid4()}/posts", {"page": "x"}),
    ("GET", "/api/v1/scout/posts", {"theme_key": "\x01"}),
    ("GET", "/api/v1/scout/runs", {"mode": "bogus"}),
    ("GET", "/api/v1/scout/runs", {"mode": "\x00"}),
    ("GET", "/api/v1/scout/runs", {"brand_id": "b\x00"}),
    ("GET", "/api/v1/scout/posts", {"theme_key": "t\x00"}),
])
def test_bad_ids_and_filters_are_400(member: Member, seed: Seed, method: str, path: str, params: dict) -> None:
    seed.run(member.id, posts=[{"score": 0.1}])
    before = seed.count("SELECT count(*) FROM scout.posts WHERE owner_id = :o", o=member.id)
    response = member.call(method, path, params=params)
    body = response.json()
    assert response.status_code == 400 and 400000 <= body["code"] < 401000 and body["data"] is None, body
    assert seed.count("SELECT count(*) FROM scout.posts WHERE owner_id = :o", o=member.id) == before


def test_unknown_ids_of_the_right_shape_are_404(member: Member) -> None:
    for path, code in [(f"/api/v1/scout/runs/{uuid.uuid4()}", 404001), (f"/api/v1/jobs/{uuid.uuid4()}", 404003)]:
        response = member.call("GET", path)
        assert response.status_code == 404 and response.json()["code"] == code


def test_a_draft_with_a_nul_character_is_400_and_keeps_the_saved_draft(member: Member, seed: Seed) -> None:
    run_id = seed.run(member.id, posts=[{"score": 0.5}])
    post_id = seed.count("SELECT id FROM scout.posts WHERE run_id = :r", r=run_id)
    member.ok("POST", f"/api/v1/scout/posts/{post_id}/draft", json={"draft_text": "saved"})
    response = member.call("POST", f"/api/v1/scout/posts/{post_id}/draft", json={"draft_text": "a\u0000b"})
    body = response.json()
    assert response.status_code == 400 and body["code"] == 400005 and body["data"] is None, body
    assert seed.count("SELECT draft_text FROM scout.posts WHERE id = :p", p=post_id) == "saved"


def test_an_unknown_mode_filter_is_400_not_an_empty_list(member: Member, seed: Seed) -> None:
    seed.run(member.id)
    response = member.call("GET", "/api/v1/scout/runs", params={"mode": "bogus"})
    assert response.status_code == 400 and response.json()["code"] == 400004
    assert member.ok("GET", "/api/v1/scout/runs", params={"mode": "topic"})["pagination"]["total"] == 1
