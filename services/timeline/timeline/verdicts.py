"""The verdicts of a viewer's lasting hiding word filters (action `hide`, no end), kept on its
entries, so a home read leaves the entries they hide out in its statement rather than reading and
judging each one.

An entry's mark is the version of the viewer's word filters under which they hide it. Adding or
deleting a lasting hiding filter draws a new version, never used before, and marks the viewer's
entries at or above its horizon anew, in the transaction of the change; a fan-out marks the entries it writes, a pair
sync the ones it merges, a rebuild every entry. A read leaves out only the entries marked with the
version of the filters it applies, read with them, and judges every other entry itself. So a mark
made under filters changed since (a fan-out or a rebuild racing a change) costs a read some judging,
never a wrong page, and no lock is taken between them. Filters with an end, warnings, labels, pulled
posts and the history below the horizon are judged at read time."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from feeds_runtime.db import Executor
from feeds_runtime.folding import fold
from timeline.matching import Phrases
from timeline.repositories.verdicts import VerdictRepository


class FilterVerdicts:
    def __init__(self, session: Executor) -> None:
        self.verdicts = VerdictRepository(session)

    def filters_changed(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID) -> None:
        """After a change of the viewer's lasting hiding filters, in its transaction."""
        self.verdicts.new_version(tenant_id, viewer_id)
        self.judge_entries(tenant_id, viewer_id)

    def judge_entries(self, tenant_id: uuid.UUID, viewer_id: uuid.UUID, author_id: uuid.UUID | None = None) -> None:
        """Mark the viewer's entries (of one author's posts, with `author_id`) that its lasting hiding
        filters hide, under their current version."""
        found = self.verdicts.lasting_hides(tenant_id, [viewer_id]).get(viewer_id)
        if found is None:
            return
        version, phrases = found
        matcher = Phrases(phrases)
        hidden = [post_id for post_id, folded, body in self.verdicts.unmarked(tenant_id, viewer_id, version, author_id)
                  if matcher.found(folded if folded is not None else fold(body))]
        if hidden:
            self.verdicts.mark_posts(tenant_id, viewer_id, version, hidden)

    def judge_post(self, tenant_id: uuid.UUID, post_id: uuid.UUID, viewer_ids: Sequence[uuid.UUID]) -> None:
        """Mark the entries of the post just written for these viewers that their lasting hiding
        filters hide: one pass over the post for all of them."""
        hides = self.verdicts.lasting_hides(tenant_id, viewer_ids)
        if not hides:
            return
        folded, body = self.verdicts.folded_body(tenant_id, post_id)
        found = Phrases(phrase for _, phrases in hides.values() for phrase in phrases).found(
            folded if folded is not None else fold(body))
        versions = {viewer_id: version for viewer_id, (version, phrases) in hides.items() if found.intersection(phrases)}
        if versions:
            self.verdicts.mark_viewers(tenant_id, post_id, versions)
