"""Subscriptions of members to authors and companies (UC-NWS-004 steps 1-4 and 9)."""
