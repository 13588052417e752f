"""Posts, author subscriptions and identity replicas.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE news.posts (
            id uuid PRIMARY KEY,
            author_user_id uuid,
            author_company_id uuid,
            category_id uuid,
            title varchar(200) NOT NULL,
            body text NOT NULL,
            excerpt varchar(300) NOT NULL,
            status varchar(16) NOT NULL,
            published_at timestamptz,
            created_by uuid NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            updated_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT ck_posts_one_source CHECK ((author_user_id IS NULL) <> (author_company_id IS NULL)),
            CONSTRAINT ck_posts_status CHECK (status IN ('Draft', 'Published', 'Unpublished')),
            CONSTRAINT ck_posts_published_at CHECK (status <> 'Published' OR published_at IS NOT NULL)
        )
        """
    )
    # Feeds read only published posts, newest first; one index per way a feed selects them, so a
    # page costs what its sources hold, never what the whole table holds.
    op.execute(
        "CREATE INDEX ix_posts_author_published ON news.posts (author_user_id, published_at DESC, id DESC)"
        " WHERE status = 'Published' AND author_user_id IS NOT NULL"
    )
    op.execute(
        "CREATE INDEX ix_posts_company_published ON news.posts (author_company_id, published_at DESC, id DESC)"
        " WHERE status = 'Published' AND author_company_id IS NOT NULL"
    )
    op.execute(
        "CREATE INDEX ix_posts_published ON news.posts (published_at DESC, id DESC) WHERE status = 'Published'"
    )
    op.execute(
        "CREATE INDEX ix_posts_category_published ON news.posts (category_id, published_at DESC, id DESC)"
        " WHERE status = 'Published' AND category_id IS NOT NULL"
    )
    op.execute("CREATE INDEX ix_posts_created_by ON news.posts (created_by)")

    op.execute(
        """
        CREATE TABLE news.author_subscriptions (
            id uuid PRIMARY KEY,
            subscriber_user_id uuid NOT NULL,
            target_kind varchar(16) NOT NULL,
            target_user_id uuid,
            target_company_id uuid,
            created_at timestamptz NOT NULL DEFAULT now(),
            created_by uuid NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now(),
            updated_by uuid NOT NULL,
            deleted_at timestamptz,
            deleted_by uuid,
            CONSTRAINT ck_author_subscriptions_target CHECK (
                (target_kind = 'Author' AND target_user_id IS NOT NULL AND target_company_id IS NULL)
                OR (target_kind = 'Company' AND target_company_id IS NOT NULL AND target_user_id IS NULL)
            ),
            CONSTRAINT ck_author_subscriptions_not_self CHECK (target_user_id IS DISTINCT FROM subscriber_user_id)
        )
        """
    )
    # One row per subscriber and target, soft-deleted rows included: a repeat subscribe reactivates it.
    op.execute(
        "CREATE UNIQUE INDEX ux_subscriptions_target ON news.author_subscriptions"
        " (subscriber_user_id, target_kind, (coalesce(target_user_id, target_company_id)))"
    )
    # A subscriber's active subscriptions, newest first; the targets ride along so the feed reads
    # them from the index alone.
    op.execute(
        "CREATE INDEX ix_author_subscriptions_active ON news.author_subscriptions"
        " (subscriber_user_id, created_at DESC, id DESC) INCLUDE (target_kind, target_user_id, target_company_id)"
        " WHERE deleted_at IS NULL"
    )

    op.execute(
        """
        CREATE TABLE news.author_replicas (
            user_id uuid PRIMARY KEY,
            display_name varchar(200),
            avatar_url varchar(2000),
            status varchar(16) NOT NULL,
            profile_version bigint NOT NULL,
            status_version bigint NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT ck_author_replicas_status CHECK (status IN ('Active', 'Blocked'))
        )
        """
    )
    op.execute(
        """
        CREATE TABLE news.company_replicas (
            company_id uuid PRIMARY KEY,
            name varchar(200),
            logo_url varchar(2000),
            status varchar(16) NOT NULL,
            profile_version bigint NOT NULL,
            status_version bigint NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT ck_company_replicas_status CHECK (status IN ('Active', 'Suspended'))
        )
        """
    )
    # Feeds drop the posts of suspended companies; the few suspended ones are found by this index.
    op.execute(
        "CREATE INDEX ix_company_replicas_suspended ON news.company_replicas (company_id) WHERE status = 'Suspended'"
    )


def downgrade() -> None:
    for table in ("company_replicas", "author_replicas", "author_subscriptions", "posts"):
        op.execute(f"DROP TABLE news.{table}")
