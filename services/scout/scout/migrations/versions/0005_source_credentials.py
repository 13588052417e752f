"""Refreshed provider credentials (the Threads long-lived token), encrypted, with their expiry.

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE scout.source_credentials (
            source varchar(32) PRIMARY KEY,
            seed_fingerprint varchar(64) NOT NULL,
            ciphertext text NOT NULL,
            expires_at timestamptz,
            refreshed_at timestamptz NOT NULL DEFAULT now()
        )
    """)


def downgrade() -> None:
    op.execute("DROP TABLE scout.source_credentials")
