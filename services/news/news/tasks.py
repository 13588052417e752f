"""Dramatiq actors of the news service. Idempotent; arguments are ids and plain JSON."""
