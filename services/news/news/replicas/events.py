"""Identity events news consumes, validated at ingest and applied by the actors in news.tasks.

Each event is a plain JSON object (the actor's only argument):
  UserUpserted     {"user_id", "display_name", "avatar_url", "blocked", "version"}
  UserBlocked      {"user_id", "version"}
  CompanyUpserted  {"company_id", "name", "logo_url", "suspended", "version"}
  CompanySuspended {"company_id", "version"}
`version` is identity's version of the member or company (≥ 1)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from feeds_runtime import outbox
from news.codes import invalid
from news.inputs import parse_uuid
from news.models import outbox as outbox_table
from news.replicas import repository

from news.jobs import COMPANY_SUSPENDED, COMPANY_UPSERTED, IDENTITY_QUEUE, USER_BLOCKED, USER_UPSERTED

_KEYS = {USER_UPSERTED: "user_id", USER_BLOCKED: "user_id", COMPANY_UPSERTED: "company_id", COMPANY_SUSPENDED: "company_id"}


def _bounded(value: str, field: str, maximum: int) -> str:
    if len(value) > maximum:
        raise invalid(field, f"must be at most {maximum} characters")
    return value


def validate(actor_name: str, event: dict) -> dict:
    """The event in its stored form; VALIDATION_ERROR for a malformed one."""
    key = _KEYS[actor_name]
    entity_id, version = str(parse_uuid(event.get(key, ""), key)), int(event.get("version", 0))
    if version < 1:
        raise invalid("version", "must be at least 1")
    clean: dict[str, object] = {key: entity_id, "version": version}
    if actor_name == USER_UPSERTED:
        clean |= {"display_name": _bounded(event.get("display_name", ""), "display_name", 200),
                  "avatar_url": _bounded(event.get("avatar_url", ""), "avatar_url", 2000),
                  "blocked": bool(event.get("blocked", False))}
    elif actor_name == COMPANY_UPSERTED:
        clean |= {"name": _bounded(event.get("name", ""), "name", 200),
                  "logo_url": _bounded(event.get("logo_url", ""), "logo_url", 2000),
                  "suspended": bool(event.get("suspended", False))}
    return clean


def enqueue(session: Session, actor_name: str, event: dict) -> None:
    outbox.add(session, outbox_table, IDENTITY_QUEUE, actor_name, validate(actor_name, event))


def apply(session: Session, actor_name: str, event: dict) -> None:
    version = event["version"]
    if actor_name == USER_UPSERTED:
        repository.upsert_author(session, parse_uuid(event["user_id"], "user_id"), event["display_name"] or None,
                                 event["avatar_url"] or None, "Blocked" if event["blocked"] else "Active",
                                 version, version)
    elif actor_name == USER_BLOCKED:
        repository.upsert_author(session, parse_uuid(event["user_id"], "user_id"), None, None, "Blocked",
                                 repository.NO_PROFILE, version)
    elif actor_name == COMPANY_UPSERTED:
        repository.upsert_company(session, parse_uuid(event["company_id"], "company_id"), event["name"] or None,
                                  event["logo_url"] or None, "Suspended" if event["suspended"] else "Active",
                                  version, version)
    elif actor_name == COMPANY_SUSPENDED:
        repository.upsert_company(session, parse_uuid(event["company_id"], "company_id"), None, None, "Suspended",
                                  repository.NO_PROFILE, version)
