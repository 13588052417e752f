"""Dramatiq entry module: the broker is configured before any actor is declared."""

from timeline.app import SERVICE

broker = SERVICE.configure_worker()

from timeline import tasks  # noqa: E402,F401  (declares the actors on the configured broker)
