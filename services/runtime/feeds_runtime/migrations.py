"""Alembic per service: the chain lives in the service's `migrations/` folder and its version table
inside the service's schema. Upgrades hold a PostgreSQL advisory lock, so two pods running
`migrate` at once apply each revision exactly once."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, MetaData, text

VERSION_TABLE = "alembic_version"


def alembic_config(migrations_dir: Path, schema: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir))
    config.attributes["schema"] = schema
    return config


def upgrade(engine: Engine, migrations_dir: Path, schema: str, revision: str = "head") -> None:
    config = alembic_config(migrations_dir, schema)
    with engine.connect() as connection:
        # Session-level lock on its own connection: held across Alembic's transaction, released at close.
        connection.execute(text("SELECT pg_advisory_lock(hashtext(:key))"), {"key": f"feeds.migrate.{schema}"})
        connection.commit()
        try:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
            connection.commit()
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(hashtext(:key))"), {"key": f"feeds.migrate.{schema}"})
            connection.commit()


def is_current(engine: Engine, migrations_dir: Path, schema: str) -> bool:
    """True when the database is reachable and at the chain's head (the readiness condition)."""
    heads = set(ScriptDirectory.from_config(alembic_config(migrations_dir, schema)).get_heads())
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"version_table_schema": schema, "version_table": VERSION_TABLE}
        )
        return set(context.get_current_heads()) == heads


def run_env(config: Config, target_metadata: MetaData) -> None:
    """Body of each service's `migrations/env.py`: online migrations on the given connection."""
    from alembic import context

    schema = config.attributes["schema"]
    connection: Connection = config.attributes["connection"]
    connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        version_table=VERSION_TABLE,
        version_table_schema=schema,
        include_schemas=False,
        transaction_per_migration=True,
    )
    with context.begin_transaction():
        context.run_migrations()
