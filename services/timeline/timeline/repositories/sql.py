"""SQL fragments shared by the timeline repositories."""

from __future__ import annotations

# Entry ids derive from (tenant, viewer, post), so any path that writes the same projection —
# publish, fan-out, merge, rebuild — writes the same id, and a read that pulls a post instead of
# reading its entry gives it the very position (ranked_at, id) the entry would have.
ENTRY_ID = "md5(CAST({tenant} AS text) || '/' || CAST({viewer} AS text) || '/' || CAST({post} AS text))::uuid"

# Posts followers may see (aliased `p`).
FANS_OUT = "p.deleted_at IS NULL AND p.moderation_state = 'visible' AND p.visibility = 'public'"

POST_COLUMNS = """p.id, p.tenant_id, p.author_id, p.body, p.visibility, p.moderation_state, p.delivery,
                  p.published_at, p.deleted_at, s.like_count, s.reply_count, s.share_count, p.labels"""


def blocked(viewer: str, author: str, tenant: str = ":tenant") -> str:
    """A block between the two users, in either direction."""
    return f"""EXISTS (SELECT 1 FROM timeline.blocks b WHERE b.tenant_id = {tenant}
               AND ((b.blocker_id = {viewer} AND b.blocked_id = {author})
                 OR (b.blocker_id = {author} AND b.blocked_id = {viewer})))"""


def muted(viewer: str, author: str, tenant: str = ":tenant") -> str:
    """The viewer mutes the author now: a mute without an end, or one whose end is still ahead."""
    return f"""EXISTS (SELECT 1 FROM timeline.mutes m WHERE m.tenant_id = {tenant} AND m.viewer_id = {viewer}
               AND m.author_id = {author} AND (m.until IS NULL OR m.until > now()))"""


def advisory_locks(function: str, namespace: str) -> str:
    """One statement taking a transaction-scoped advisory lock per id of `:ids` (sorted by the caller,
    so lockers never deadlock), keyed by namespace, tenant and id."""
    return f"""SELECT count({function}(hashtextextended('{namespace}/' || CAST(:tenant AS text) || '/'
                                                     || CAST(u.id AS text), 0)))
               FROM (SELECT id FROM unnest(CAST(:ids AS uuid[])) WITH ORDINALITY AS t(id, n) ORDER BY n) u"""
