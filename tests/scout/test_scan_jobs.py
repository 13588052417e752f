"""Flows A and B end to end: POST scan → outbox → relay → a real worker runs the staged pipeline
against a Threads-shaped HTTP server → results published at once; the job state machine of 3.1/5.3."""

from __future__ import annotations

import time

import redis
from sqlalchemy import text

from feeds_runtime.infra import free_port
from feeds_runtime.processes import grpc_serving, http_ok, python_module, wait_for
from tests.scout.conftest import JWT_SECRET, Member, Seed, ThreadsApi, scout_env, threads_post

RELEVANT = [
    "鬼滅之刃無限城篇第{n}次重看，炭治郎和猗窩座那段作畫還是很震撼",
    "今天把鬼滅之刃漫畫第{n}集補完了，煉獄杏壽郎真的太帥",
    "鬼滅之刃柱訓練篇第{n}話的配樂好好聽，梶浦由記太強",
]
OFF_TOPIC = [
    "最近有什麼動畫推薦嗎？第{n}次求熱門新番推薦",
    "週末第{n}天去咖啡廳讀書，分享一下心得",
]


def relevant_posts(prefix: str, count: int, *, host: str = "www.threads.net", query: str = "") -> list[dict]:
    return [threads_post(f"{prefix}R{i:04d}", RELEVANT[i % 3].format(n=i + 1), host=host, query=query,
                         timestamp=f"2026-07-{(i % 27) + 1:02d}T08:00:00+0000") for i in range(count)]


def off_topic_posts(prefix: str, count: int) -> list[dict]:
    return [threads_post(f"{prefix}X{i:04d}", OFF_TOPIC[i % 2].format(n=i + 1)) for i in range(count)]


def unique_term(api: ThreadsApi) -> str:
    """The test's term; the source forgets what earlier tests registered, so each test owns what it answers."""
    api.reset()
    return "鬼滅之刃"


def all_results(member: Member, run_id: str) -> list[dict]:
    return member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts", params={"pageSize": 50})["list"]


def test_filtered_shortfall_keeps_searching_and_never_pads_with_off_topic(member: Member, threads_api: ThreadsApi) -> None:
    # Given target 20, and a first page of 20 raw candidates of which only 7 are on topic, with 6 more
    # on-topic posts further down: 13 eligible in total
    term = unique_term(threads_api)
    first = relevant_posts("a", 7) + off_topic_posts("a", 13)
    second = relevant_posts("b", 6) + off_topic_posts("b", 14)
    threads_api.add(term, first + second)
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=20)
    assert created["run"]["status"] == "queued" and created["job"]["ref_id"] == created["run"]["id"]
    assert created["job"]["template_type"] == "scout_scan"
    # When the run finishes
    run = member.wait_terminal(created["run"]["id"])
    # Then the pipeline went past the first 20 raw candidates, and reports the honest shortfall
    assert run["status"] == "succeeded", run
    assert run["searched_count"] > 20
    assert run["eligible_count"] == 13 and run["shortfall_count"] == 7 and run["shortfall_reasons"]
    assert run["irrelevant_count"] >= 27
    assert run["stage_timings"] and run["started_at"] >= run["created_at"] and run["completed_at"] >= run["started_at"]
    results = all_results(member, run["id"])
    assert len(results) == 13 and all("鬼滅之刃" in p["text"] for p in results)
    scores = [p["score"] for p in results]
    assert scores == sorted(scores, reverse=True)
    job = member.ok("GET", f"/api/v1/jobs/{run['job_id']}")
    assert job["status"] == "succeeded" and job["completed_at"] > 0


