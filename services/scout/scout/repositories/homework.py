"""Queries on scout.homework."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from scout.models import Homework


class HomeworkRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def list(self, owner: uuid.UUID) -> Sequence[Row[Any]]:
        return self.session.execute(
            text("""SELECT theme_key, brief, created_at, updated_at FROM scout.homework WHERE owner_id = :owner
                    ORDER BY updated_at DESC, theme_key"""),
            {"owner": owner},
        ).all()

    def put(self, owner: uuid.UUID, theme_key: str, brief: dict, now: datetime) -> Row[Any]:
        values = insert(Homework).values(owner_id=owner, theme_key=theme_key, brief=brief, created_at=now,
                                         updated_at=now)
        upsert = values.on_conflict_do_update(
            index_elements=["owner_id", "theme_key"], set_={"brief": values.excluded.brief, "updated_at": now}
        ).returning(Homework.theme_key, Homework.brief, Homework.created_at, Homework.updated_at)
        return self.session.execute(upsert).one()

    def delete(self, owner: uuid.UUID, theme_key: str) -> bool:
        return self.session.execute(
            text("DELETE FROM scout.homework WHERE owner_id = :owner AND theme_key = :key RETURNING theme_key"),
            {"owner": owner, "key": theme_key},
        ).first() is not None
