"""Mutes: a viewer's muted authors, each optionally until a time, applied by home reads.

Revision ID: 0013
Revises: 0012
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE timeline.mutes (
            tenant_id uuid NOT NULL,
            viewer_id uuid NOT NULL,
            author_id uuid NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            until timestamptz,
            CONSTRAINT pk_mutes PRIMARY KEY (tenant_id, viewer_id, author_id),
            CONSTRAINT ck_mutes_not_self CHECK (viewer_id <> author_id)
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE timeline.mutes")
