"""Scan creation with an Idempotency-Key through the real gateway and scout: a retry gets the first
answer and makes no second run; the key reused for another brief is a 422; a key is its member's own.
Past the gateway's record of the key (its Redis entry gone, or a call straight to scout), scout's own
record answers the same run, and of identical scans at once one creates it (docs/scout.md 5.1)."""

from __future__ import annotations

import hashlib
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import grpc
import pytest
import redis
from sqlalchemy import text
from sqlalchemy.orm import Session

from devstack.platform import Platform
from devstack.processes import wait_for
from devstack.tls import DEV_CA
from feeds.scout.v1 import scout_pb2 as pb
from feeds.scout.v1 import scout_pb2_grpc
from feeds_runtime.errors import error_info
from scout.repositories.runs import RunRepository
from tests.scout.conftest import Member, Seed

BRIEF = {"intent": "鬼滅之刃 動畫心得", "terms": ["鬼滅之刃"], "target_count": 5}


def scan(member: Member, brief: dict, key: str | None):
    headers = {"Idempotency-Key": key} if key is not None else None
    return member.call("POST", "/api/v1/scout/scan", json={"brief": brief}, headers=headers)


def made(seed: Seed, owner: uuid.UUID) -> tuple[int, int, int]:
    """The owner's runs, jobs and scan job deliveries."""
    return (seed.count("SELECT count(*) FROM scout.runs WHERE owner_id = :o", o=owner),
            seed.count("SELECT count(*) FROM scout.jobs WHERE owner_id = :o", o=owner),
            seed.count("SELECT count(*) FROM scout.outbox WHERE args ->> 1 = :o", o=str(owner)))


class Scout:
    """Scan calls straight to the scout server, as the gateway makes them."""

    def __init__(self, platform: Platform) -> None:
        self.channel = DEV_CA.channel(platform.grpc_address("scout"))
        self.stub = scout_pb2_grpc.ScoutServiceStub(self.channel)

    def scan(self, owner: uuid.UUID, key: str, intent: str = BRIEF["intent"]) -> pb.ScanResponse:
        brief = pb.Brief(intent=intent, terms=BRIEF["terms"], target_count=BRIEF["target_count"])
        return self.stub.Scan(pb.ScanRequest(brief=brief, idempotency_key=key),
                              metadata=[("x-actor-id", str(owner))], timeout=30)


@pytest.fixture
def scout(scout_stack: Platform):
    client = Scout(scout_stack)
    yield client
    client.channel.close()


def test_a_retried_scan_makes_one_run(member: Member, other_member: Member, seed: Seed) -> None:
    key = uuid.uuid4().hex
    first = scan(member, BRIEF, key)
    assert first.status_code == 200 and first.json()["code"] == 102000
    retry = scan(member, BRIEF, key)
    assert retry.status_code == 200 and retry.json() == first.json()
    assert made(seed, member.id) == (1, 1, 1)
    other_brief = scan(member, {**BRIEF, "target_count": 6}, key)
    assert other_brief.status_code == 422
    assert other_brief.json() == {"code": 422000, "message": other_brief.json()["message"], "data": None,
                                  "error": "idempotency_conflict"}
    assert made(seed, member.id) == (1, 1, 1)
    # Another member's request under the same key is theirs alone.
    theirs = scan(other_member, BRIEF, key)
    assert theirs.status_code == 200 and theirs.json()["data"]["run"]["id"] != first.json()["data"]["run"]["id"]


def test_past_the_gateways_record_scouts_own_answers(member: Member, seed: Seed, redis_url: str,
                                                      redis_namespace: str) -> None:
    """A retry after a 503 whose commit is unknown finds no answer at the gateway (it keeps none for a
    5xx): here the gateway's record is removed, and the retry reaches scout, which answers the run."""
    key = uuid.uuid4().hex
    first = scan(member, BRIEF, key)
    assert first.status_code == 200
    run_id = first.json()["data"]["run"]["id"]
    gateway_record = f"{redis_namespace}:idempotency:member:{member.id}:{hashlib.sha256(key.encode()).hexdigest()}"
    with redis.Redis.from_url(redis_url) as client:
        # Given the gateway no longer holds the answer
        assert client.delete(gateway_record) == 1
        # When the member retries, then scout answers the same run, in the same envelope and status
        retry = scan(member, BRIEF, key)
        assert retry.status_code == 200 and retry.json()["code"] == 102000
        assert retry.json()["data"]["run"]["id"] == run_id
        assert retry.json()["data"]["job"]["id"] == first.json()["data"]["job"]["id"]
        assert made(seed, member.id) == (1, 1, 1)
        # And another brief under the key is scout's own 422, in the scout envelope, creating nothing
        assert client.delete(gateway_record) == 1
        other = scan(member, {**BRIEF, "terms": ["鬼滅之刃", "竈門炭治郎"]}, key)
    assert other.status_code == 422
    assert other.json() == {"code": 422000, "message": "this Idempotency-Key was used for a different scan",
                            "data": None, "error": "idempotency_conflict"}
    assert made(seed, member.id) == (1, 1, 1)


