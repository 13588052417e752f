"""News' PostPublished events move from a Redis stream to an event log in the schema, written in the
publish transaction and read by consumers from a position. Announcements still waiting in the outbox
become events of the log.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

from feeds_runtime.events import create_event_log

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# The outbox job that announced a post: args (post_id).
ANNOUNCE_ACTOR = "news.post_published"


def upgrade() -> None:
    create_event_log(op.get_bind(), "news")
    op.execute(f"""
        INSERT INTO news.events (type, payload, occurred_at)
        SELECT 'news.post-published.v1',
               jsonb_build_object('post_id', p.id::text, 'author_user_id', coalesce(p.author_user_id::text, ''),
                                  'author_company_id', coalesce(p.author_company_id::text, ''),
                                  'category_id', coalesce(p.category_id::text, ''),
                                  'published_at', to_char(p.published_at AT TIME ZONE 'UTC',
                                                          'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')),
               o.created_at
        FROM news.outbox o JOIN news.posts p ON p.id = (o.args->>0)::uuid
        WHERE o.actor_name = '{ANNOUNCE_ACTOR}' AND o.acked_at IS NULL AND p.status = 'Published'
        ORDER BY o.id
    """)
    op.execute(f"UPDATE news.outbox SET acked_at = now() WHERE actor_name = '{ANNOUNCE_ACTOR}' AND acked_at IS NULL")


def downgrade() -> None:
    op.drop_table("events", schema="news")
