"""Queries on scout.homework."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from scout import models
from scout.domain import Homework
from scout.repositories import value_of


class HomeworkRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def list(self, owner: uuid.UUID) -> list[Homework]:
        rows = self.session.execute(
            text("""SELECT theme_key, brief, created_at, updated_at FROM scout.homework WHERE owner_id = :owner
                    ORDER BY updated_at DESC, theme_key"""),
            {"owner": owner},
        ).all()
        return [value_of(Homework, row) for row in rows]

    def put(self, owner: uuid.UUID, theme_key: str, brief: dict, now: datetime) -> Homework:
        values = insert(models.Homework).values(owner_id=owner, theme_key=theme_key, brief=brief, created_at=now,
                                         updated_at=now)
        upsert = values.on_conflict_do_update(
            index_elements=["owner_id", "theme_key"], set_={"brief": values.excluded.brief, "updated_at": now}
        ).returning(models.Homework.theme_key, models.Homework.brief, models.Homework.created_at,
                    models.Homework.updated_at)
        return value_of(Homework, self.session.execute(upsert).one())

    def delete(self, owner: uuid.UUID, theme_key: str) -> bool:
        return self.session.execute(
            text("DELETE FROM scout.homework WHERE owner_id = :owner AND theme_key = :key RETURNING theme_key"),
            {"owner": owner, "key": theme_key},
        ).first() is not None
