"""Dramatiq entry module of the probe: broker with outbox acknowledgement, then the actor."""

import dramatiq
from sqlalchemy import insert
from sqlalchemy.dialects.postgresql import insert as pg_insert

from feeds_runtime.db import make_engine
from feeds_runtime.jobs import configure_broker
from feeds_runtime.outbox import OutboxAck
from outbox_probe.app import ACTOR, QUEUE, effects, executions, outbox, settings

SETTINGS = settings()
ENGINE = make_engine(SETTINGS.database_url, pool_size=2)
broker = configure_broker(SETTINGS, middleware=[OutboxAck(ENGINE, outbox)])


@dramatiq.actor(queue_name=QUEUE, actor_name=ACTOR, max_retries=3, min_backoff=100)
def record_effect(job_key: str) -> None:
    with ENGINE.begin() as connection:
        connection.execute(insert(executions).values(job_key=job_key))
        connection.execute(pg_insert(effects).values(job_key=job_key).on_conflict_do_nothing())
