"""Schema `outbox_probe`: the outbox, the actor's effects (unique per job key) and its executions."""

from __future__ import annotations

from sqlalchemy import Column, Integer, String, Table, text

from feeds_runtime.db import schema_metadata
from feeds_runtime.outbox import create_outbox, outbox_table
from feeds_runtime.settings import InfraSettings

SCHEMA = "outbox_probe"
QUEUE = "outbox_probe.jobs"
ACTOR = "record_effect"
# A job whose key starts so waits, after its commit, until the test releases it.
HELD_PREFIX = "held-"
# A job whose key starts so waits, after its commit, until the test releases it.

metadata = schema_metadata(SCHEMA)
outbox = outbox_table(metadata)
effects = Table("effects", metadata, Column("job_key", String, primary_key=True))
executions = Table("executions", metadata, Column("id", Integer, primary_key=True), Column("job_key", String))


def create_schema(engine) -> None:
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE"))
        connection.execute(text(f"CREATE SCHEMA {SCHEMA}"))
        create_outbox(connection, SCHEMA)
        effects.create(connection)
        executions.create(connection)


def settings() -> InfraSettings:
    return InfraSettings()
