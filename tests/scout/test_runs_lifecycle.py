"""Deleting runs, legacy synthetic runs, homework (docs/scout.md flow F, 6.1), and the bound on a
member's scans queued or running at once (SCOUT_MAX_RUNNING_SCANS, 3 by default)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from tests.scout.conftest import Member, Seed


def test_an_active_run_cannot_be_deleted(member: Member, seed: Seed) -> None:
    # Given a running run
    run_id = seed.run(member.id, status="running")
    # When the member deletes it
    response = member.call("DELETE", f"/api/v1/scout/runs/{run_id}")
    # Then 409 and the run is still there, unchanged
    assert response.status_code == 409
    assert response.json() == {"code": 409001, "message": response.json()["message"], "data": None,
                               "error": "run_not_terminal"}
    assert member.ok("GET", f"/api/v1/scout/runs/{run_id}")["status"] == "running"


BRIEF = {"intent": "鬼滅之刃 動畫心得", "terms": ["鬼滅之刃"], "target_count": 5}


def test_a_scan_past_the_members_running_scans_is_a_429_until_one_finishes(member: Member, seed: Seed) -> None:
    active = [seed.run(member.id, status="running"), seed.run(member.id, status="running"),
              seed.run(member.id, status="queued")]
    refused = member.call("POST", "/api/v1/scout/scan", json={"brief": BRIEF})
    assert refused.status_code == 429, refused.text
    assert refused.json() == {"code": 429001, "message": refused.json()["message"], "data": None,
                              "error": "too_many_running_scans"}
    assert "3" in refused.json()["message"] and refused.headers["retry-after"] == "30"
    assert refused.headers["ratelimit-policy"].startswith('"scans";')
    assert seed.count("SELECT count(*) FROM scout.runs WHERE owner_id = :o", o=member.id) == 3
    # One finishes: of five scans sent at once, exactly one takes the place.
    with seed.engine.begin() as c:
        c.execute(text("UPDATE scout.runs SET status = 'succeeded' WHERE id = :id"), {"id": active[0]})
    with ThreadPoolExecutor(5) as pool:
        statuses = sorted(pool.map(lambda _: member.call("POST", "/api/v1/scout/scan", json={"brief": BRIEF}).status_code,
                                   range(5)))
    assert statuses == [200, 429, 429, 429, 429]
    assert seed.count("SELECT count(*) FROM scout.runs WHERE owner_id = :o AND status IN ('queued', 'running')",
                      o=member.id) <= 3


def test_deleting_a_finished_run_removes_its_results_and_keeps_homework(member: Member, seed: Seed) -> None:
    member.ok("PUT", "/api/v1/scout/homework/anime", json={"intent": "鬼滅之刃", "terms": ["鬼滅之刃"]})
    run_id = seed.run(member.id, theme_key="anime", posts=[{"score": 0.5}, {"score": 0.4}])
    assert member.ok("DELETE", f"/api/v1/scout/runs/{run_id}") == {"ok": True}
    assert member.call("GET", f"/api/v1/scout/runs/{run_id}").status_code == 404
    assert seed.count("SELECT count(*) FROM scout.posts WHERE run_id = :r", r=run_id) == 0
    homework = member.ok("GET", "/api/v1/scout/homework")["list"]
    assert [h["theme_key"] for h in homework] == ["anime"]
    assert homework[0]["brief"]["target_count"] == 20


def test_legacy_results_show_as_one_read_only_run_per_theme(member: Member, seed: Seed) -> None:
    # Given results saved before runs existed: two of theme "old", one without a theme
    with seed.engine.begin() as c:
        seed.post(c, member.id, None, "old", score=0.3, status="new", created_at="2026-01-01T00:00:00Z")
        seed.post(c, member.id, None, "old", score=0.9, status="skipped", created_at="2026-01-02T00:00:00Z")
        seed.post(c, member.id, None, None, score=0.1, created_at="2025-12-01T00:00:00Z")
    runs = member.ok("GET", "/api/v1/scout/runs")["list"]
    legacy = [r for r in runs if r["legacy"]]
    # Then one synthetic run per theme, dated by its latest result, counted over the whole group
    assert len(legacy) == 2
    old = next(r for r in legacy if r["theme_key"] == "old")
    assert old["eligible_count"] == 2 and old["pending_count"] == 1 and old["status"] == "succeeded"
    assert old["created_at"] == 1767312000 * 10**9
    # Its results follow the same order and carry the synthetic run id
    posts = member.ok("GET", f"/api/v1/scout/runs/{old['id']}/posts")["list"]
    assert [p["score"] for p in posts] == [0.9, 0.3] and {p["run_id"] for p in posts} == {old["id"]}
    # The same id every time
    assert member.ok("GET", f"/api/v1/scout/runs/{old['id']}")["id"] == old["id"]
    # It can be deleted as a whole
    assert member.ok("DELETE", f"/api/v1/scout/runs/{old['id']}") == {"ok": True}
    assert seed.count("SELECT count(*) FROM scout.posts WHERE owner_id = :o AND theme_key = 'old'", o=member.id) == 0
    assert len([r for r in member.ok("GET", "/api/v1/scout/runs")["list"] if r["legacy"]]) == 1


def test_legacy_posts_list_and_theme_delete(member: Member, seed: Seed) -> None:
    kept = seed.run(member.id, theme_key="keep", posts=[{"score": 0.2}])
    gone = seed.run(member.id, theme_key="drop", posts=[{"score": 0.4}, {"score": 0.3}])
    active = seed.run(member.id, theme_key="drop", status="queued")
    data = member.ok("GET", "/api/v1/scout/posts")
    assert data["pagination"]["total"] == 3 and [p["score"] for p in data["list"]] == [0.4, 0.3, 0.2]
    result = member.ok("DELETE", "/api/v1/scout/themes/drop")
    assert result == {"ok": True, "deleted_runs": 1, "deleted_posts": 2}
    assert member.call("GET", f"/api/v1/scout/runs/{gone}").status_code == 404
    assert member.ok("GET", f"/api/v1/scout/runs/{active}")["status"] == "queued"
    assert member.ok("GET", f"/api/v1/scout/runs/{kept}/posts")["pagination"]["total"] == 1


def test_terminal_states_never_revert_even_by_direct_update(member: Member, seed: Seed) -> None:
    run_id = seed.run(member.id, status="succeeded")
    with seed.engine.connect() as c, pytest.raises(DBAPIError, match="a terminal run never changes status"):
        c.execute(text("UPDATE scout.runs SET status = 'running' WHERE id = :id"), {"id": run_id})
    assert member.ok("GET", f"/api/v1/scout/runs/{run_id}")["status"] == "succeeded"


def test_legacy_results_with_an_empty_theme_key_join_the_fallback_run_and_take_actions(member: Member,
                                                                                      seed: Seed) -> None:
    # Given legacy results without a theme: one NULL, one empty
    with seed.engine.begin() as c:
        seed.post(c, member.id, None, None, score=0.2, created_at="2026-01-01T00:00:00Z")
        seed.post(c, member.id, None, "", score=0.6, created_at="2026-01-02T00:00:00Z")
    # Then both belong to one synthetic run, whichever way the id is computed
    legacy = [r for r in member.ok("GET", "/api/v1/scout/runs")["list"] if r["legacy"]]
    assert len(legacy) == 1 and legacy[0]["eligible_count"] == 2 and legacy[0]["pending_count"] == 2
    run_id = legacy[0]["id"]
    posts = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["list"]
    assert [p["score"] for p in posts] == [0.6, 0.2] and {p["run_id"] for p in posts} == {run_id}
    assert {p["run_id"] for p in member.ok("GET", "/api/v1/scout/posts")["list"]} == {run_id}
    # And draft, publish and skip answer with that run and its new pending count
    empty_key = posts[0]["id"]
    drafted = member.ok("POST", f"/api/v1/scout/posts/{empty_key}/draft", json={"draft_text": "hi"})
    assert drafted["run"]["id"] == run_id and drafted["post"]["run_id"] == run_id
    published = member.ok("POST", f"/api/v1/scout/posts/{empty_key}/publish")
    assert published["run"]["id"] == run_id and published["run"]["pending_count"] == 1
    skipped = member.ok("POST", f"/api/v1/scout/posts/{posts[1]['id']}/skip")
    assert skipped["run"]["id"] == run_id and skipped["run"]["pending_count"] == 0
    deleted = member.ok("DELETE", f"/api/v1/scout/posts/{empty_key}")
    assert deleted["run"]["id"] == run_id and deleted["run"]["eligible_count"] == 1


def test_shortfall_is_a_succeeded_runs_and_always_has_a_reason(member: Member, seed: Seed) -> None:
    # Given a succeeded run that met its target of 2
    run_id = seed.run(member.id, target=2, posts=[{"score": 0.5}, {"score": 0.4}])
    run = member.ok("GET", f"/api/v1/scout/runs/{run_id}")
    assert (run["shortfall_count"], run["shortfall_reasons"]) == (0, [])
    # When the member deletes one of its results
    post_id = seed.count("SELECT id FROM scout.posts WHERE run_id = :r ORDER BY score LIMIT 1", r=run_id)
    after = member.ok("DELETE", f"/api/v1/scout/posts/{post_id}")["run"]
    # Then it falls short by one, and says why
    assert after["eligible_count"] == 1 and after["shortfall_count"] == 1
    assert after["shortfall_reasons"] == ["results_deleted"]
    # A failed or cancelled run has no result set to fall short of
    for status in ("failed", "cancelled"):
        other = member.ok("GET", f"/api/v1/scout/runs/{seed.run(member.id, status=status, target=20)}")
        assert (other["eligible_count"], other["shortfall_count"], other["shortfall_reasons"]) == (0, 0, [])
