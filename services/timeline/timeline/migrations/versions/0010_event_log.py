"""The timeline's integration events move from a Redis stream to an event log in the schema: the
published event is written in the publish transaction, and consumers read it from a position.
Announcements still waiting in the outbox become events of the log.

Revision ID: 0010
Revises: 0009
"""

from alembic import op

from feeds_runtime.events import create_event_log

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# The outbox job that announced a post: args (tenant_id, post_id, author_id, visibility, published_at).
ANNOUNCE_ACTOR = "timeline.post_published"


def upgrade() -> None:
    create_event_log(op.get_bind(), "timeline")
    op.execute(f"""
        INSERT INTO timeline.events (type, tenant_id, payload, occurred_at)
        SELECT '{ANNOUNCE_ACTOR}', (args->>0)::uuid,
               jsonb_build_object('tenant_id', args->>0, 'post_id', args->>1, 'author_id', args->>2,
                                  'visibility', args->>3, 'published_at', args->>4),
               created_at
        FROM timeline.outbox WHERE actor_name = '{ANNOUNCE_ACTOR}' AND acked_at IS NULL ORDER BY id
    """)
    op.execute(f"UPDATE timeline.outbox SET acked_at = now() WHERE actor_name = '{ANNOUNCE_ACTOR}' AND acked_at IS NULL")


def downgrade() -> None:
    op.drop_table("events", schema="timeline")
