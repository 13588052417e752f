"""A brief's recency window: optional, 1..365 days, kept in the job payload (old payloads have none)."""

import pytest

from feeds_runtime.errors import InvalidArgument
from scout.brief import Brief, normalize_brief


def brief(**changes):
    fields = dict(theme_key="", theme_label="", intent="颱風假", mode="topic", brand_id="", terms=["颱風假"],
                  target_count=None)
    return normalize_brief(**{**fields, **changes})


def test_no_window_unless_asked():
    assert brief().recent_days is None
    assert brief(recent_days=7).recent_days == 7


@pytest.mark.parametrize("days", [0, -1, 366])
def test_a_window_out_of_range_is_an_invalid_brief(days):
    with pytest.raises(InvalidArgument, match="recent_days"):
        brief(recent_days=days)


def test_the_payload_keeps_the_window_and_old_payloads_have_none():
    kept = brief(recent_days=3)
    assert Brief.from_json(kept.to_json()) == kept
    old = kept.to_json()
    del old["recent_days"]
    assert Brief.from_json(old).recent_days is None
