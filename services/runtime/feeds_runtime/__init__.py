"""Shared runtime of the feeds services. Knows no domain; never runs on its own."""
