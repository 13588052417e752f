"""`make bench-news`: the subscription feed on a large platform, before and after 4× growth.

Data (set-based SQL, generate_series): POSTS published posts from AUTHORS authors and COMPANIES
companies over one year. 50 sources post often (40 authors, 10 companies, `frequent_share` of all
posts); RARE authors post twice each; the rest spread uniformly. Three subscribers: 1,000 rare
sources; the 50 frequent ones; 500 rare + 25 frequent.

For each subscriber, the first page and the page 50 deep are measured over gRPC and REST (p50,
p99), with the rows the service's feed statement examines (EXPLAIN ANALYZE: rows returned plus rows
filtered by every scan node, subscriptions and replicas included), against three baselines from the
same run: the service's one statement (subscriber id → signed page) sent as raw SQL over psycopg, the
best hand-written SQL found for the page; the naive `= ANY(…) ORDER BY … LIMIT` given the followed ids;
and a no-op gRPC round trip (health check). Then (GROWTH − 1) × POSTS posts from sources nobody
follows are added and everything is measured again.

    python services/news/bench/run.py [--scale 1.0] [--growth 4] [--runs 200]

--scale multiplies posts, authors and companies (0.25 → 250k posts from 25k authors and 2.5k companies).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from dataclasses import dataclass

import httpx
import psycopg
from grpc_health.v1 import health_pb2, health_pb2_grpc

from devstack import infra
from devstack.bench import BENCH_DATA_DIR, latencies_ms, percentile, record
from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for
from devstack.tokens import member_headers
from devstack.tls import DEV_CA
from feeds.news.v1 import feeds_pb2, feeds_pb2_grpc
from news.cursor import Cursors, Listing
from news.feeds.repository import subscription_feed_sql

JWT_SECRET = "news-bench-jwt-secret-0123456789abcdef"
CURSOR_SECRET = "news-bench-cursor-secret-0123456789"
PAGE = 20
DEEP_PAGE = 50
FREQUENT_AUTHORS, FREQUENT_COMPANIES = 40, 10


@dataclass(frozen=True)
class Shape:
    posts: int
    authors: int
    companies: int
    rare: int
    frequent_share: float = 0.2

    @classmethod
    def scaled(cls, scale: float) -> Shape:
        return cls(posts=int(1_000_000 * scale), authors=int(100_000 * scale), companies=int(10_000 * scale),
                   rare=int(10_000 * scale))


def author_id(n: int) -> uuid.UUID:
    """The same ids the SQL generator gives: md5('a' || n)::uuid."""
    import hashlib

    return uuid.UUID(hashlib.md5(f"a{n}".encode()).hexdigest())


def company_id(n: int) -> uuid.UUID:
    import hashlib

    return uuid.UUID(hashlib.md5(f"c{n}".encode()).hexdigest())


INSERT = """
INSERT INTO news.posts (id, author_user_id, author_company_id, category_id, title, body, excerpt, status,
                        published_at, created_by, created_at, updated_at)
SELECT gen_random_uuid(), src.author, src.company, NULL, 'Post ' || g, 'Body of post ' || g, 'Body of post ' || g,
       'Published', src.at, coalesce(src.author, src.company), src.at, src.at
