"""A viewer's mutes of authors. Home reads apply them (`sql.muted`); these are the writes and lists."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import text

from feeds_runtime.db import Executor
from timeline.domain import Mute

_ACTIVE = "(until IS NULL OR until > now())"


class MuteRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def drop_expired(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> None:
        self.session.execute(
            text(f"DELETE FROM timeline.mutes WHERE tenant_id = :tenant AND viewer_id = :viewer AND NOT {_ACTIVE}"),
            {"tenant": tenant_id, "viewer": viewer_id},
        )

    def count_others(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID) -> int:
        """The viewer's active mutes of authors other than this one."""
        return self.session.execute(
            text(f"SELECT count(*) FROM timeline.mutes WHERE tenant_id = :tenant AND viewer_id = :viewer "
                 f"AND author_id <> :author AND {_ACTIVE}"),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id},
        ).scalar_one()

    def put(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID, until: datetime | None) -> Mute:
        """Mute the author, or change an existing mute's end."""
        row = self.session.execute(
            text(
                """
                INSERT INTO timeline.mutes (tenant_id, viewer_id, author_id, until) VALUES (:tenant, :viewer, :author, :until)
                ON CONFLICT (tenant_id, viewer_id, author_id) DO UPDATE SET until = EXCLUDED.until
                RETURNING author_id, until, created_at
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id, "until": until},
        ).one()
        return Mute(row.author_id, row.until, row.created_at)

    def delete(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID) -> None:
        self.session.execute(
            text("DELETE FROM timeline.mutes WHERE tenant_id = :tenant AND viewer_id = :viewer AND author_id = :author"),
            {"tenant": tenant_id, "viewer": viewer_id, "author": author_id},
        )

    def active(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[Mute]:
        """The viewer's mutes in force now, most recent first."""
        rows = self.session.execute(
            text(f"SELECT author_id, until, created_at FROM timeline.mutes WHERE tenant_id = :tenant "
                 f"AND viewer_id = :viewer AND {_ACTIVE} ORDER BY created_at DESC, author_id DESC"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).all()
        return [Mute(row.author_id, row.until, row.created_at) for row in rows]
