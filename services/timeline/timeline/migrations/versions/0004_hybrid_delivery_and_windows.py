"""Posts record how followers receive them (push or pull), pulled authors are listed for home reads,
and viewers get a horizon below which their entries are trimmed and read by pull. Additive only:
existing posts are push and existing viewers have no horizon, which is what they were.

Revision ID: 0004
Revises: 0003
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        ALTER TABLE timeline.posts ADD COLUMN delivery varchar(8) NOT NULL DEFAULT 'push'
            CONSTRAINT ck_posts_delivery CHECK (delivery IN ('push', 'pull'));

        CREATE TABLE timeline.pulled_authors (
            tenant_id uuid NOT NULL,
            author_id uuid NOT NULL,
            first_pulled_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT pk_pulled_authors PRIMARY KEY (tenant_id, author_id)
        );

        CREATE TABLE timeline.viewer_horizons (
            tenant_id uuid NOT NULL,
            viewer_id uuid NOT NULL,
            ranked_at timestamptz NOT NULL,
            entry_id uuid NOT NULL,
            CONSTRAINT pk_viewer_horizons PRIMARY KEY (tenant_id, viewer_id)
        );
        """
    )


def downgrade() -> None:
    op.execute(
        """
        DROP TABLE timeline.viewer_horizons;
        DROP TABLE timeline.pulled_authors;
        ALTER TABLE timeline.posts DROP COLUMN delivery;
        """
    )