def test_url_variants_collapse_and_a_later_run_never_takes_over_old_results(member: Member, threads_api: ThreadsApi) -> None:
    # Given one post reached through threads.net and www.threads.net with different query strings
    term = unique_term(threads_api)
    base = relevant_posts("a", 3)
    variants = [
        {**base[0], "permalink": base[0]["permalink"].replace("www.threads.net", "threads.net") + "?xmt=abc"},
        {**base[0], "permalink": base[0]["permalink"] + "?utm_source=x#top"},
    ]
    threads_api.add(term, base + variants)
    first = member.wait_terminal(member.scan(intent="鬼滅之刃", terms=[term], target_count=10)["run"]["id"])
    # Then only one result per post, the rest counted as duplicates
    assert first["eligible_count"] == 3 and first["duplicate_count"] >= 2
    first_results = all_results(member, first["id"])
    assert len({p["canonical_id"] for p in first_results}) == 3
    member.ok("POST", f"/api/v1/scout/posts/{first_results[0]['id']}/skip")
    # When the same theme runs again and finds the same posts plus new ones
    threads_api.add(term, base + relevant_posts("n", 2))
    second = member.wait_terminal(member.scan(intent="鬼滅之刃", terms=[term], target_count=10)["run"]["id"])
    # Then it is a new run, listed first; old results stay in the old run with their state
    assert second["id"] != first["id"]
    assert second["eligible_count"] == 2 and second["duplicate_count"] >= 3
    runs = member.ok("GET", "/api/v1/scout/runs")["list"]
    assert [r["id"] for r in runs[:2]] == [second["id"], first["id"]]
    again = all_results(member, first["id"])
    assert {p["id"] for p in again} == {p["id"] for p in first_results}
    assert next(p for p in again if p["id"] == first_results[0]["id"])["outreach_status"] == "skipped"
    assert {p["canonical_id"] for p in all_results(member, second["id"])}.isdisjoint({p["canonical_id"] for p in again})


def test_a_run_whose_every_source_fails_is_failed_with_nothing_published(member: Member, threads_api: ThreadsApi,
                                                                        seed: Seed) -> None:
    term = unique_term(threads_api)
    threads_api.failing.add(term)
    threads_api.add(term, relevant_posts("a", 5))
    run = member.wait_terminal(member.scan(intent="鬼滅之刃", terms=[term], target_count=5)["run"]["id"])
    assert run["status"] == "failed" and run["error_summary"]
    assert "test-threads-token" not in str(run)
    data = member.ok("GET", f"/api/v1/scout/runs/{run['id']}/posts")
    assert data["list"] == [] and data["pagination"]["total"] == 0
    assert seed.count("SELECT count(*) FROM scout.posts WHERE run_id = :r", r=run["id"]) == 0
    job = member.ok("GET", f"/api/v1/jobs/{run['job_id']}")
    assert job["status"] == "failed" and job["error_summary"]
    # A failed run is terminal: it can be deleted
    assert member.ok("DELETE", f"/api/v1/scout/runs/{run['id']}") == {"ok": True}


def test_cancelling_a_running_job_stops_it_between_stages_without_results(member: Member, threads_api: ThreadsApi,
                                                                         seed: Seed) -> None:
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 3) + off_topic_posts("a", 17) + relevant_posts("z", 3))
    threads_api.delay[term] = 1.5
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=20)
    job_id = created["job"]["id"]
    wait_for(lambda: member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "running", "job running", timeout=30)
    # Deleting a running run is refused
    assert member.call("DELETE", f"/api/v1/scout/runs/{created['run']['id']}").status_code == 409
    cancelled = member.ok("POST", f"/api/v1/jobs/{job_id}/cancel")
    assert cancelled["cancel_requested"] is True
    run = member.wait_terminal(created["run"]["id"])
    assert run["status"] == "cancelled"
    assert member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "cancelled"
    assert seed.count("SELECT count(*) FROM scout.posts WHERE run_id = :r", r=run["id"]) == 0
    # Terminal never reverts: cancelling again is a no-op, and the job stays cancelled
    assert member.ok("POST", f"/api/v1/jobs/{job_id}/cancel")["status"] == "cancelled"


