from alembic import context

from feeds_runtime.migrations import run_env
from timeline.models import Base

run_env(context.config, Base.metadata)
