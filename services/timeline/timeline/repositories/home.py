"""The home timeline read: one page in `ranked_at DESC, id DESC` order, merged from three sources
that never overlap, since every post has exactly one of them for a given viewer:

- the viewer's entries: self entries anywhere, following entries at or above the horizon;
- posts of followed authors delivered by pull (big accounts), anywhere, top-k per author, none
  older than the last of a page the entries fill;
- pushed posts of followed authors below the horizon (the history trimmed off the window).

A pulled post gets the position its entry would have (ids derive from tenant, viewer and post), so
a cursor means the same thing whichever source a row came from. Every source applies the same rules
(deleted, moderation, visibility, blocks), whatever clean-up is still pending, and leaves out the
posts of authors the viewer mutes now (a mute changes no entry: it applies at read time). For a
viewer with word filters, the entries also leave out those marked hidden under the filters' current
version (timeline.verdicts). Statements use psycopg placeholders: this is the hottest read, sent
straight to the driver connection.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from feeds_runtime.db import Executor, driver_connection
from timeline.cursor import Position
from timeline.domain import TimelineItem
from timeline.repositories.sql import ENTRY_ID, FANS_OUT, blocked, muted


def _item_columns(alias: str, folded: bool) -> str:
    """A TimelineItem's columns, in its field order, from a row source `alias`: ids as text (PostgreSQL
    writes a UUID's text faster than Python does), stats zero when the post has no stats row, the
    post's labels; then, with `folded`, the post's folded body (for word filters)."""
    return (f"CAST({alias}.entry_id AS text) AS entry_id, CAST({alias}.post_id AS text) AS post_id, {alias}.ranked_at, "
            f"CAST({alias}.author_id AS text) AS author_id, {alias}.body, {alias}.published_at, "
            f"coalesce({alias}.like_count, 0) AS like_count, coalesce({alias}.reply_count, 0) AS reply_count, "
            f"coalesce({alias}.share_count, 0) AS share_count, {alias}.labels"
            + (f", {alias}.folded_body" if folded else ""))


_ROW = ("r.entry_id, r.post_id, r.ranked_at, r.author_id, r.body, r.published_at, r.like_count, r.reply_count, "
        "r.share_count, r.labels")
_PULLED_ID = ENTRY_ID.format(tenant="p.tenant_id", viewer="f.follower_id", post="p.id")
_NOT_BLOCKED = f"NOT {blocked('%(viewer)s', 'f.followee_id', '%(tenant)s')}"
_NOT_MUTED = f"NOT {muted('%(viewer)s', 'f.followee_id', '%(tenant)s')}"
_BELOW = f"AND p.published_at <= %(at)s AND (p.published_at < %(at)s OR {_PULLED_ID} < %(entry)s)"


def _folded(folded: bool, alias: str = "p") -> str:
    return f", {alias}.folded_body" if folded else ""


def _posts_of_follows(delivery: str, boundary: str, folded: bool) -> str:
    """Top-k posts of each followed author with that delivery, strictly below `boundary` (a
    position given as %(at)s, %(entry)s), newest first; `f` is the viewer's effective follow."""
    return f"""
        CROSS JOIN LATERAL (
            SELECT {_PULLED_ID} AS entry_id, p.id AS post_id, p.published_at AS ranked_at, p.author_id, p.body,
                   p.published_at, s.like_count, s.reply_count, s.share_count, p.labels{_folded(folded)}
            FROM timeline.posts p
            LEFT JOIN timeline.post_stats s ON s.tenant_id = p.tenant_id AND s.post_id = p.id
            WHERE p.tenant_id = f.tenant_id AND p.author_id = f.followee_id AND p.delivery = '{delivery}'
              AND {FANS_OUT} {boundary}
            ORDER BY p.published_at DESC, entry_id DESC LIMIT %(limit)s
        ) r
        WHERE f.tenant_id = %(tenant)s AND f.follower_id = %(viewer)s AND f.ended_at IS NULL AND {_NOT_BLOCKED}
          AND {_NOT_MUTED}
    """


