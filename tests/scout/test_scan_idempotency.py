"""Scan creation with an Idempotency-Key through the real gateway and scout: a retry gets the first
answer and makes no second run; the key reused for another brief is a 422; a key is its member's own."""

from __future__ import annotations

import uuid

from tests.scout.conftest import Member, Seed

BRIEF = {"intent": "鬼滅之刃 動畫心得", "terms": ["鬼滅之刃"], "target_count": 5}


def scan(member: Member, brief: dict, key: str):
    return member.call("POST", "/api/v1/scout/scan", json={"brief": brief}, headers={"Idempotency-Key": key})


def test_a_retried_scan_makes_one_run(member: Member, other_member: Member, seed: Seed) -> None:
    key = uuid.uuid4().hex
    first = scan(member, BRIEF, key)
    assert first.status_code == 200 and first.json()["code"] == 102000
    retry = scan(member, BRIEF, key)
    assert retry.status_code == 200 and retry.json() == first.json()
    assert seed.count("SELECT count(*) FROM scout.runs WHERE owner_id = :o", o=member.id) == 1
    other_brief = scan(member, {**BRIEF, "target_count": 6}, key)
    assert other_brief.status_code == 422
    assert other_brief.json() == {"code": 422000, "message": other_brief.json()["message"], "data": None,
                                  "error": "idempotency_conflict"}
    assert seed.count("SELECT count(*) FROM scout.runs WHERE owner_id = :o", o=member.id) == 1
    # Another member's request under the same key is theirs alone.
    theirs = scan(other_member, BRIEF, key)
    assert theirs.status_code == 200 and theirs.json()["data"]["run"]["id"] != first.json()["data"]["run"]["id"]
