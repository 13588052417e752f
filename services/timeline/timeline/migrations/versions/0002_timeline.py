"""Posts, stats, the follow and block graph, timeline entries and fan-out progress.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TABLES = ["posts", "post_stats", "follows", "blocks", "timeline_entries", "fanout_progress"]


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE timeline.posts (
            id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL,
            author_id uuid NOT NULL,
            body text NOT NULL,
            visibility varchar(16) NOT NULL CONSTRAINT ck_posts_visibility CHECK (visibility IN ('public', 'private')),
            moderation_state varchar(16) NOT NULL DEFAULT 'visible'
                CONSTRAINT ck_posts_moderation_state CHECK (moderation_state IN ('visible', 'hidden', 'removed')),
            published_at timestamptz NOT NULL,
            deleted_at timestamptz,
            idempotency_key varchar(255),
            request_fingerprint varchar(64)
        );
        CREATE UNIQUE INDEX uq_posts_idempotency ON timeline.posts (tenant_id, author_id, idempotency_key)
            WHERE idempotency_key IS NOT NULL;
        CREATE INDEX ix_posts_author_recent ON timeline.posts (tenant_id, author_id, published_at DESC);

        CREATE TABLE timeline.post_stats (
            post_id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL,
            like_count bigint NOT NULL DEFAULT 0,
            reply_count bigint NOT NULL DEFAULT 0,
            share_count bigint NOT NULL DEFAULT 0
        );

        CREATE TABLE timeline.follows (
            tenant_id uuid NOT NULL,
            follower_id uuid NOT NULL,
            followee_id uuid NOT NULL,
            followed_at timestamptz NOT NULL DEFAULT now(),
            ended_at timestamptz,
            CONSTRAINT pk_follows PRIMARY KEY (tenant_id, follower_id, followee_id),
            CONSTRAINT ck_follows_not_self CHECK (follower_id <> followee_id)
        );
        CREATE INDEX ix_follows_followers ON timeline.follows (tenant_id, followee_id, follower_id)
            WHERE ended_at IS NULL;

        CREATE TABLE timeline.blocks (
            tenant_id uuid NOT NULL,
            blocker_id uuid NOT NULL,
            blocked_id uuid NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT pk_blocks PRIMARY KEY (tenant_id, blocker_id, blocked_id),
            CONSTRAINT ck_blocks_not_self CHECK (blocker_id <> blocked_id)
        );
        CREATE INDEX ix_blocks_blocked ON timeline.blocks (tenant_id, blocked_id, blocker_id);

        CREATE TABLE timeline.timeline_entries (
            id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL,
            viewer_id uuid NOT NULL,
            post_id uuid NOT NULL,
            author_id uuid NOT NULL,
            kind varchar(16) NOT NULL CONSTRAINT ck_timeline_entries_kind CHECK (kind IN ('self', 'following')),
            ranked_at timestamptz NOT NULL,
            materialized_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE UNIQUE INDEX uq_timeline_entries_viewer_post ON timeline.timeline_entries (tenant_id, viewer_id, post_id);
        CREATE INDEX ix_timeline_entries_page ON timeline.timeline_entries (tenant_id, viewer_id, ranked_at DESC, id DESC);
        CREATE INDEX ix_timeline_entries_post ON timeline.timeline_entries (tenant_id, post_id);

        CREATE TABLE timeline.fanout_progress (
            post_id uuid PRIMARY KEY,
            tenant_id uuid NOT NULL,
            generation integer NOT NULL DEFAULT 1,
            after_follower_id uuid,
            chunks_done integer NOT NULL DEFAULT 0,
            entries_written bigint NOT NULL DEFAULT 0,
            published_at timestamptz NOT NULL,
            completed_at timestamptz,
            skipped_reason varchar(32)
        );
        """
    )


def downgrade() -> None:
    for table in reversed(TABLES):
        op.execute(f"DROP TABLE timeline.{table}")
