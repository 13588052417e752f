"""The news errors the envelope shows: each domain error carries its `error.code` (docs/news.md,
"Errors") inside the gRPC status it maps to."""

from __future__ import annotations

from feeds_runtime.errors import InvalidArgument, NotFound, PermissionDenied

VALIDATION_ERROR = "VALIDATION_ERROR"
POST_NOT_FOUND = "NEWS_POST_NOT_FOUND"
POST_FORBIDDEN = "NEWS_POST_FORBIDDEN"
SUBSCRIPTIONS_DISABLED = "NEWS_SUBSCRIPTIONS_DISABLED"
SUBSCRIPTION_NOT_FOUND = "NEWS_SUBSCRIPTION_NOT_FOUND"
SUBSCRIPTION_FORBIDDEN = "NEWS_SUBSCRIPTION_FORBIDDEN"
TARGET_INVALID = "NEWS_SUBSCRIPTION_TARGET_INVALID"
SELF = "NEWS_SUBSCRIPTION_SELF"


def invalid_request(message: str) -> InvalidArgument:
    """A request the shared interceptors refuse before any field is parsed."""
    return InvalidArgument(VALIDATION_ERROR, message)


def invalid(field: str, message: str) -> InvalidArgument:
    """A malformed field, named in the message and in the ErrorInfo metadata."""
    return InvalidArgument(VALIDATION_ERROR, f"{field}: {message}", field=field)


def post_not_found() -> NotFound:
    return NotFound(POST_NOT_FOUND, "post not found")


def post_forbidden() -> PermissionDenied:
    return PermissionDenied(POST_FORBIDDEN, "only the writer may change this post")


def subscriptions_disabled() -> NotFound:
    return NotFound(SUBSCRIPTIONS_DISABLED, "subscriptions are not available")


def subscription_not_found() -> NotFound:
    return NotFound(SUBSCRIPTION_NOT_FOUND, "subscription not found")


def subscription_forbidden() -> PermissionDenied:
    return PermissionDenied(SUBSCRIPTION_FORBIDDEN, "this subscription belongs to another member")


def target_invalid(message: str) -> InvalidArgument:
    return InvalidArgument(TARGET_INVALID, message)


def self_subscription() -> InvalidArgument:
    return InvalidArgument(SELF, "members cannot subscribe to themselves")
