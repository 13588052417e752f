"""Queue and actor names shared by the services that write outbox rows and the actors that run them."""

from __future__ import annotations

IDENTITY_QUEUE = "news.identity"
QUEUES = [IDENTITY_QUEUE]

# One identity event (news.replicas.events describes each), applied to the replicas.
USER_UPSERTED = "news.identity.user_upserted"
USER_BLOCKED = "news.identity.user_blocked"
COMPANY_UPSERTED = "news.identity.company_upserted"
COMPANY_SUSPENDED = "news.identity.company_suspended"
