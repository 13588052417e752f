"""Flows A and B end to end: POST scan → outbox → relay → a real worker runs the staged pipeline
against a Threads-shaped HTTP server → results published at once; the job state machine of docs/scout.md 3.1/5.3."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid

import httpx
import redis
from sqlalchemy import text

from devstack import scout_seed
from devstack.infra import free_port
from devstack.processes import grpc_serving, http_ok, python_module, wait_for
from devstack.scout_seed import SeedRun
from scout.scan.executor import scan_lock_key
from devstack.search_api import graph_error
from devstack.tls import DEV_CA
from tests.scout.conftest import (SERP_KEY, THREADS_TOKEN, JWT_SECRET, Member, Seed, ThreadsApi, scan_jobs_settled, scout_env,
                                  threads_post)

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
    assert created["job"]["template_type"] == "scout_scan" and created["job"]["progress_stage"] == "queued"
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
    assert (job["progress_stage"], job["progress_stage_number"]) == ("finished", 0)


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
    threads_api.hold(term)
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=20)
    job_id = created["job"]["id"]
    # The first stage's request is held by the source: the job says so as data (stage and number)
    wait_for(lambda: (lambda job: (job["status"], job["progress_stage"], job["progress_stage_number"]))(
        member.ok("GET", f"/api/v1/jobs/{job_id}")) == ("running", "searching", 1), "job searching stage 1", timeout=30)
    # Deleting a running run is refused
    assert member.call("DELETE", f"/api/v1/scout/runs/{created['run']['id']}").status_code == 409
    cancelled = member.ok("POST", f"/api/v1/jobs/{job_id}/cancel")
    assert cancelled["cancel_requested"] is True
    threads_api.release(term)
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
    threads_api.hold(term)
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=4)
    job_id = created["job"]["id"]
    with seed.engine.begin() as c:
        for _ in range(3):
            c.execute(text("""INSERT INTO scout.outbox (queue_name, actor_name, args)
                              VALUES ('scout.scan', 'scout.scan_run', CAST(:args AS jsonb))"""),
                      {"args": f'["{job_id}", "{member.id}"]'})
    # While it runs, the job's Redis lock holds the id of the worker the job records
    wait_for(lambda: member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "running", "job running", timeout=30)
    worker = seed.count("SELECT worker_id FROM scout.jobs WHERE id = :j", j=job_id)
    lock = redis.Redis.from_url(redis_url).get(f"{redis_namespace}:scout:scan-lock:{job_id}")
    assert worker and lock is not None and lock.decode() == worker
    threads_api.release(term)
    run = member.wait_terminal(created["run"]["id"])
    # Then one worker won: the source was asked once, the results exist once
    wait_for(lambda: scan_jobs_settled(seed.engine, job_id), "duplicate deliveries acknowledged", scout_stack.group, 60)
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
        "GATEWAY_JWT_SECRET": JWT_SECRET, **DEV_CA.env("gateway")})
    wait_for(lambda: grpc_serving(f"127.0.0.1:{port}"), "scout SERVING", processes)
    wait_for(lambda: http_ok(f"http://127.0.0.1:{gateway_port}/healthz"), "gateway up", processes)
    return f"http://127.0.0.1:{gateway_port}"


def test_a_source_without_its_credential_stops_the_server_at_start(platform_env, threads_api: ThreadsApi) -> None:
    # Given a scout server whose only source is the Threads API, without its token
    env = {**os.environ, **platform_env, **scout_env(threads_api), "SCOUT_SOURCES": "threads",
           "SCOUT_THREADS_ACCESS_TOKEN": ""}
    # When it starts, Then it stops at once with one line naming the variable, before serving anything
    done = subprocess.run([sys.executable, "-m", "scout", "server"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "configuration error: SCOUT_THREADS_ACCESS_TOKEN: required when SCOUT_SOURCES names threads"]


def test_a_run_whose_job_cannot_be_scheduled_becomes_failed(processes, scout_stack, threads_api: ThreadsApi,
                                                            redis_namespace: str, fresh_database_url: str) -> None:
    # Given a deployment of its own (no other relay shares its outbox) whose jobs go to a queue
    # namespace no worker listens on, and whose outbox gives up after one delivery
    env = {**scout_env(threads_api), "DATABASE_URL": fresh_database_url, "REDIS_NAMESPACE": f"{redis_namespace}-nowhere",
           "SCOUT_OUTBOX_MAX_ATTEMPTS": "1", "SCOUT_OUTBOX_LEASE_SECONDS": "1"}
    processes.run("scout-migrate-x", python_module("scout", "migrate"), env)
    member = Member(_small_stack(processes, scout_stack, env, relay=True))
    created = member.scan(intent="鬼滅之刃", terms=["鬼滅之刃"], target_count=3)
    # When the delivery is never acknowledged
    run = member.wait_terminal(created["run"]["id"], timeout=30)
    # Then the run does not stay queued: it fails, and says why
    assert run["status"] == "failed" and "scheduled" in run["error_summary"]
    assert member.ok("GET", f"/api/v1/jobs/{created['job']['id']}")["status"] == "failed"


def test_counts_show_while_running_and_results_only_once_published(member: Member, threads_api: ThreadsApi) -> None:
    # Given a first page of 20 (7 on topic), and the later searches held, so the run is seen between stages
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 7) + off_topic_posts("a", 13) + relevant_posts("b", 3))
    threads_api.hold(term, answered=1)
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=20)
    job_id, run_id = created["job"]["id"], created["run"]["id"]
    # When stage 1 has been judged
    wait_for(lambda: member.ok("GET", f"/api/v1/jobs/{job_id}")["searched_count"] >= 20, "stage 1 judged", timeout=30)
    job = member.ok("GET", f"/api/v1/jobs/{job_id}")
    run = member.ok("GET", f"/api/v1/scout/runs/{run_id}")
    published = member.ok("GET", f"/api/v1/scout/runs/{run_id}/posts")["pagination"]["total"]
    threads_api.release(term)
    # Then the job and the run carry the current counts, and no result is visible yet
    assert run["status"] == "running" and job["status"] == "running" and job["target_count"] == 20
    assert (job["searched_count"], job["irrelevant_count"]) == (20, 13) and job["eligible_count"] == 7
    assert (run["searched_count"], run["irrelevant_count"], run["eligible_count"]) == (20, 13, 7)
    assert run["shortfall_count"] == 0 and run["shortfall_reasons"] == []
    assert published == 0
    final = member.wait_terminal(run_id)
    assert final["status"] == "succeeded" and final["eligible_count"] == 10 and final["searched_count"] >= 23
    job = member.ok("GET", f"/api/v1/jobs/{job_id}")
    assert (job["eligible_count"], job["searched_count"]) == (10, final["searched_count"])


def test_a_worker_that_loses_its_lock_mid_run_hands_the_job_to_a_retry(member: Member, threads_api: ThreadsApi,
                                                                       seed: Seed, redis_namespace: str,
                                                                       redis_url: str) -> None:
    # Given a running scan whose requests are slow
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 4))
    threads_api.hold(term)
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=4)
    job_id = created["job"]["id"]
    # (mid-stage: its first search request has reached the source, which holds it)
    wait_for(lambda: threads_api.requests_for(term) >= 1, "first search under way", timeout=30)
    # When its lock expires mid-run
    assert redis.Redis.from_url(redis_url).delete(scan_lock_key(redis_namespace, job_id)) == 1
    threads_api.release(term)
    # Then the job is not left running: a retry takes it over and publishes the results once
    run = member.wait_terminal(created["run"]["id"], timeout=30)
    assert run["status"] == "succeeded" and run["eligible_count"] == 4
    assert seed.count("SELECT count(*) FROM scout.posts WHERE run_id = :r", r=run["id"]) == 4
    assert member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "succeeded"
    assert threads_api.requests_for(term) >= 2  # the first attempt stopped, the retry asked again


def scan_held_on_a_worker(member: Member, threads_api: ThreadsApi, seed: Seed) -> tuple[str, dict, str, str]:
    """A scan whose first search the source holds: its term, the created run and job, the job's id
    and the worker holding it."""
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 4))
    threads_api.hold(term)
    created = member.scan(intent="鬼滅之刃", terms=[term], target_count=4)
    job_id = created["job"]["id"]
    wait_for(lambda: threads_api.requests_for(term) >= 1, "first search under way", timeout=30)
    return term, created, job_id, seed.count("SELECT worker_id FROM scout.jobs WHERE id = :j", j=job_id)


def test_a_worker_killed_mid_scan_hands_the_job_over_within_seconds(member: Member, threads_api: ThreadsApi,
                                                                     seed: Seed, scout_stack) -> None:
    # Given a scan under way on one of the two workers, in the middle of a slow search
    term, created, job_id, first = scan_held_on_a_worker(member, threads_api, seed)
    # When that worker process is killed without warning (its parent and siblings too)
    group = scout_stack.group
    pgid = os.getpgid(int(first.split(":")[1]))
    killed = next(p for p in group.processes if p.popen.pid == pgid)
    os.killpg(pgid, signal.SIGKILL)
    killed.popen.wait()
    killed_at = time.monotonic()
    threads_api.release(term)
    try:
        # Then the other worker takes the job over within seconds, once the dead one's lease and
        # scan lock have lapsed, and the run succeeds with its results published once
        wait_for(lambda: seed.count("SELECT worker_id FROM scout.jobs WHERE id = :j", j=job_id) != first,
                 "job taken over", timeout=60)
        taken_over = time.monotonic() - killed_at
        assert taken_over <= 10, f"job taken over {taken_over:.1f} s after the kill"
        run = member.wait_terminal(created["run"]["id"], timeout=60)
        assert run["status"] == "succeeded" and run["eligible_count"] == 4
        assert seed.count("SELECT count(*) FROM scout.posts WHERE run_id = :r", r=run["id"]) == 4
    finally:
        group.processes.remove(killed)
        group.start(killed.name, python_module("scout", "worker"), scout_stack.service_env("scout"))


def stop_outside_transactions(pid: int, seed: Seed) -> None:
    """SIGSTOP the process at a moment no other session of the database is in a statement or a
    transaction, so the stopped one holds no row lock (its lease renewal's, say) while it sleeps."""
    def stopped_cleanly() -> bool:
        os.kill(pid, signal.SIGSTOP)
        if not seed.count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                          "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"):
            return True
        os.kill(pid, signal.SIGCONT)
        return False
    wait_for(stopped_cleanly, "a moment between transactions", timeout=60)


