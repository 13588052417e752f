"""A viewer's word filters."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import text

from feeds_runtime.db import Executor
from timeline.domain import FilterAction, WordFilter

_COLUMNS = "id, phrase, folded_phrase, action, created_at, expires_at"
_ACTIVE = "(expires_at IS NULL OR expires_at > now())"


def _filter(row) -> WordFilter:
    return WordFilter(row.id, row.phrase, row.folded_phrase, FilterAction(row.action), row.created_at, row.expires_at)


class FilterRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def drop_expired(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> None:
        self.session.execute(
            text(f"DELETE FROM timeline.word_filters WHERE tenant_id = :tenant AND viewer_id = :viewer AND NOT {_ACTIVE}"),
            {"tenant": tenant_id, "viewer": viewer_id},
        )

    def insert(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, phrase: str, folded_phrase: str,
               action: FilterAction, expires_at: datetime | None) -> WordFilter:
        row = self.session.execute(
            text(
                f"""
                INSERT INTO timeline.word_filters (tenant_id, viewer_id, id, phrase, folded_phrase, action, expires_at)
                VALUES (:tenant, :viewer, :id, :phrase, :folded, :action, :expires_at) RETURNING {_COLUMNS}
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "id": uuid.uuid4(), "phrase": phrase, "folded": folded_phrase,
             "action": action.value, "expires_at": expires_at},
        ).one()
        return _filter(row)

    def delete(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, filter_id: uuid.UUID) -> WordFilter | None:
        """The filter deleted, None when the viewer has no such filter."""
        row = self.session.execute(
            text(f"DELETE FROM timeline.word_filters WHERE tenant_id = :tenant AND viewer_id = :viewer AND id = :id "
                 f"RETURNING {_COLUMNS}"),
            {"tenant": tenant_id, "viewer": viewer_id, "id": filter_id},
        ).one_or_none()
        return _filter(row) if row else None

    def active(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[WordFilter]:
        """The viewer's filters in force now, oldest first."""
        rows = self.session.execute(
            text(f"SELECT {_COLUMNS} FROM timeline.word_filters WHERE tenant_id = :tenant AND viewer_id = :viewer "
                 f"AND {_ACTIVE} ORDER BY created_at, id"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).all()
        return [_filter(row) for row in rows]
