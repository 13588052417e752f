"""`make bench-scout`: the cost of one scan and of reading a run's results.

1. A 320-candidate run on the dev source: eight approved terms over a corpus in which every post
   matches lexically but few carry the topic, so the run reads the full 320-candidate allowance
   without reaching its target. Measured: wall time of the run and the relevance cost per
   candidate (wall time / candidates examined). Baseline: the same source requests without
   identity, dedup or judging — what fetching alone costs.
2. ListRunPosts over gRPC (the scout server as it runs) for a 40-result run, with 10,000 runs of the
   same owner in the table (400,000 results). Baseline: the service's page statement as raw SQL.
3. SuggestTerms' work for a request of 200 characters, as the service does it (`suggested_terms`),
   each request one the process has not seen (twelve things, each in four frames of settings and
   loose extras). Measured: the median latency, the 90th percentile beside it. Baseline: the 50 ms bar.
4. Resident memory of the scout server and worker as the platform starts them (metrics on), once
   they have proposed terms for an intent and run a scan, so the dictionaries loaded on first use
   are in: VmRSS and PSS of each process, the worker's forked processes each on a line of its own.
   Baseline: the 200 MiB bar of each process.

    python services/scout/bench/run.py [--runs 300]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from sqlalchemy import create_engine, text

from devstack import infra, scout_seed
from devstack.bench import BENCH_DATA_DIR, latencies_ms, percentile, record
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, python_module, wait_for
from devstack.scout_seed import SeedPost, SeedRun
from devstack.soak.probes import proportional_kib, resident_memory
from devstack.tls import DEV_CA
from feeds.scout.v1 import scout_pb2, scout_pb2_grpc
from feeds_runtime.settings import normalize_database_url
from scout.brief import normalize_brief
from scout.pipeline.scan import run_scan
from scout.settings import ScoutSettings
from scout.pipeline.sources.dev import DevSource
from scout.repositories.posts import RESULT_ORDER
from scout.service import suggested_terms

TERMS = ["炭治郎", "禰豆子", "無限城", "柱訓練", "伊之助", "蝴蝶忍", "竈門家", "鬼殺隊"]
RUNS, RESULTS_PER_RUN, PAGE_SIZE = 10_000, 40, 8
REPEATS = 7  # scans per measurement; the median is reported
OUTREACH = ("new", "drafted", "skipped", "published")
MEMORY_BAR_MIB = 200
MEMORY_INTENT = "鬼滅之刃 角色劇情"
SUGGEST_BAR_MS = 50
SUGGEST_CHARS = 200
# Requests as members type them: each thing in each frame, a request the process has not seen,
# cut to SUGGEST_CHARS characters.
SUGGEST_THINGS = ("周杰倫的演唱會", "Switch 2", "台南的牛肉湯", "UI設計師這份工作", "《我們與惡的距離2》", "白沙屯媽祖進香",
                  "台積電的工程師", "小米15 Ultra", "宜蘭的寵物民宿", "鬼滅之刃無限城篇", "高雄的親子餐廳", "新青安房貸")
SUGGEST_FRAMES = (
    "下個月要帶爸媽出去玩三天，想看大家對{}的真實心得跟評價，最好是最近一年去過或用過的人分享，"
    "如果有踩雷的經驗也歡迎留言，預算不用太省，吃得好住得好比較重要，停車方不方便、要不要先預約、"
    "假日人會不會很多也想知道，有推薦的路線或搭配的行程更好，長輩膝蓋不好所以不能走太多路，"
    "晚上想找安靜一點的地方休息，小朋友也會一起去，有推薦的餐廳或景點可以順便告訴我，行李很多所以交通方式也想參考，有任何資訊都很感謝，謝謝大家",
    "最近身邊好多人在討論{}，想知道到底值不值得，有沒有人可以分享實際的經驗，優點缺點都想聽，"
    "網路上的業配文太多了所以想看真心話，跟同類型的比起來差在哪裡，價格跟品質划不划算，"
    "新手需要注意什麼，還有哪些地方是大家常常忽略的，如果重來一次還會不會選擇，住台中的話方便嗎，"
    "有沒有售後或客服的經驗可以分享，朋友說要等特價再買比較好，不知道是不是真的，也想知道二手的值不值得考慮，有任何資訊都很感謝，先謝謝回覆的大家",
    "有人在追{}的消息嗎？想看大家的討論跟第一手心得，特別是最近這幾個月的變化，"
    "有人說越來越好也有人說越來越差，想聽聽不同的看法，相關的新聞或懶人包也可以，"
    "我是剛開始關注的新手，很多名詞看不太懂，如果有推薦的入門資料或帳號也歡迎分享，"
    "我比較常用Threads跟Dcard，PTT比較少看，英文的討論也可以，不過希望是最近的資訊，太舊的可能已經不準了，有任何資訊都很感謝，整理好之後也會分享給大家，先謝謝大家",
    "想請教關於{}的問題，家裡長輩很好奇所以幫忙問，想知道實際情況跟網路上說的差多少，"
    "費用大概落在哪個範圍，要準備什麼東西，流程會不會很麻煩，有沒有什麼隱藏的成本，"
    "也想知道北部跟南部的差別，平日跟假日差很多嗎，有經驗的人可以分享一下嗎，"
    "我們住在新北，週末才有空處理，如果需要請假的話想先知道要請幾天，網路上查到的資料有點亂，希望有實際經驗的人幫忙解答，有任何資訊都很感謝，之後辦完也會回來分享，多謝各位",
)


def corpus(path: Path) -> None:
    """420 posts, each sharing characters with two terms; only one in twelve names the terms and the work."""
    with path.open("w", encoding="utf-8") as out:
        for i in range(420):
            a, b = TERMS[i % 8], TERMS[(i * 3 + 1) % 8]
            if i % 12 == 0:
                text = f"鬼滅之刃裡{a}和{b}的第{i}段劇情，大家覺得呢？角色塑造真的很用心"
            else:
                text = f"週末去{a[:2]}路和{b[:2]}街附近逛了第{i}間店，天氣很好"
            out.write(json.dumps({"url": f"https://www.threads.net/@fan{i}/post/Bench{i:05d}", "author": f"fan{i}",
                                  "text": text, "posted_at": f"2026-07-{i % 28 + 1:02d}T10:00:00Z"},
                                 ensure_ascii=False) + "\n")


def bench_scan() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.jsonl"
        corpus(path)
        brief = normalize_brief(theme_key="", theme_label="", intent="鬼滅之刃 角色劇情", mode="", brand_id="",
                                terms=TERMS, target_count=40)
        source = DevSource(path)
        # The ranking the service runs by default, its cost included.
        ranking = ScoutSettings.model_fields["ranking"].default

        def scan():
            return run_scan(brief, [source], history=set(), target=40, on_progress=lambda *_: None,
                            should_cancel=lambda: False, ranking=ranking)

        def fetch_only() -> int:
            # The same requests (stage 1 and the stage 2 continuation per term), nothing judged.
            fetched = 0
            for term in TERMS:
                page = source.search(term, limit=20)
                fetched += len(page.candidates)
                if page.next_cursor:
                    fetched += len(source.search(term, limit=20, cursor=page.next_cursor).candidates)
            return fetched

        outcome, fetched = scan(), fetch_only()
        examined = outcome.counts.raw
        wall = percentile(latencies_ms(scan, REPEATS, warmup=1), 50) / 1000
        fetch_wall = percentile(latencies_ms(fetch_only, REPEATS, warmup=1), 50) / 1000
    params = {"source": "dev", "terms": len(TERMS), "target": 40, "candidates_examined": examined, "repeats": REPEATS,
              "eligible": outcome.counts.eligible, "shortfall_reasons": outcome.shortfall_reasons}
    record("scout_scan_320_wall", params, "wall_time", wall * 1000, "ms", "fetch_only_same_requests",
           fetch_wall * 1000)
    record("scout_scan_relevance_cost", {**params, "fetched_baseline": fetched}, "cost_per_candidate",
           wall * 1e6 / max(examined, 1), "us", "fetch_only_per_candidate", fetch_wall * 1e6 / max(fetched, 1))


def bench_suggest() -> None:
    intents = [frame.format(thing)[:SUGGEST_CHARS] for thing in SUGGEST_THINGS for frame in SUGGEST_FRAMES]
    suggested_terms("想看大家對五月天演唱會的心得")  # the dictionaries and lexicons mapped
    samples = []
    for intent in intents:
        started = time.perf_counter()
        suggested_terms(intent)
        samples.append((time.perf_counter() - started) * 1000)
    record("scout_suggest_terms_p50", {"intent_chars": SUGGEST_CHARS, "intents": len(intents),
                                       "p90_ms": round(percentile(samples, 90), 3)},
           "p50_latency", percentile(samples, 50), "ms", "bar", SUGGEST_BAR_MS)


def seed(owner: uuid.UUID) -> tuple[list[SeedRun], Iterator[SeedPost]]:
    """RUNS succeeded runs of one owner, a minute apart over 50 themes, each with RESULTS_PER_RUN results
    of mixed scores, post times (one in seven unknown) and outreach states."""
    now = datetime.now(UTC)
    rng = random.Random(7)
    runs = []
    for g in range(1, RUNS + 1):
        at = now - timedelta(minutes=g)
        runs.append(SeedRun(owner, theme_key=f"theme{g % 50}", theme_label="Theme", intent="intent",
                            target_count=40, eligible_count=RESULTS_PER_RUN, searched_count=120, created_at=at,
                            started_at=at, completed_at=at, job_progress_stage="finished"))
    posts = (
        SeedPost(owner, run.id, run.theme_key, round(rng.random(), 2), canonical_id=f"C{g}x{p}",
                 url=f"https://www.threads.net/t/C{g}x{p}", author="author", text="鬼滅之刃 " * 20,
                 match_reason="core: 鬼滅之刃", posted_at=None if p % 7 == 0 else now - timedelta(days=p),
                 created_at=run.created_at, outreach_status=OUTREACH[p % 4])
        for g, run in enumerate(runs, start=1) for p in range(1, RESULTS_PER_RUN + 1)
    )
    return runs, posts


def bench_list_run_posts(resolved: infra.Infra, runs: int) -> None:
    url = resolved.server_url(f"feeds_bench_scout_{uuid.uuid4().hex[:8]}")
    infra.ensure_database(url)
    env = {"DATABASE_URL": url, "REDIS_URL": resolved.redis_url, "PYTHONUNBUFFERED": "1"}
    group = ProcessGroup(log_dir=BENCH_DATA_DIR / "logs", env=env)
    # The server as the platform runs it (mTLS with the dev CA, the dev tools among its callers).
    platform = Platform(group, ports=Ports.free(), extra_env={"scout": {"SCOUT_LOG_LEVEL": "WARNING"}})
    try:
        group.run("scout-migrate", python_module("scout", "migrate"), platform.service_env("scout"))
        owner = uuid.uuid4()
        seeded, posts = seed(owner)
        run_id = seeded[RUNS // 2].id
        engine = create_engine(normalize_database_url(url))
        try:
            with engine.begin() as connection:
                scout_seed.write(connection, seeded, posts)
            with engine.begin() as connection:
                for table in ("jobs", "runs", "posts"):
                    connection.execute(text(f"ANALYZE scout.{table}"))
        finally:
            engine.dispose()
        platform.start_service("scout", ("server",))
        address = platform.grpc_address("scout")
        wait_for(lambda: grpc_serving(address), "scout SERVING", group)
        channel = DEV_CA.channel(address)
        stub = scout_pb2_grpc.ScoutServiceStub(channel)
        metadata = [("x-actor-id", str(owner))]
        request = scout_pb2.ListRunPostsRequest(run_id=str(run_id), page=scout_pb2.PageRequest(page=2, page_size=PAGE_SIZE))
        assert len(stub.ListRunPosts(request, metadata=metadata).posts) == PAGE_SIZE
        grpc_samples = latencies_ms(lambda: stub.ListRunPosts(request, metadata=metadata), runs)
        with psycopg.connect(infra.libpq_url(url)) as connection:
            def raw() -> None:
                connection.execute(
                    "SELECT r.*, (SELECT count(*) FROM scout.posts p WHERE p.run_id = r.id AND p.outreach_status "
                    "IN ('new', 'drafted')) FROM scout.runs r WHERE r.id = %s AND r.owner_id = %s",
                    (run_id, owner)).fetchone()
                connection.execute(
                    f"SELECT * FROM scout.posts WHERE run_id = %s AND owner_id = %s ORDER BY {RESULT_ORDER} "
                    "LIMIT %s OFFSET %s", (run_id, owner, PAGE_SIZE, PAGE_SIZE)).fetchall()
                connection.execute("SELECT count(*) FROM scout.posts WHERE run_id = %s AND owner_id = %s",
                                   (run_id, owner)).fetchone()

            raw_samples = latencies_ms(raw, runs)
        channel.close()
        params = {"runs": RUNS, "results_per_run": RESULTS_PER_RUN, "page": 2, "page_size": PAGE_SIZE,
                  "samples": runs}
        record("scout_list_run_posts_p50", params, "p50_latency", percentile(grpc_samples, 50), "ms",
               "raw_sql_run_page_and_total", percentile(raw_samples, 50))
    finally:
        group.stop()
        infra.drop_database(url)


def bench_memory(resolved: infra.Infra) -> None:
    url = resolved.server_url(f"feeds_bench_scout_{uuid.uuid4().hex[:8]}")
    infra.ensure_database(url)
    env = {"DATABASE_URL": url, "REDIS_URL": resolved.redis_url, "PYTHONUNBUFFERED": "1",
           "REDIS_NAMESPACE": f"bench-scout-{uuid.uuid4().hex[:8]}"}
    group = ProcessGroup(log_dir=BENCH_DATA_DIR / "logs", env=env)
    platform = Platform(group, ports=Ports.free(metrics=True), extra_env={"scout": {"SCOUT_LOG_LEVEL": "WARNING"}})
    try:
        group.run("scout-migrate", python_module("scout", "migrate"), platform.service_env("scout"))
        platform.start_service("scout")
        address = platform.grpc_address("scout")
        wait_for(lambda: grpc_serving(address), "scout SERVING", group)
        with DEV_CA.channel(address) as channel:
            stub = scout_pb2_grpc.ScoutServiceStub(channel)
            metadata = [("x-actor-id", str(uuid.uuid4()))]
            terms = stub.SuggestTerms(scout_pb2.SuggestTermsRequest(intent=MEMORY_INTENT), metadata=metadata,
                                      timeout=60).terms
            run = stub.Scan(scout_pb2.ScanRequest(brief=scout_pb2.Brief(intent=MEMORY_INTENT, terms=terms[:8])),
                            metadata=metadata, timeout=60).run
            deadline = time.monotonic() + 120
            while run.status not in ("succeeded", "failed", "cancelled"):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"scan still {run.status} after 120 s")
                time.sleep(0.1)
                run = stub.GetRun(scout_pb2.GetRunRequest(run_id=run.id), metadata=metadata, timeout=30).run
        if run.status != "succeeded":
            raise RuntimeError(f"scan {run.status}: {run.error_summary}")
        for label, (pid, rss_kib) in resident_memory(group).items():
            if label.startswith(("scout-server", "scout-worker")):
                pss_kib = proportional_kib(pid)
                record(f"scout_memory_{label.removeprefix('scout-').replace('/', '_')}",
                       {"process": label, "after": "SuggestTerms, then a scan of the terms",
                        "pss_mib": round(pss_kib / 1024, 1) if pss_kib is not None else None},
                       "vm_rss", rss_kib / 1024, "MiB", "bar", MEMORY_BAR_MIB)
    finally:
        group.stop()
        infra.drop_database(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="samples per latency measurement")
    args = parser.parse_args()
    bench_scan()
    bench_suggest()
    # One embedded PostgreSQL and Redis for both: resolved twice, the second's Redis went away with the first.
    resolved = infra.resolve(BENCH_DATA_DIR)
    bench_list_run_posts(resolved, args.runs)
    bench_memory(resolved)


if __name__ == "__main__":
    main()