def test_a_worker_stalled_past_its_lease_and_lock_publishes_nothing_once_it_wakes(
        member: Member, threads_api: ThreadsApi, seed: Seed, scout_stack) -> None:
    # Given a scan under way on one of the two workers, its first search held by the source
    term, created, job_id, first = scan_held_on_a_worker(member, threads_api, seed)
    pid = int(first.split(":")[1])
    group = scout_stack.group
    stalled = next(p for p in group.processes if p.popen.pid == os.getpgid(pid))
    # When that worker process stops running (as a starved one does) until its outbox lease and its
    # scan lock have lapsed and the job's message went to the other worker, then runs again
    stop_outside_transactions(pid, seed)
    try:
        wait_for(lambda: seed.count("SELECT worker_id FROM scout.jobs WHERE id = :j", j=job_id) != first,
                 "job taken over", group, 120)
    finally:
        os.kill(pid, signal.SIGCONT)
    threads_api.release(term)
    try:
        run = member.wait_terminal(created["run"]["id"], timeout=120)
        # (a graceful stop lets the woken worker finish what it was doing)
        stalled.popen.send_signal(signal.SIGTERM)
        assert stalled.popen.wait(90) == 0
    finally:
        group.processes.remove(stalled)
        group.start(stalled.name, python_module("scout", "worker"), scout_stack.service_env("scout"))
    # Then the scan took effect once: the run and job succeeded with the taking-over worker, every
    # delivery is acknowledged, and each result exists once, though both workers searched
    wait_for(lambda: scan_jobs_settled(seed.engine, job_id), "every delivery acknowledged", group, 60)
    assert run["status"] == "succeeded" and run["eligible_count"] == 4
    assert seed.count("SELECT count(*) FROM scout.posts WHERE run_id = :r", r=run["id"]) == 4
    job = member.ok("GET", f"/api/v1/jobs/{job_id}")
    assert job["status"] == "succeeded" and job["eligible_count"] == 4
    assert seed.count("SELECT worker_id FROM scout.jobs WHERE id = :j", j=job_id) != first
    assert threads_api.requests_for(term) >= 2


