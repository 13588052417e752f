"""Dramatiq entry module: the broker is configured before any actor is declared."""

from scout.app import SERVICE

broker = SERVICE.configure_worker()

from scout import tasks  # noqa: E402,F401  (declares the actors on the configured broker)
