"""Subscription and global feeds and single posts (docs/news.md, UC-NWS-004 steps 5-8, A1, A2)."""