def test_concurrent_workers_racing_for_one_job_run_it_once(member: Member, threads_api: ThreadsApi, seed: Seed,
                                                           scout_stack, redis_namespace: str, redis_url: str) -> None:
    # Given a scan whose job is delivered four times at once (the outbox sends each row), with two
    # worker processes ready
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 4))
    threads_api.delay[term] = 1.0
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=4)
    job_id = created["job"]["id"]
    with seed.engine.begin() as c:
        for _ in range(3):
            c.execute(text("""INSERT INTO scout.outbox (queue_name, actor_name, args)
                              VALUES ('scout.scan', 'scout.scan_run', CAST(:args AS jsonb))"""),
                      {"args": f'["{job_id}"]'})
    # While it runs, the job's Redis lock holds the id of the worker the job records
    wait_for(lambda: member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "running", "job running", timeout=30)
    worker = seed.count("SELECT worker_id FROM scout.jobs WHERE id = :j", j=job_id)
    lock = redis.Redis.from_url(redis_url).get(f"{redis_namespace}:scout:scan-lock:{job_id}")
    assert worker and lock is not None and lock.decode() == worker
    run = member.wait_terminal(created["run"]["id"])
    # Then one worker won: the source was asked once, the results exist once
    deadline = time.monotonic() + 30
    while seed.count("SELECT count(*) FROM scout.outbox WHERE args ->> 0 = :j AND acked_at IS NULL", j=job_id):
        assert time.monotonic() < deadline, "duplicate deliveries never finished"
        time.sleep(0.2)
    assert run["status"] == "succeeded" and run["eligible_count"] == 4
    assert threads_api.requests_for(term) == 1
    assert seed.count("SELECT count(*) FROM scout.posts WHERE run_id = :r", r=run["id"]) == 4
    assert member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "succeeded"


def _small_stack(processes, scout_stack, extra: dict[str, str], *, relay: bool) -> str:
    """Another scout server (and relay) plus a gateway on the same database, configured differently."""
    port, gateway_port = free_port(), free_port()
    env = {**extra, "SCOUT_GRPC_PORT": str(port)}
    processes.start("scout-server-x", python_module("scout", "server"), env)
    if relay:
        processes.start("scout-relay-x", python_module("scout", "relay"), env)
    processes.start("gateway-x", python_module("gateway", "server"), {
        "GATEWAY_PORT": str(gateway_port), "GATEWAY_SCOUT_ADDRESS": f"127.0.0.1:{port}",
        "GATEWAY_JWT_SECRET": JWT_SECRET})
    wait_for(lambda: grpc_serving(f"127.0.0.1:{port}"), "scout SERVING", processes)
    wait_for(lambda: http_ok(f"http://127.0.0.1:{gateway_port}/healthz"), "gateway up", processes)
    return f"http://127.0.0.1:{gateway_port}"


def test_no_configured_source_is_503_at_scan_time_and_writes_nothing(processes, scout_stack, seed: Seed) -> None:
    # Given a scout service whose only source is the Threads API, without its token
    url = _small_stack(processes, scout_stack, {"SCOUT_SOURCES": "threads"}, relay=False)
    member = Member(url)
    response = member.call("POST", "/api/v1/scout/scan", json={"brief": {"intent": "鬼滅之刃", "terms": ["鬼滅之刃"]}})
    body = response.json()
    assert response.status_code == 503 and body["code"] == 503001 and body["data"] is None
    assert seed.count("SELECT count(*) FROM scout.runs WHERE owner_id = :o", o=member.id) == 0
    assert seed.count("SELECT count(*) FROM scout.jobs WHERE owner_id = :o", o=member.id) == 0


def test_a_run_whose_job_cannot_be_scheduled_becomes_failed(processes, scout_stack, threads_api: ThreadsApi,
                                                            redis_namespace: str, fresh_database_url: str) -> None:
    # Given a deployment of its own (no other relay shares its outbox) whose jobs go to a queue
    # namespace no worker listens on, and whose outbox gives up after one delivery
    env = {**scout_env(threads_api), "DATABASE_URL": fresh_database_url, "REDIS_NAMESPACE": f"{redis_namespace}-nowhere",
           "SCOUT_OUTBOX_MAX_ATTEMPTS": "1", "SCOUT_OUTBOX_REDELIVER_SECONDS": "1"}
    processes.run("scout-migrate-x", python_module("scout", "migrate"), env)
    member = Member(_small_stack(processes, scout_stack, env, relay=True))
    created = member.scan(intent="鬼滅之刃", terms=["鬼滅之刃"], target_count=3)
    # When the delivery is never acknowledged
    run = member.wait_terminal(created["run"]["id"], timeout=30)
    # Then the run does not stay queued: it fails, and says why
    assert run["status"] == "failed" and "scheduled" in run["error_summary"]
    assert member.ok("GET", f"/api/v1/jobs/{created['job']['id']}")["status"] == "failed"
