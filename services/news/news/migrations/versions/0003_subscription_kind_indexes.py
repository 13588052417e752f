"""A subscriber's active subscriptions of one kind, each in its own index.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The subscription feed has a branch per kind of source; each reads only its own kind's targets,
    # from the index alone, so a page never scans the subscriber's other subscriptions (or the table).
    op.execute(
        "CREATE INDEX ix_author_subscriptions_authors ON news.author_subscriptions (subscriber_user_id, target_user_id)"
        " WHERE deleted_at IS NULL AND target_kind = 'Author'"
    )
    op.execute(
        "CREATE INDEX ix_author_subscriptions_companies ON news.author_subscriptions"
        " (subscriber_user_id, target_company_id) WHERE deleted_at IS NULL AND target_kind = 'Company'"
    )


def downgrade() -> None:
    op.execute("DROP INDEX news.ix_author_subscriptions_companies")
    op.execute("DROP INDEX news.ix_author_subscriptions_authors")