def test_a_running_job_whose_worker_is_gone_is_failed_by_the_watchdog(member: Member, seed: Seed,
                                                                      redis_namespace: str, redis_url: str) -> None:
    # Given two running runs untouched for an hour; only the second one's lock is still held
    gone, held = seed.run(member.id, status="running"), seed.run(member.id, status="running")
    held_job = seed.count("SELECT job_id FROM scout.runs WHERE id = :r", r=held)
    client = redis.Redis.from_url(redis_url)
    client.set(scan_lock_key(redis_namespace, held_job), "w", ex=60)  # held before the jobs look stale
    try:
        with seed.engine.begin() as c:
            c.execute(text("""UPDATE scout.jobs SET updated_at = now() - interval '1 hour', worker_id = 'w'
                              WHERE ref_id IN (:a, :b)"""), {"a": gone, "b": held})
        # Then the watchdog fails the one nobody holds, with a reason, and leaves the other alone
        run = member.wait_terminal(gone, timeout=30)
        assert run["status"] == "failed" and "worker" in run["error_summary"]
        assert member.ok("GET", f"/api/v1/jobs/{run['job_id']}")["status"] == "failed"
        assert member.ok("GET", f"/api/v1/scout/runs/{held}")["status"] == "running"
    finally:
        client.delete(scan_lock_key(redis_namespace, held_job))