def test_scout_answers_a_key_it_holds_without_the_gateway(scout: Scout, seed: Seed) -> None:
    owner, key = uuid.uuid4(), "retry-1"
    first = scout.scan(owner, key)
    again = scout.scan(owner, key)
    assert (first.replayed, again.replayed) == (False, True)
    assert (again.run.id, again.job.id) == (first.run.id, first.job.id)
    with pytest.raises(grpc.RpcError) as conflict:
        scout.scan(owner, key, intent="咒術迴戰 動畫心得")
    assert conflict.value.code() is grpc.StatusCode.ABORTED
    assert error_info(conflict.value).reason == "idempotency_conflict"
    assert made(seed, owner) == (1, 1, 1)
    # A key is checked as the gateway checks the header: 1 to 255 printable ASCII characters
    for bad in ("x" * 256, "caf\u00e9", "a\tb"):
        with pytest.raises(grpc.RpcError) as refused:
            scout.scan(owner, bad)
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(refused.value).reason == "invalid_request"
    assert made(seed, owner) == (1, 1, 1)


def test_identical_scans_at_once_make_one_run(scout: Scout, seed: Seed) -> None:
    owner, key = uuid.uuid4(), uuid.uuid4().hex
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda _: scout.scan(owner, key), range(6)))
    assert len({answer.run.id for answer in answers}) == 1
    assert sorted(answer.replayed for answer in answers) == [False] + [True] * 5
    assert made(seed, owner) == (1, 1, 1)


def waits_on_a_lock(engine, pid: int) -> bool:
    with engine.connect() as connection:
        return connection.execute(text("SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = :pid"),
                                  {"pid": pid}).scalar_one() is True


def test_the_unique_index_decides_a_race(engine) -> None:
    """Without the scan's per-owner lock, two inserts under one key: the second waits for the first
    transaction, then finds its run rather than making a second."""
    owner, key = uuid.uuid4(), uuid.uuid4().hex

    def run_values() -> dict:
        return dict(id=uuid.uuid4(), owner_id=owner, job_id=uuid.uuid4(), theme_key="t", theme_label="t", intent="t",
                    mode="topic", brand_id=None, terms=["t"], target_count=5, status="queued",
                    created_at=datetime.now(UTC), idempotency_key=key, request_fingerprint="f")

    first_values, second_values = run_values(), run_values()
    with Session(engine) as first:
        assert RunRepository(first).insert(first_values)
        outcome: dict = {}
        second_pid = threading.Event()

        def second_insert() -> None:
            with Session(engine) as second:
                outcome["pid"] = second.execute(text("SELECT pg_backend_pid()")).scalar_one()
                second_pid.set()
                outcome["inserted"] = RunRepository(second).insert(second_values)
                outcome["winner"] = RunRepository(second).by_idempotency_key(owner, key)
                second.commit()

        racer = threading.Thread(target=second_insert)
        racer.start()
        assert second_pid.wait(30)
        # The second insert waits on the first transaction's row (seen from a connection of its own:
        # a transaction keeps its first view of pg_stat_activity)
        wait_for(lambda: waits_on_a_lock(engine, outcome["pid"]), "the second insert waiting", timeout=30)
        first.commit()
        racer.join(30)
    assert outcome["inserted"] is False
    assert outcome["winner"] == (first_values["id"], first_values["job_id"], "f")


def test_a_scan_without_a_key_is_a_new_run_each_time(member: Member, seed: Seed) -> None:
    runs = {scan(member, BRIEF, None).json()["data"]["run"]["id"] for _ in range(2)}
    assert len(runs) == 2 and made(seed, member.id) == (2, 2, 2)
    assert seed.count("SELECT count(*) FROM scout.runs WHERE owner_id = :o AND idempotency_key IS NULL "
                      "AND request_fingerprint IS NULL", o=member.id) == 2
