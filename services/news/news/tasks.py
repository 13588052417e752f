"""Dramatiq actors of the news service. Idempotent; arguments are ids and plain JSON."""

from __future__ import annotations

import dramatiq

from news.app import SERVICE
from news import jobs
from news.replicas import events


def _replica_actor(actor_name: str):
    def apply(event: dict) -> None:
        with SERVICE.database.transaction() as session:
            events.apply(session, actor_name, event)

    apply.__name__ = actor_name.rsplit(".", 1)[-1]
    return dramatiq.actor(queue_name=jobs.IDENTITY_QUEUE, actor_name=actor_name, time_limit=30_000)(apply)


user_upserted = _replica_actor(jobs.USER_UPSERTED)
user_blocked = _replica_actor(jobs.USER_BLOCKED)
company_upserted = _replica_actor(jobs.COMPANY_UPSERTED)
company_suspended = _replica_actor(jobs.COMPANY_SUSPENDED)

