"""Feed queries. Each returns at most `fetch` published posts, newest first, with the author and
company signatures joined in the same statement (one batch per page, no N+1).

The subscription feed takes the top `fetch` posts of every followed source from that source's own
index and merges them, so a page reads at most (sources × fetch) index entries whatever the size of
the platform (a walk down the global time index would read every post published since, followed or
not). The global feed walks the global published index."""

from __future__ import annotations

import datetime as dt
import functools
import re
import uuid
from collections.abc import Callable

from sqlalchemy import text

from feeds_runtime.db import Executor, driver_connection
from news.cursor import Position
from news.domain import FeedItem, FeedPost, PostStatus

_SIGNED = """
SELECT p.id, p.title, p.excerpt, p.category_id, p.published_at, p.author_user_id, p.author_company_id,
       a.display_name, a.avatar_url, a.status AS author_status, c.name AS company_name, c.logo_url
FROM {source} p
LEFT JOIN news.author_replicas a ON a.user_id = p.author_user_id
LEFT JOIN news.company_replicas c ON c.company_id = p.author_company_id
"""

_SUSPENDED = "SELECT 1 FROM news.company_replicas r WHERE r.company_id = {column} AND r.status = 'Suspended'"


def _filters(after: Position | None, category_id: uuid.UUID | None) -> str:
    clauses = ""
    if after is not None:
        clauses += " AND (p.published_at, p.id) < (:after_at, :after_id)"
    if category_id is not None:
        clauses += " AND p.category_id = :category_id"
    return clauses


def _per_source(column: str, target: str, filters: str) -> str:
    return f"""
        SELECT p.id, p.published_at FROM news.posts p
        WHERE p.{column} = s.{target} AND p.status = 'Published'{filters}
        ORDER BY p.published_at DESC, p.id DESC LIMIT :fetch
    """


_FOLLOWED = "s.subscriber_user_id = :subscriber AND s.deleted_at IS NULL AND s.target_kind = "


def subscription_feed_sql(after: Position | None, category_id: uuid.UUID | None) -> str:
    """From the subscriber's active subscriptions to the signed page, in one statement."""
    filters = _filters(after, category_id)
    merged = f"""
        SELECT top.id, top.published_at
        FROM news.author_subscriptions s
        CROSS JOIN LATERAL ({_per_source("author_user_id", "target_user_id", filters)}) top
        WHERE {_FOLLOWED}'Author'
        UNION ALL
        SELECT top.id, top.published_at
        FROM news.author_subscriptions s
        CROSS JOIN LATERAL ({_per_source("author_company_id", "target_company_id", filters)}) top
        WHERE {_FOLLOWED}'Company' AND NOT EXISTS ({_SUSPENDED.format(column="s.target_company_id")})
        ORDER BY published_at DESC, id DESC LIMIT :fetch
    """
    source = f"(SELECT posts.* FROM ({merged}) page JOIN news.posts posts ON posts.id = page.id)"
    return _SIGNED.format(source=source) + " ORDER BY p.published_at DESC, p.id DESC"


def global_feed_sql(after: Position | None, category_id: uuid.UUID | None) -> str:
    return (
        _SIGNED.format(source="news.posts")
        + f" WHERE p.status = 'Published'{_filters(after, category_id)}"
        + f" AND NOT EXISTS ({_SUSPENDED.format(column='p.author_company_id')})"
        + " ORDER BY p.published_at DESC, p.id DESC LIMIT :fetch"
    )


_POST_SQL = (
    _SIGNED.replace("SELECT p.id,", "SELECT p.body, p.status, p.created_by, c.status AS company_status, p.id,")
    .format(source="news.posts")
    + " WHERE p.id = :post_id"
)


def _params(after: Position | None, category_id: uuid.UUID | None, fetch: int) -> dict:
    params: dict = {"fetch": fetch, "category_id": category_id}
    if after is not None:
        params |= {"after_at": after.at, "after_id": after.id}
    return params


# The SQL builders look only at whether a cursor and a category are present (values are bound).
_SOME_POSITION = Position(dt.datetime(1970, 1, 1, tzinfo=dt.UTC), uuid.UUID(int=0))
_SOME_CATEGORY = uuid.UUID(int=0)


# A `:name` bind (not the second colon of a `::type` cast).
_BIND = re.compile(r"(?<!:):(\w+)")


@functools.cache
def _statement(feed: Callable[[Position | None, uuid.UUID | None], str], paged: bool, filtered: bool) -> str:
    """The feed's statement for one combination of filters, built once, in psycopg's `%(name)s` style:
    a page parses no SQL and goes straight to tuples through the driver connection."""
    return _BIND.sub(r"%(\1)s", feed(_SOME_POSITION if paged else None, _SOME_CATEGORY if filtered else None))


def subscription_feed(
    session: Executor, subscriber: uuid.UUID, after: Position | None, category_id: uuid.UUID | None,
    fetch: int,
) -> list[FeedItem]:
    params = _params(after, category_id, fetch) | {"subscriber": subscriber}
    statement = _statement(subscription_feed_sql, after is not None, category_id is not None)
    return [FeedItem(*row) for row in driver_connection(session).execute(statement, params).fetchall()]


def global_feed(
    session: Executor, after: Position | None, category_id: uuid.UUID | None, fetch: int
) -> list[FeedItem]:
    statement = _statement(global_feed_sql, after is not None, category_id is not None)
    rows = driver_connection(session).execute(statement, _params(after, category_id, fetch)).fetchall()
    return [FeedItem(*row) for row in rows]


_POST = text(_POST_SQL)


def post(session: Executor, post_id: uuid.UUID) -> FeedPost | None:
    row = session.execute(_POST, {"post_id": post_id}).mappings().one_or_none()
    if row is None:
        return None
    fields = dict(row)
    return FeedPost(body=fields.pop("body"), status=PostStatus(fields.pop("status")),
                    created_by=fields.pop("created_by"), company_status=fields.pop("company_status"),
                    item=FeedItem(**fields))