FROM generate_series(1, %(count)s) AS g
CROSS JOIN LATERAL ({source}) AS src
"""

# Frequent sources: g spread over 40 authors (1..40) and 10 companies (1..10).
FREQUENT = """SELECT CASE WHEN g %% 50 < 40 THEN md5('a' || (g %% 50 + 1))::uuid END AS author,
                     CASE WHEN g %% 50 >= 40 THEN md5('c' || (g %% 50 - 39))::uuid END AS company,
                     now() - random() * interval '365 days' AS at"""
# Rare sources: authors rare_from .. rare_from + rare - 1, two posts each.
RARE = """SELECT md5('a' || (%(rare_from)s + g %% %(rare)s))::uuid AS author, NULL::uuid AS company,
                 now() - random() * interval '365 days' AS at"""
# Everyone else: 80 % authors, 20 % companies, uniformly among those not frequent and not rare.
UNIFORM = """SELECT CASE WHEN r < 0.8 THEN md5('a' || (%(first_author)s + (r * 1e9)::bigint %% %(authors)s))::uuid END AS author,
                    CASE WHEN r >= 0.8 THEN md5('c' || (%(first_company)s + (r * 1e9)::bigint %% %(companies)s))::uuid END AS company,
                    now() - random() * interval '365 days' AS at
             FROM (SELECT random() + g * 0 AS r) AS pick"""
# Growth: sources that exist nowhere else ('x' prefix), so no subscriber follows them.
UNFOLLOWED = """SELECT md5('x' || (g %% %(authors)s))::uuid AS author, NULL::uuid AS company,
                       now() - random() * interval '365 days' AS at"""


def bulk_insert(connection: psycopg.Connection, source: str, count: int, **params) -> None:
    connection.execute(INSERT.format(source=source), {"count": count, **params})


def load(connection: psycopg.Connection, shape: Shape) -> None:
    """Index-free bulk load, then the migration's own index definitions rebuilt."""
    indexes = connection.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'news' AND tablename = 'posts'"
        " AND indexname <> 'posts_pkey'"
    ).fetchall()
    for name, _ in indexes:
        connection.execute(f"DROP INDEX news.{name}")
    frequent = int(shape.posts * shape.frequent_share)
    rare = shape.rare * 2
    uniform = shape.posts - frequent - rare
    rare_from = FREQUENT_AUTHORS + 1
    bulk_insert(connection, FREQUENT, frequent)
    bulk_insert(connection, RARE, rare, rare_from=rare_from, rare=shape.rare)
    first_author = rare_from + shape.rare
    bulk_insert(connection, UNIFORM, uniform, first_author=first_author,
                authors=shape.authors - first_author + 1, first_company=FREQUENT_COMPANIES + 1,
                companies=shape.companies - FREQUENT_COMPANIES)
    for _, definition in indexes:
        connection.execute(definition)
    settle(connection)


def settle(connection: psycopg.Connection) -> None:
    """What autovacuum does after a bulk insert: visibility map and statistics up to date, so the
    plans measured are the steady state's (index-only scans), not a bulk load's."""
    for table in ("news.posts", "news.author_subscriptions"):
        # A VACUUM that runs beside autovacuum's own ANALYZE of a fresh bulk load can leave pages
        # not all-visible; vacuum again until the visibility map covers the table.
        for _ in range(10):
            connection.execute(f"VACUUM (ANALYZE) {table}")
            pages, visible = connection.execute(
                "SELECT relpages, relallvisible FROM pg_class WHERE oid = %s::regclass", (table,)).fetchone()
            if pages == 0 or visible >= 0.99 * pages:
                break
            time.sleep(1)


def grow(connection: psycopg.Connection, shape: Shape, growth: int) -> None:
    indexes = connection.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'news' AND tablename = 'posts'"
        " AND indexname <> 'posts_pkey'"
    ).fetchall()
    for name, _ in indexes:
        connection.execute(f"DROP INDEX news.{name}")
    bulk_insert(connection, UNFOLLOWED, shape.posts * (growth - 1), authors=shape.authors)
    for _, definition in indexes:
        connection.execute(definition)
    settle(connection)


def subscribers(shape: Shape) -> dict[str, tuple[list[uuid.UUID], list[uuid.UUID]]]:
    rare = [author_id(FREQUENT_AUTHORS + 1 + n) for n in range(min(1000, shape.rare))]
    frequent_authors = [author_id(n + 1) for n in range(FREQUENT_AUTHORS)]
    frequent_companies = [company_id(n + 1) for n in range(FREQUENT_COMPANIES)]
    return {
        "follows_1000_rare": (rare, []),
        "follows_50_frequent": (frequent_authors, frequent_companies),
        "follows_mixed": (rare[:500] + frequent_authors[:20], frequent_companies[:5]),
    }


def subscribe(connection: psycopg.Connection, member: uuid.UUID, authors: list, companies: list) -> None:
    with connection.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO news.author_subscriptions (id, subscriber_user_id, target_kind, target_user_id,"
            " target_company_id, created_by, updated_by) VALUES (gen_random_uuid(), %s, %s, %s, %s, %s, %s)",
            [(member, "Author", a, None, member, member) for a in authors]
            + [(member, "Company", None, c, member, member) for c in companies],
        )


NAIVE = """
SELECT p.id, p.published_at FROM news.posts p
WHERE p.status = 'Published' AND (p.author_user_id = ANY(%(author_ids)s) OR p.author_company_id = ANY(%(company_ids)s))
  {after}
ORDER BY p.published_at DESC, p.id DESC LIMIT %(fetch)s
"""


def naive_sql(after) -> str:
    return NAIVE.format(after="AND (p.published_at, p.id) < (%(after_at)s, %(after_id)s)" if after else "")


