"""Label policies of a tenant and label preferences of its viewers."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from feeds_runtime.db import Executor, affected
from timeline.domain import FilterAction, LabelPolicy, LabelPreference


class LabelRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def put_policy(self, tenant_id: uuid.UUID, policy: LabelPolicy) -> None:
        self.session.execute(
            text(
                """
                INSERT INTO timeline.label_policies (tenant_id, label, action, viewer_may_change)
                VALUES (:tenant, :label, :action, :may_change)
                ON CONFLICT (tenant_id, label) DO UPDATE SET action = EXCLUDED.action,
                                                             viewer_may_change = EXCLUDED.viewer_may_change
                """
            ),
            {"tenant": tenant_id, "label": policy.label, "action": policy.action.value,
             "may_change": policy.viewer_may_change},
        )

    def delete_policy(self, tenant_id: uuid.UUID, label: str) -> bool:
        return affected(self.session.execute(
            text("DELETE FROM timeline.label_policies WHERE tenant_id = :tenant AND label = :label"),
            {"tenant": tenant_id, "label": label},
        )) > 0

    def policies(self, tenant_id: uuid.UUID) -> list[LabelPolicy]:
        rows = self.session.execute(
            text("SELECT label, action, viewer_may_change FROM timeline.label_policies WHERE tenant_id = :tenant "
                 "ORDER BY label"),
            {"tenant": tenant_id},
        ).all()
        return [LabelPolicy(row.label, FilterAction(row.action), row.viewer_may_change) for row in rows]

    def put_preference(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, preference: LabelPreference) -> None:
        self.session.execute(
            text(
                """
                INSERT INTO timeline.label_preferences (tenant_id, viewer_id, label, action)
                VALUES (:tenant, :viewer, :label, :action)
                ON CONFLICT (tenant_id, viewer_id, label) DO UPDATE SET action = EXCLUDED.action
                """
            ),
            {"tenant": tenant_id, "viewer": viewer_id, "label": preference.label, "action": preference.action.value},
        )

    def delete_preference(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, label: str) -> bool:
        return affected(self.session.execute(
            text("DELETE FROM timeline.label_preferences WHERE tenant_id = :tenant AND viewer_id = :viewer "
                 "AND label = :label"),
            {"tenant": tenant_id, "viewer": viewer_id, "label": label},
        )) > 0

    def preferences(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> list[LabelPreference]:
        rows = self.session.execute(
            text("SELECT label, action FROM timeline.label_preferences WHERE tenant_id = :tenant "
                 "AND viewer_id = :viewer ORDER BY label"),
            {"tenant": tenant_id, "viewer": viewer_id},
        ).all()
        return [LabelPreference(row.label, FilterAction(row.action)) for row in rows]
