"""Versioned upserts of the replicas. Profile and status each keep the newest version seen, so
any order of delivery, repeats included, converges to the newest state."""

from __future__ import annotations

import uuid

from sqlalchemy import text
from sqlalchemy.orm import Session

_UPSERT = """
INSERT INTO news.{table} AS r ({key}, {name}, {image}, status, profile_version, status_version)
VALUES (:id, :name, :image, :status, :profile_version, :status_version)
ON CONFLICT ({key}) DO UPDATE SET
    {name} = CASE WHEN excluded.profile_version > r.profile_version THEN excluded.{name} ELSE r.{name} END,
    {image} = CASE WHEN excluded.profile_version > r.profile_version THEN excluded.{image} ELSE r.{image} END,
    profile_version = greatest(r.profile_version, excluded.profile_version),
    status = CASE WHEN excluded.status_version > r.status_version THEN excluded.status ELSE r.status END,
    status_version = greatest(r.status_version, excluded.status_version),
    updated_at = now()
WHERE excluded.profile_version > r.profile_version OR excluded.status_version > r.status_version
"""

_AUTHOR_UPSERT = text(_UPSERT.format(table="author_replicas", key="user_id", name="display_name", image="avatar_url"))
_COMPANY_UPSERT = text(_UPSERT.format(table="company_replicas", key="company_id", name="name", image="logo_url"))

# Version 0 marks "no profile yet": a status-only event leaves the profile to any later upsert.
NO_PROFILE = 0


def upsert_author(
    session: Session, user_id: uuid.UUID, display_name: str | None, avatar_url: str | None,
    status: str, profile_version: int, status_version: int,
) -> None:
    session.execute(_AUTHOR_UPSERT, {"id": user_id, "name": display_name, "image": avatar_url, "status": status,
                                     "profile_version": profile_version, "status_version": status_version})


def upsert_company(
    session: Session, company_id: uuid.UUID, name: str | None, logo_url: str | None,
    status: str, profile_version: int, status_version: int,
) -> None:
    session.execute(_COMPANY_UPSERT, {"id": company_id, "name": name, "image": logo_url, "status": status,
                                      "profile_version": profile_version, "status_version": status_version})
