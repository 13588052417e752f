"""Authoring: drafts, edits, publishing and unpublishing posts."""