def _queue_job(seed: Seed, owner, brief: dict, *, payload_run: str | None = None,
               message_owner=None) -> tuple[str, str]:
    """A queued run and job as Scan writes them, and their outbox message; the payload may name
    another run, and the message another owner."""
    run_id, job_id = uuid.uuid4(), uuid.uuid4()
    payload = {"run_id": payload_run or str(run_id), "brief": {
        "theme_key": "t", "theme_label": "t", "intent": brief["intent"], "mode": "topic", "brand_id": None,
        "terms": brief["terms"], "target_count": brief["target_count"]}}
    run = SeedRun(owner, id=run_id, job_id=job_id, theme_key="t", intent=brief["intent"], terms=brief["terms"],
                  target_count=brief["target_count"], status="queued", payload=payload)
    with seed.engine.begin() as c:
        scout_seed.write(c, [run])
        c.execute(text("""INSERT INTO scout.outbox (queue_name, actor_name, args)
                          VALUES ('scout.scan', 'scout.scan_run', CAST(:args AS jsonb))"""),
                  {"args": json.dumps([str(job_id), str(message_owner or owner)])})
    return str(run_id), str(job_id)


def test_a_payload_naming_another_run_fails_the_job_and_publishes_nothing(member: Member, threads_api: ThreadsApi,
                                                                         seed: Seed) -> None:
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 3))
    run_id, job_id = _queue_job(seed, member.id, {"intent": "鬼滅之刃", "terms": [term], "target_count": 3},
                                payload_run=str(uuid.uuid4()))
    run = member.wait_terminal(run_id, timeout=30)
    assert run["status"] == "failed" and "payload" in run["error_summary"]
    assert member.ok("GET", f"/api/v1/jobs/{job_id}")["status"] == "failed"
    assert seed.count("SELECT count(*) FROM scout.posts WHERE owner_id = :o", o=member.id) == 0
    assert threads_api.requests_for(term) == 0


def test_a_message_naming_another_owner_runs_nothing(member: Member, other_member: Member,
                                                     threads_api: ThreadsApi, seed: Seed) -> None:
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 3))
    run_id, job_id = _queue_job(seed, member.id, {"intent": "鬼滅之刃", "terms": [term], "target_count": 3},
                                message_owner=other_member.id)
    wait_for(lambda: scan_jobs_settled(seed.engine, job_id), "message handled", timeout=60)
    assert member.ok("GET", f"/api/v1/scout/runs/{run_id}")["status"] == "queued"
    assert threads_api.requests_for(term) == 0


