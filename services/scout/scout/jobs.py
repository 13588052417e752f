"""Queue and actor names shared by the services that write outbox rows and the actors that run them."""

from __future__ import annotations

SCAN_QUEUE = "scout.scan"
QUEUES = [SCAN_QUEUE]

# (job_id, owner_id): run one scan job of its owner.
SCAN_RUN = "scout.scan_run"
