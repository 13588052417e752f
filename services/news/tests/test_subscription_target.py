"""AC1 (docs/news.md) at the unit level: INV-SUB-002 (the target matches its kind, XOR) and INV-SUB-003 (not self)."""

from __future__ import annotations

import uuid

import pytest

from feeds_runtime.errors import InvalidArgument
from news.codes import SELF, TARGET_INVALID
from news.domain import TargetKind
from news.subscriptions.target import subscription_target

ME = uuid.uuid4()
OTHER = uuid.uuid4()
NIL = str(uuid.UUID(int=0))


@pytest.mark.parametrize(
    ("kind", "user_id", "company_id", "reason"),
    [
        ("Company", None, None, TARGET_INVALID),
        ("Company", str(OTHER), None, TARGET_INVALID),
        ("Company", NIL, NIL, TARGET_INVALID),
        ("Author", None, None, TARGET_INVALID),
        ("Author", str(OTHER), str(OTHER), TARGET_INVALID),
        ("Author", NIL, None, TARGET_INVALID),
        ("author", str(OTHER), None, TARGET_INVALID),
        ("", str(OTHER), None, TARGET_INVALID),
        ("Author", str(ME), None, SELF),
        ("Author", "not-a-uuid", None, "VALIDATION_ERROR"),
    ],
)
def test_invalid_targets_are_refused_with_their_code(kind, user_id, company_id, reason):
    with pytest.raises(InvalidArgument) as refused:
        subscription_target(ME, kind, user_id, company_id)
    assert refused.value.reason == reason


def test_valid_targets():
    author = subscription_target(ME, "Author", str(OTHER), None)
    assert (author.kind, author.user_id, author.company_id, author.id) == (TargetKind.AUTHOR, OTHER, None, OTHER)
    company = subscription_target(ME, "Company", None, str(ME))  # a company id equal to a member id is no self
    assert (company.kind, company.company_id, company.id) == (TargetKind.COMPANY, ME, ME)
