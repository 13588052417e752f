"""Dramatiq entry module of the probe: broker with leased outbox delivery, then the actor."""

import os
import time
from pathlib import Path

import dramatiq
from sqlalchemy import insert
from sqlalchemy.dialects.postgresql import insert as pg_insert

from feeds_runtime.db import make_engine
from feeds_runtime.jobs import configure_broker
from feeds_runtime.outbox import OutboxLeases
from outbox_probe.app import ACTOR, HELD_PREFIX, QUEUE, effects, executions, outbox, settings

SETTINGS = settings()
ENGINE = make_engine(SETTINGS.database_url, pool_size=2)
broker = configure_broker(SETTINGS, middleware=[OutboxLeases(ENGINE, outbox)])


@dramatiq.actor(queue_name=QUEUE, actor_name=ACTOR, min_backoff=100)
def record_effect(job_key: str) -> None:
    with ENGINE.begin() as connection:
        connection.execute(insert(executions).values(job_key=job_key))
        connection.execute(pg_insert(effects).values(job_key=job_key).on_conflict_do_nothing())
    if job_key.startswith(HELD_PREFIX):
        # Committed; the test is told so, and says when the job may return (and be acknowledged).
        signals = Path(os.environ["PROBE_SIGNAL_DIR"])
        (signals / f"committed-{job_key}").touch()
        while not (signals / f"release-{job_key}").exists():
            time.sleep(0.05)
