"""A minimal service used to prove the outbox: one idempotent actor whose effect is countable."""
