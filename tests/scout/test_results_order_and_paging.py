"""docs/scout.md flows D/E and 8.1 through the gateway: result order, paging, pending counts and time fields."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from tests.scout.conftest import Member, Seed

NS = 1_000_000_000


def all_pages(member: Member, run_id: str, page_size: int) -> list[dict]:
    first = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts", params={"page": 1, "pageSize": page_size})
    items = list(first["list"])
    for page in range(2, first["pagination"]["totalPages"] + 1):
        items += member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts",
                           params={"page": page, "pageSize": page_size})["list"]
    return items


def test_score_orders_results_and_outreach_status_never_jumps_the_queue(member: Member, seed: Seed) -> None:
    # Given results of one run with different scores and outreach states
    run_id = seed.run(member.id, posts=[
        {"score": 0.5, "status": "published", "posted_at": "2026-07-01T00:00:00Z"},
        {"score": 0.9, "status": "skipped", "posted_at": "2020-01-01T00:00:00Z"},
        {"score": 0.7, "status": "new", "posted_at": "2026-07-02T00:00:00Z"},
        {"score": 0.8, "status": "drafted"},
        {"score": 0.6, "status": "new", "posted_at": "2026-07-03T00:00:00Z"},
    ])
    # When the results are listed
    items = all_pages(member, run_id, 2)
    # Then score is strictly descending, whatever the status or age
    assert [p["score"] for p in items] == [0.9, 0.8, 0.7, 0.6, 0.5]
    assert all(p["run_id"] == run_id for p in items)


def test_equal_scores_put_known_posted_at_first_and_unknown_last(member: Member, seed: Seed) -> None:
    # Given three results with the same score, one without a posted_at
    run_id = seed.run(member.id, posts=[
        {"score": 0.7, "posted_at": None},
        {"score": 0.7, "posted_at": "2026-06-01T00:00:00Z"},
        {"score": 0.7, "posted_at": "2026-07-01T00:00:00Z"},
    ])
    items = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["list"]
    # Then known times come first, newest first, and the unknown one is last with posted_at 0
    posted = [p["posted_at"] for p in items]
    assert posted[2] == 0 and posted[0] > posted[1] > 0
    # and the scan time is its own field, never a stand-in for the post time
    assert all(p["created_at"] > 0 for p in items)


def test_full_ties_break_on_id_and_pages_neither_repeat_nor_skip(member: Member, seed: Seed) -> None:
    # Given results equal in score, posted_at and created_at
    ids = sorted((uuid.uuid4() for _ in range(7)), reverse=True)
    run_id = seed.run(member.id, posts=[
        {"score": 0.5, "posted_at": "2026-07-01T00:00:00Z", "created_at": "2026-07-02T00:00:00Z", "post_id": i}
        for i in ids
    ])
    # When pages 1 and 2 are fetched twice
    first = all_pages(member, run_id, 3)
    second = all_pages(member, run_id, 3)
    # Then the order is the id order, the same every time, with every result exactly once
    assert [p["id"] for p in first] == [str(i) for i in ids]
    assert first == second


def test_run_counts_cover_the_whole_run_not_the_page(member: Member, seed: Seed) -> None:
    # Given a run of 27 results, 9 of them pending (new or drafted)
    states = ["new"] * 5 + ["drafted"] * 4 + ["skipped"] * 10 + ["published"] * 8
    run_id = seed.run(member.id, posts=[{"score": i / 100, "status": s} for i, s in enumerate(states)])
    # When the first results page (default size 8) is read
    data = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")
    # Then total is 27 and pending 9
    assert len(data["list"]) == 8
    assert data["pagination"] == {"page": 1, "pageSize": 8, "total": 27, "totalPages": 4}
    assert data["run"]["pending_count"] == 9 and data["run"]["eligible_count"] == 27
    listed = [r for r in member.ok("GET", "/api/v1/scout/runs")["list"] if r["id"] == run_id]
    assert listed[0]["pending_count"] == 9


def test_outreach_actions_update_pending_and_deletion_updates_total(member: Member, seed: Seed) -> None:
    run_id = seed.run(member.id, target=3, posts=[{"score": 0.9}, {"score": 0.8}, {"score": 0.7}])
    top, second, third = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["list"]
    drafted = member.ok("POST", f"/api/v1/scout/posts/{top['id']}/draft", json={"draft_text": "hello"})
    assert drafted["post"]["outreach_status"] == "drafted" and drafted["run"]["pending_count"] == 3
    published = member.ok("POST", f"/api/v1/scout/posts/{top['id']}/publish")
    assert published["post"]["outreach_status"] == "published" and published["run"]["pending_count"] == 2
    skipped = member.ok("POST", f"/api/v1/scout/posts/{second['id']}/skip")
    assert skipped["run"]["pending_count"] == 1
    # A skipped result cannot be published: 409 and nothing changes
    response = member.call("POST", f"/api/v1/scout/posts/{second['id']}/publish")
    assert response.status_code == 409 and response.json()["code"] == 409002
    # Order never follows the status
    assert [p["id"] for p in member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["list"]] == \
        [top["id"], second["id"], third["id"]]
    # Deleting one result shrinks total, eligible count and grows the shortfall
    deleted = member.ok("DELETE", f"/api/v1/scout/posts/{third['id']}")
    assert deleted["run"]["eligible_count"] == 2 and deleted["run"]["shortfall_count"] == 1
    assert member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["pagination"]["total"] == 2


def test_page_parameters_are_normalized(member: Member, seed: Seed) -> None:
    run_id = seed.run(member.id, posts=[{"score": i / 100} for i in range(60)])
    below = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts", params={"page": -3, "pageSize": 0})
    assert below["pagination"]["page"] == 1 and below["pagination"]["pageSize"] == 8
    capped = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts", params={"pageSize": 500})
    assert capped["pagination"]["pageSize"] == 50 and len(capped["list"]) == 50
    past_end = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts", params={"page": 99})
    assert past_end["list"] == [] and past_end["pagination"]["total"] == 60


def test_runs_page_newest_first_with_id_tie_break(member: Member, seed: Seed) -> None:
    same_time = "2026-07-01T00:00:00Z"
    ids = [seed.run(member.id, theme_key=f"t{i}", created_at=same_time) for i in range(3)]
    newest = seed.run(member.id, theme_key="newest", created_at="2026-08-01T00:00:00Z")
    data = member.ok("GET", "/api/v1/scout/runs", params={"pageSize": 2})
    assert data["pagination"]["pageSize"] == 2 and data["pagination"]["total"] == 4
    listed = data["list"] + member.ok("GET", "/api/v1/scout/runs", params={"page": 2, "pageSize": 2})["list"]
    assert [r["id"] for r in listed] == [newest, *sorted(ids, reverse=True)]
    assert member.ok("GET", "/api/v1/scout/runs")["pagination"]["pageSize"] == 10


def test_drafting_again_without_text_keeps_the_saved_draft(member: Member, seed: Seed) -> None:
    run_id = seed.run(member.id, posts=[{"score": 0.5}])
    post_id = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["list"][0]["id"]
    path = f"/api/v1/scout/posts/{post_id}/draft"
    assert member.ok("POST", path, json={"draft_text": "寫好的回覆"})["post"]["draft_text"] == "寫好的回覆"
    # Drafting again with no body, or a body without text, changes nothing of the saved text
    assert member.ok("POST", path)["post"]["draft_text"] == "寫好的回覆"
    assert member.ok("POST", path, json={})["post"]["draft_text"] == "寫好的回覆"
    # An explicit empty text clears it
    assert member.ok("POST", path, json={"draft_text": ""})["post"]["draft_text"] == ""
    assert member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["list"][0]["outreach_status"] == "drafted"


def test_run_pages_and_their_total_come_together_even_past_the_end(member: Member, seed: Seed) -> None:
    ids = [seed.run(member.id, created_at=datetime.now(UTC) - timedelta(minutes=n)) for n in range(3)]
    with seed.engine.begin() as c:  # and one legacy group
        seed.post(c, member.id, None, "old", score=0.3, created_at="2020-01-01T00:00:00Z")
    first = member.ok("GET", "/api/v1/scout/runs", params={"pageSize": 2})
    assert [r["id"] for r in first["list"]] == ids[:2] and first["pagination"]["total"] == 4
    last = member.ok("GET", "/api/v1/scout/runs", params={"page": 2, "pageSize": 2})
    assert [r["id"] for r in last["list"]][0] == ids[2] and last["list"][1]["legacy"]
    past = member.ok("GET", "/api/v1/scout/runs", params={"page": 9, "pageSize": 2})
    assert past["list"] == [] and past["pagination"] == {"page": 9, "pageSize": 2, "total": 4, "totalPages": 2}
