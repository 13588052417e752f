"""The outbox keeps the trace context of the span that recorded each job, so the job's trace goes on
from the request that caused it.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

from feeds_runtime.outbox import TABLE_NAME, TRACE_CONTEXT_COLUMNS, add_columns

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns(op.get_bind(), "scout", TRACE_CONTEXT_COLUMNS)


def downgrade() -> None:
    for column in TRACE_CONTEXT_COLUMNS:
        op.drop_column(TABLE_NAME, column, schema="scout")