def _page_sql(after: bool, folded: bool = False) -> str:
    entry_boundary = "AND (e.ranked_at, e.id) < (%(at)s, %(entry)s)" if after else ""
    # A viewer with word filters: the entries its lasting hiding filters hide under their current
    # version are left out here (timeline.verdicts); every other one is returned to be judged.
    unhidden = "AND e.hidden_by_filters IS DISTINCT FROM CAST(%(filters_version)s AS bigint)" if folded else ""
    post_boundary = _BELOW if after else ""
    # A pulled post older than the last of a full page of entries cannot make the page: each
    # followed big account's top-k stops at that entry's instant.
    floor = ("AND p.published_at >= coalesce((SELECT min(ranked_at) FROM entries HAVING count(*) = %(limit)s), "
             "'-infinity')")
    return f"""
        WITH horizon AS (SELECT ranked_at, entry_id FROM timeline.viewer_horizons
                         WHERE tenant_id = %(tenant)s AND viewer_id = %(viewer)s),
        entries AS (
            SELECT e.id AS entry_id, e.post_id, e.ranked_at, p.author_id, p.body, p.published_at,
                   s.like_count, s.reply_count, s.share_count, p.labels{_folded(folded)}
            FROM timeline.timeline_entries e
            JOIN timeline.posts p ON p.tenant_id = e.tenant_id AND p.id = e.post_id
            LEFT JOIN timeline.post_stats s ON s.tenant_id = e.tenant_id AND s.post_id = e.post_id
            WHERE e.tenant_id = %(tenant)s AND e.viewer_id = %(viewer)s {entry_boundary}
              AND (e.kind = 'self' OR NOT EXISTS (SELECT FROM horizon)
                   OR (e.ranked_at, e.id) >= (SELECT ranked_at, entry_id FROM horizon))
              AND p.deleted_at IS NULL AND p.moderation_state = 'visible'
              AND (p.visibility = 'public' OR p.author_id = %(viewer)s)
              AND NOT {blocked('%(viewer)s', 'p.author_id', '%(tenant)s')}
              AND NOT {muted('%(viewer)s', 'e.author_id', '%(tenant)s')} {unhidden}
            ORDER BY e.ranked_at DESC, e.id DESC LIMIT %(limit)s)
        SELECT {_item_columns('u', folded)}, h.ranked_at AS horizon_at, h.entry_id AS horizon_id FROM (
            SELECT * FROM entries
            UNION ALL
            (SELECT {_ROW}{_folded(folded, "r")} FROM timeline.follows f
             JOIN timeline.pulled_authors a ON a.tenant_id = f.tenant_id AND a.author_id = f.followee_id
             {_posts_of_follows('pull', f"{post_boundary} {floor}", folded)})
        ) u LEFT JOIN horizon h ON true
        ORDER BY u.ranked_at DESC, u.entry_id DESC LIMIT %(limit)s
        """


def _past_horizon_sql(folded: bool = False) -> str:
    return f"""
    SELECT {_item_columns('r', folded)} FROM timeline.follows f
    {_posts_of_follows('push', _BELOW, folded)}
    ORDER BY r.ranked_at DESC, r.entry_id DESC LIMIT %(limit)s
"""


# The statements of a page (public for the tests that read their plans), and those of a page read
# with the posts' folded bodies, for a viewer with word filters.
FIRST_PAGE = _page_sql(after=False)
NEXT_PAGE = _page_sql(after=True)
PAST_HORIZON = _past_horizon_sql()
_FOLDED = {False: (FIRST_PAGE, NEXT_PAGE, PAST_HORIZON),
           True: (_page_sql(after=False, folded=True), _page_sql(after=True, folded=True), _past_horizon_sql(True))}
HORIZON = "SELECT ranked_at, entry_id FROM timeline.viewer_horizons WHERE tenant_id = %(tenant)s AND viewer_id = %(viewer)s"


# The columns of a TimelineItem a row starts with.
ITEM_COLUMNS = 10


def _position(row) -> tuple[datetime, uuid.UUID]:
    return row[2], uuid.UUID(row[0])  # (ranked_at, entry_id)


class HomeRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def page(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, after: Position | None, limit: int) -> list[TimelineItem]:
        """The `limit` first items strictly after the cursor position."""
        return [TimelineItem._make(row[:ITEM_COLUMNS]) for row in self.rows(tenant_id, viewer_id, after, limit)]

    def rows(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, after: Position | None, limit: int, *,
             folded: bool = False, filters_version: int = 0) -> list[tuple]:
        """The `limit` first rows strictly after the cursor position: a TimelineItem's columns, then
        with `folded` the post's folded body (null for a post published before bodies were folded),
        leaving out the entries marked hidden under `filters_version`.
        One statement reads the entries, the pulled posts and the horizon; a second one, only when
        the page reaches below the horizon, pulls the trimmed history with the horizon the first one
        saw."""
        first_page, next_page, past_horizon = _FOLDED[folded]
        # Rows in binary: a page's timestamps and counts load faster from their binary form than
        # parsed from text, and load as the same values.
        cursor = driver_connection(self.session).cursor(binary=True)
        params = {"tenant": tenant_id, "viewer": viewer_id, "limit": limit}
        if folded:
            params["filters_version"] = filters_version
        if after:
            params |= {"at": after.ranked_at, "entry": after.entry_id}
        rows = cursor.execute(next_page if after else first_page, params).fetchall()
        if rows:
            horizon = (rows[0][-2], rows[0][-1]) if rows[0][-2] is not None else None
        else:
            horizon = cursor.execute(HORIZON, params).fetchone()
        if horizon is not None and (len(rows) < limit or _position(rows[-1]) < tuple(horizon)):
            bound = min(tuple(horizon), (after.ranked_at, after.entry_id)) if after else tuple(horizon)
            past = cursor.execute(past_horizon, params | {"at": bound[0], "entry": bound[1]}).fetchall()
            rows = sorted(rows + past, key=_position, reverse=True)[:limit]
        # Rows of the first statement end with the horizon's two columns, those of the second do not.
        return rows