def to_psycopg(sql: str) -> str:
    """The service's SQLAlchemy statement (:name binds) in psycopg's %(name)s style."""
    import re

    return re.sub(r"(?<!:):(\w+)", r"%(\1)s", sql)


def rows_examined(connection: psycopg.Connection, sql: str, params: dict) -> int:
    plan = connection.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, params).fetchone()[0][0]["Plan"]
    total = 0

    def walk(node: dict) -> None:
        nonlocal total
        if node["Node Type"] in ("Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan"):
            loops = node.get("Actual Loops", 1)
            total += (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
                      + node.get("Rows Removed by Index Recheck", 0)) * loops
        for child in node.get("Plans", []):
            walk(child)

    walk(plan)
    return total


def summary(samples: list[float]) -> dict[str, float]:
    return {"p50": percentile(samples, 50), "p99": percentile(samples, 99)}


def measure(stack: dict, runs: int) -> dict:
    """Every figure for every subscriber and depth in the database's current state."""
    cursors = Cursors(CURSOR_SECRET.encode())
    feeds = feeds_pb2_grpc.FeedServiceStub(stack["channel"])
    health = health_pb2_grpc.HealthStub(stack["channel"])
    noop = summary(latencies_ms(lambda: health.Check(health_pb2.HealthCheckRequest(), timeout=10), runs))
    results = {"noop_grpc": noop}
    for name, (member, authors, companies) in stack["subscribers"].items():
        metadata = [("x-actor-id", str(member))]
        headers = member_headers(JWT_SECRET, member, 24 * 3600)
        cursor = ""
        for _ in range(DEEP_PAGE - 1):
            cursor = feeds.ListSubscriptionFeed(
                feeds_pb2.ListSubscriptionFeedRequest(cursor=cursor, limit=PAGE), metadata=metadata, timeout=60
            ).page.next_cursor
        for depth, page_cursor in (("page_1", ""), (f"page_{DEEP_PAGE}", cursor)):
            request = feeds_pb2.ListSubscriptionFeedRequest(cursor=page_cursor, limit=PAGE)
            after = cursors.decode(Listing.subscription_feed(member, None), page_cursor)
            keyset = {"after_at": after.at, "after_id": after.id} if after is not None else {}
            params = {"subscriber": member, "fetch": PAGE + 1, "category_id": None, **keyset}
            naive_params = {"author_ids": authors, "company_ids": companies, "fetch": PAGE + 1, **keyset}
            best = to_psycopg(subscription_feed_sql(after, None))
            naive = naive_sql(after)
            connection = stack["sql"]
            assert [r[0] for r in connection.execute(best, params)][:PAGE] == [
                r[0] for r in connection.execute(naive, naive_params)][:PAGE], "baselines disagree"
            results[f"{name}.{depth}"] = {
                "grpc": summary(latencies_ms(lambda: feeds.ListSubscriptionFeed(request, metadata=metadata,
                                                                                 timeout=60), runs)),
                "rest": summary(latencies_ms(lambda: stack["http"].get(
                    "/api/v1/feed/subscriptions", params={"limit": PAGE, **({"cursor": page_cursor} if page_cursor else {})},
                    headers=headers).raise_for_status(), runs)),
                "best_sql": summary(latencies_ms(lambda: connection.execute(best, params).fetchall(), runs)),
                "naive_sql": summary(latencies_ms(lambda: connection.execute(naive, naive_params).fetchall(),
                                                  max(5, runs // 10), warmup=2)),
                "rows_examined": rows_examined(connection, best, params),
                "naive_rows_examined": rows_examined(connection, naive, naive_params),
            }
    return results


def report(before: dict, after: dict, params: dict) -> bool:
    ok = True
    noop = {"before": before["noop_grpc"]["p50"], "after": after["noop_grpc"]["p50"]}
    for key in (k for k in before if k != "noop_grpc"):
        for phase, figures in (("before", before[key]), ("after", after[key])):
            p = {**params, "case": key, "phase": phase}
            base = figures["best_sql"]["p50"] + noop[phase]
            record(f"news.feed.{key}.{phase}.grpc_p50", p, "p50", figures["grpc"]["p50"], "ms",
                   "best_sql_p50+noop_grpc_p50", base)
            record(f"news.feed.{key}.{phase}.grpc_p99", p, "p99", figures["grpc"]["p99"], "ms",
                   "best_sql_p99", figures["best_sql"]["p99"])
            record(f"news.feed.{key}.{phase}.rest_p50", p, "p50", figures["rest"]["p50"], "ms", "grpc_p50",
                   figures["grpc"]["p50"])
            record(f"news.feed.{key}.{phase}.rest_p99", p, "p99", figures["rest"]["p99"], "ms", "grpc_p99",
                   figures["grpc"]["p99"])
            record(f"news.feed.{key}.{phase}.best_sql_p50", p, "p50", figures["best_sql"]["p50"], "ms",
                   "naive_sql_p50", figures["naive_sql"]["p50"])
            record(f"news.feed.{key}.{phase}.rows_examined", p, "rows", figures["rows_examined"], "rows",
                   "naive_rows_examined", figures["naive_rows_examined"])
            ok &= figures["grpc"]["p50"] <= 2 * base
        p = {**params, "case": key}
        rows_ratio = record(f"news.feed.{key}.growth.rows_examined", p, "rows", after[key]["rows_examined"], "rows",
                            "before_growth", before[key]["rows_examined"])["ratio"] or 1.0
        p50_ratio = record(f"news.feed.{key}.growth.grpc_p50", p, "p50", after[key]["grpc"]["p50"], "ms",
                           "before_growth", before[key]["grpc"]["p50"])["ratio"]
        ok &= abs(rows_ratio - 1) <= 0.10 and p50_ratio <= 1.25
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--growth", type=int, default=4)
    parser.add_argument("--runs", type=int, default=400, help="samples per latency figure; with fewer, p50 moves by tens of percent between runs")
    args = parser.parse_args()
    shape = Shape.scaled(args.scale)
    params = {"posts": shape.posts, "authors": shape.authors, "companies": shape.companies, "growth": args.growth,
              "page_size": PAGE, "runs": args.runs}

    resolved = infra.resolve(BENCH_DATA_DIR)
    database_url = resolved.server_url("feeds_bench_news")
    infra.drop_database(database_url)
    infra.ensure_database(database_url)
    env = {"DATABASE_URL": database_url, "REDIS_URL": resolved.redis_url, "REDIS_NAMESPACE": "bench-news",
           "PYTHONUNBUFFERED": "1"}
    group = ProcessGroup(log_dir=BENCH_DATA_DIR / "logs", env=env)
    ports = Ports.free()
    platform = Platform(group, ports=ports, extra_env={
        "news": {"NEWS_CURSOR_SECRET": CURSOR_SECRET, "NEWS_LOG_LEVEL": "WARNING"},
        "gateway": {"GATEWAY_JWT_SECRET": JWT_SECRET, "GATEWAY_LOG_LEVEL": "WARNING"},
    })
    try:
        group.run("news-migrate", python_module("news", "migrate"), platform.service_env("news"))
        with psycopg.connect(infra.libpq_url(database_url), autocommit=True) as connection:
            connection.execute("SET maintenance_work_mem = '512MB'")
            connection.execute("SET synchronous_commit = off")
            started = time.perf_counter()
            load(connection, shape)
            print(json.dumps({"load_seconds": round(time.perf_counter() - started, 1), **params}), file=sys.stderr)
            members = {}
            for name, (authors, companies) in subscribers(shape).items():
                member = uuid.uuid4()
                subscribe(connection, member, authors, companies)
                members[name] = (member, authors, companies)
            settle(connection)
        platform.start_service("news", ("server",))
        platform.start_gateway()
        wait_for(lambda: grpc_serving(platform.grpc_address("news")), "news SERVING", group)
        wait_for(lambda: http_ok(f"{platform.gateway_url}/healthz"), "gateway up", group)
        with (
            DEV_CA.channel(platform.grpc_address("news")) as channel,
            httpx.Client(base_url=platform.gateway_url, timeout=60) as http,
            psycopg.connect(infra.libpq_url(database_url), autocommit=True) as sql,
        ):
            stack = {"channel": channel, "http": http, "sql": sql, "subscribers": members}
            before = measure(stack, args.runs)
            started = time.perf_counter()
            sql.execute("SET maintenance_work_mem = '512MB'")
            grow(sql, shape, args.growth)
            print(json.dumps({"growth_seconds": round(time.perf_counter() - started, 1)}), file=sys.stderr)
            after = measure(stack, args.runs)
        ok = report(before, after, params)
        print(json.dumps({"targets_met": ok}), file=sys.stderr)
        return 0 if ok else 1
    finally:
        group.stop()
        infra.drop_database(database_url)


if __name__ == "__main__":
    sys.exit(main())
