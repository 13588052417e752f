"""Dramatiq actors of the scout service. Idempotent; arguments are ids and plain JSON."""
