"""Subscriptions of members to authors and companies (docs/news.md, UC-NWS-004 steps 1-4 and 9)."""