def test_outsourced_backend_engineer_keeps_both_concepts_through_the_job(member: Member,
                                                                         threads_api: ThreadsApi) -> None:
    # Given the docs/scout.md 9 topic, with candidates that only talk about engineers looking for work
    term = unique_term(threads_api)
    on_topic = ["公司找外包，需要後端工程師做 API，第{n}個專案", "後端工程師外包接案，熟 Go 與 PostgreSQL，第{n}位"]
    general = ["工程師求職中，請問履歷怎麼寫，第{n}次", "後端工程師全職職缺，台北內湖，第{n}家", "找外包設計師做 logo 第{n}次"]
    posts = [threads_post(f"OK{i:04d}", on_topic[i % 2].format(n=i)) for i in range(4)]
    posts += [threads_post(f"NO{i:04d}", general[i % 3].format(n=i)) for i in range(9)]
    threads_api.add(term, posts)
    # When the run finishes
    run = member.wait_terminal(member.scan(intent="外包 後端工程師", terms=[term], target_count=10)["run"]["id"])
    # Then only posts keeping both 外包 and 後端 are results, each saying so
    assert run["status"] == "succeeded" and run["eligible_count"] == 4 and run["irrelevant_count"] >= 9
    results = all_results(member, run["id"])
    assert sorted(p["canonical_id"] for p in results) == [f"OK{i:04d}" for i in range(4)]
    assert all("外包" in p["match_reason"] and "後端" in p["match_reason"] for p in results)
    assert run["shortfall_count"] == 6 and run["shortfall_reasons"]


def test_one_source_failing_still_completes_the_run_with_source_unavailable(member: Member,
                                                                            threads_api: ThreadsApi) -> None:
    # Given a primary source short of the target and a stage-3 source answering 500
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 3))
    threads_api.failing_providers.add("serp")
    run = member.wait_terminal(member.scan(intent="鬼滅之刃", terms=[term], target_count=5)["run"]["id"])
    # Then the run succeeds on the primary's results and says a source was unavailable
    assert run["status"] == "succeeded" and run["eligible_count"] == 3
    assert "source_unavailable" in run["shortfall_reasons"] and run["shortfall_count"] == 2
    assert "test-serp-key" not in str(run)
    assert len(all_results(member, run["id"])) == 3


def test_the_kind_of_a_source_failure_reaches_the_run(member: Member, threads_api: ThreadsApi) -> None:
    # Given a Threads token that Meta answers as expired (Graph error 190), and SerpApi finding 3 posts
    term = unique_term(threads_api)
    threads_api.add(term, relevant_posts("a", 3))
    threads_api.errors["threads"] = (400, graph_error(190, "Error validating access token", subcode=463))
    run = member.wait_terminal(member.scan(intent="鬼滅之刃", terms=[term], target_count=5)["run"]["id"])
    # Then the run completes on SerpApi, source_unavailable to the member, and the kind in its diagnostics
    assert run["status"] == "succeeded" and run["eligible_count"] == 3
    assert "source_unavailable" in run["shortfall_reasons"]
    assert run["source_failures"] == [{"source": "threads", "kind": "auth"}]
    # And when SerpApi's searches run out too, the run fails and names both kinds
    threads_api.errors["serp"] = (429, {"error": "Your account has run out of searches."})
    run = member.wait_terminal(member.scan(intent="鬼滅之刃", terms=[term], target_count=5)["run"]["id"])
    assert run["status"] == "failed" and run["source_failures"] == [
        {"source": "serp", "kind": "quota_exhausted"}, {"source": "threads", "kind": "auth"}]
    assert THREADS_TOKEN not in str(run) and SERP_KEY not in str(run)


def test_the_stand_in_refuses_credentials_and_parameters_the_providers_would(threads_api: ThreadsApi) -> None:
    # The sources' contract tests run against this stand-in, so it must refuse as the providers do
    threads_api.reset()
    threads = f"{threads_api.url}/v1.0/keyword_search"
    assert httpx.get(threads, params={"q": "x", "access_token": "wrong"}).json()["error"]["code"] == 190
    assert httpx.get(threads, params={"q": "x"}).status_code == 400
    refused = httpx.get(threads, params={"q": "x", "access_token": THREADS_TOKEN, "search_type": "LATEST"})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == 100
    serp = f"{threads_api.url}/search.json"
    assert httpx.get(serp, params={"engine": "google", "q": "x", "api_key": "wrong"}).status_code == 401
    assert httpx.get(serp, params={"q": "x", "api_key": SERP_KEY}).status_code == 400
    assert httpx.get(serp, params={"engine": "google", "q": "x", "api_key": SERP_KEY}).status_code == 200
