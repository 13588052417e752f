"""The timeline errors a host sees: each domain error carries the `error.code` of the timeline
envelope (docs/timeline.md, "Errors") inside the gRPC status it maps to."""

from __future__ import annotations

from feeds_runtime.errors import Conflict, FailedPrecondition, InvalidArgument, NotFound


def invalid_request(message: str) -> InvalidArgument:
    return InvalidArgument("invalid_request", message)


def invalid_id(what: str) -> InvalidArgument:
    return invalid_request(f"{what} must be a UUID")


def invalid_limit(message: str) -> InvalidArgument:
    return InvalidArgument("invalid_limit", message)


def invalid_cursor() -> InvalidArgument:
    return InvalidArgument("invalid_cursor", "cursor is not a next_cursor issued for this timeline")


def limit_exceeded(message: str) -> InvalidArgument:
    return InvalidArgument("limit_exceeded", message)


def post_not_found() -> NotFound:
    return NotFound("not_found", "post not found")


def filter_not_found() -> NotFound:
    return NotFound("not_found", "word filter not found")


def label_not_found() -> NotFound:
    return NotFound("not_found", "no rule for this label")


def rebuild_not_found() -> NotFound:
    return NotFound("not_found", "rebuild not found")


def too_many_rebuilds(limit: int) -> FailedPrecondition:
    return FailedPrecondition("too_many_rebuilds",
                              f"the tenant has {limit} rebuilds queued or running; request again when one is over")


def idempotency_conflict() -> Conflict:
    return Conflict("idempotency_conflict", "this Idempotency-Key was used for a different post")
