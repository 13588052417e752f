"""Replicas of identity members and companies: signatures and statuses for feeds."""
