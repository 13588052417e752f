"""What a home read applies, read at the start of every read in one statement: the viewer's word
filters in force with their version (timeline.verdicts) and what each label does for it, where that
is not `show` (the viewer's preference where the tenant's policy lets it choose or sets none, else
the tenant's policy). Mutes are applied by the page's statements themselves (`sql.muted`)."""

from __future__ import annotations

import uuid

from feeds_runtime.db import Executor, driver_connection
from timeline.domain import FilterAction, WordFilter

_READ_RULES = """
    SELECT f.id, f.phrase, f.folded_phrase, f.action, f.created_at, f.expires_at, NULL AS label,
           (SELECT v.version FROM timeline.word_filter_versions v
            WHERE v.tenant_id = %(tenant)s AND v.viewer_id = %(viewer)s) AS version
    FROM timeline.word_filters f
    WHERE f.tenant_id = %(tenant)s AND f.viewer_id = %(viewer)s AND (f.expires_at IS NULL OR f.expires_at > now())
    UNION ALL
    SELECT NULL, NULL, NULL, l.action, NULL, NULL, l.label, NULL FROM (
        SELECT coalesce(t.label, v.label) AS label,
               CASE WHEN t.label IS NOT NULL AND NOT t.viewer_may_change THEN t.action
                    ELSE coalesce(v.action, t.action) END AS action
        FROM (SELECT label, action, viewer_may_change FROM timeline.label_policies WHERE tenant_id = %(tenant)s) t
        FULL JOIN (SELECT label, action FROM timeline.label_preferences
                   WHERE tenant_id = %(tenant)s AND viewer_id = %(viewer)s) v ON v.label = t.label
    ) l WHERE l.action <> 'show'
    ORDER BY 5, 1
"""


def read_rules(executor: Executor, tenant_id: uuid.UUID,
               viewer_id: uuid.UUID) -> tuple[list[WordFilter], dict[str, FilterAction], int]:
    """(the viewer's word filters in force, oldest first; label → action for the labels that do not
    show; the version of those filters, read with them, 0 when they never had one)."""
    rows = driver_connection(executor).execute(_READ_RULES, {"tenant": tenant_id, "viewer": viewer_id}).fetchall()
    filters = [WordFilter(row[0], row[1], row[2], FilterAction(row[3]), row[4], row[5]) for row in rows if row[6] is None]
    version = next((row[7] for row in rows if row[7] is not None), 0)
    return filters, {row[6]: FilterAction(row[3]) for row in rows if row[6] is not None}, version
