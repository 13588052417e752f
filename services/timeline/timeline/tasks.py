"""Dramatiq actors of the timeline service. Idempotent; arguments are ids and plain JSON."""
