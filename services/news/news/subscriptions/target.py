"""The rules a subscription's target obeys (INV-SUB-002, INV-SUB-003 in docs/news.md)."""

from __future__ import annotations

import uuid

from news import codes
from news.domain import SubscriptionTarget, TargetKind
from news.inputs import parse_uuid


def _target_id(value: str | None, field: str) -> uuid.UUID | None:
    """A present id must be a UUID (else VALIDATION_ERROR); the empty UUID counts as no target."""
    if value is None or value == "":
        return None
    parsed = parse_uuid(value, field, allow_nil=True)
    return None if parsed.int == 0 else parsed


def subscription_target(
    subscriber: uuid.UUID, kind: str, target_user_id: str | None, target_company_id: str | None
) -> SubscriptionTarget:
    """Exactly the id the kind names (XOR), never the subscriber themself."""
    user_id = _target_id(target_user_id, "targetUserId")
    company_id = _target_id(target_company_id, "targetCompanyId")
    try:
        target_kind = TargetKind(kind)
    except ValueError:
        raise codes.target_invalid("targetKind must be Author or Company") from None
    if target_kind is TargetKind.AUTHOR:
        if user_id is None or company_id is not None or target_company_id:
            raise codes.target_invalid("an Author subscription names targetUserId and only it")
        if user_id == subscriber:
            raise codes.self_subscription()
        return SubscriptionTarget(target_kind, user_id=user_id)
    if company_id is None or user_id is not None or target_user_id:
        raise codes.target_invalid("a Company subscription names targetCompanyId and only it")
    return SubscriptionTarget(target_kind, company_id=company_id)
