"""Queries on scout.posts: a run's result page, the owner's history of identities, publishing,
outreach transitions and deletions."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from scout import models
from scout.domain import DeletedPost, Post
from scout.paging import Page
from scout.repositories import value_of
from scout.repositories.runs import LEGACY_FALLBACK_KEY, LEGACY_KEY_SQL

# Flow E: score first; among equal scores known posted_at before unknown, then newest, then scan
# time, then id, so every page is deterministic.
RESULT_ORDER = "score DESC, (posted_at IS NULL), posted_at DESC, created_at DESC, id DESC"

_COLUMNS = """id, run_id, theme_key, canonical_id, url, author, text, score, match_reason, posted_at, created_at,
              outreach_status, draft_text"""


class PostRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def _page(self, where: str, params: dict, page: Page) -> tuple[list[Post], int]:
        rows = self.session.execute(
            text(f"SELECT {_COLUMNS} FROM scout.posts p WHERE {where} ORDER BY {RESULT_ORDER} LIMIT :limit OFFSET :offset"),
            {**params, "limit": page.size, "offset": page.offset},
        ).all()
        total = self.session.execute(text(f"SELECT count(*) FROM scout.posts p WHERE {where}"), params).scalar_one()
        return [value_of(Post, row) for row in rows], total

    def page_of_run(self, owner: uuid.UUID, run_id: uuid.UUID, page: Page) -> tuple[list[Post], int]:
        return self._page("run_id = :run AND owner_id = :owner", {"run": run_id, "owner": owner}, page)

    def page_of_legacy(self, owner: uuid.UUID, theme_key: str, page: Page) -> tuple[list[Post], int]:
        return self._page(
            f"owner_id = :owner AND run_id IS NULL AND {LEGACY_KEY_SQL} = :key",
            {"owner": owner, "key": theme_key, "fallback": LEGACY_FALLBACK_KEY}, page,
        )

    def page_of_owner(self, owner: uuid.UUID, theme_key: str | None, page: Page) -> tuple[list[Post], int]:
        """The legacy list: every visible result of the owner (results exist only for succeeded runs)."""
        if theme_key:
            return self._page("owner_id = :owner AND theme_key = :key", {"owner": owner, "key": theme_key}, page)
        return self._page("owner_id = :owner", {"owner": owner}, page)

    def get(self, owner: uuid.UUID, post_id: uuid.UUID) -> Post | None:
        row = self.session.execute(
            text(f"SELECT {_COLUMNS} FROM scout.posts WHERE id = :id AND owner_id = :owner"),
            {"id": post_id, "owner": owner},
        ).one_or_none()
        return value_of(Post, row) if row is not None else None

    def history(self, owner: uuid.UUID) -> set[str]:
        """Canonical identities the owner already retains, in any run."""
        return set(self.session.execute(
            text("SELECT canonical_id FROM scout.posts WHERE owner_id = :owner"), {"owner": owner}
        ).scalars())

    def insert_results(self, rows: Sequence[dict]) -> set[str]:
        """Inserts a run's results; an identity the owner already holds (a concurrent run got there
        first) is skipped, never moved. Returns the identities inserted."""
        if not rows:
            return set()
        statement = insert(models.Post).values(list(rows)).on_conflict_do_nothing(
            index_elements=["owner_id", "canonical_id"]
        ).returning(models.Post.canonical_id)
        return set(self.session.execute(statement).scalars())

    def transition(self, owner: uuid.UUID, post_id: uuid.UUID, from_statuses: Sequence[str], to: str,
                   draft_text: str | None, now: datetime) -> Post | None:
        row = self.session.execute(
            text(f"""UPDATE scout.posts SET outreach_status = :to, draft_text = coalesce(:draft, draft_text),
                         updated_at = :now
                     WHERE id = :id AND owner_id = :owner AND outreach_status = ANY(:from_statuses)
                     RETURNING {_COLUMNS}"""),
            {"id": post_id, "owner": owner, "from_statuses": list(from_statuses), "to": to, "draft": draft_text,
             "now": now},
        ).one_or_none()
        return value_of(Post, row) if row is not None else None

    def delete(self, owner: uuid.UUID, post_id: uuid.UUID) -> DeletedPost | None:
        """Deletes one result; returns its run and theme, or None when the owner has no such post."""
        row = self.session.execute(
            text("DELETE FROM scout.posts WHERE id = :id AND owner_id = :owner RETURNING run_id, theme_key"),
            {"id": post_id, "owner": owner},
        ).one_or_none()
        return value_of(DeletedPost, row) if row is not None else None

    def delete_legacy(self, owner: uuid.UUID, theme_key: str) -> int:
        return len(self.session.execute(
            text(f"""DELETE FROM scout.posts p WHERE p.owner_id = :owner AND p.run_id IS NULL
                     AND {LEGACY_KEY_SQL} = :key RETURNING p.id"""),
            {"owner": owner, "key": theme_key, "fallback": LEGACY_FALLBACK_KEY},
        ).all())

    def count_of_runs_of_theme(self, owner: uuid.UUID, theme_key: str) -> int:
        return self.session.execute(
            text("""SELECT count(*) FROM scout.posts p JOIN scout.runs r ON r.id = p.run_id
                    WHERE p.owner_id = :owner AND r.owner_id = :owner AND r.theme_key = :key
                    AND r.status IN ('succeeded', 'failed', 'cancelled')"""),
            {"owner": owner, "key": theme_key},
        ).scalar_one()
