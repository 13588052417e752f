"""Every machine code an error body of each context can carry, for the document's enums: what the
services put in ErrorInfo.reason (their `codes` modules and feeds_runtime's defaults; a test holds
these lists to them) and what the gateway's routes raise themselves."""

from __future__ import annotations

from gateway.envelopes import Context

SERVICE_CODES: dict[Context, tuple[str, ...]] = {
    Context.TIMELINE: ("invalid_request", "invalid_limit", "invalid_cursor", "limit_exceeded", "not_found",
                       "idempotency_conflict", "too_many_rebuilds", "unauthenticated"),
    Context.NEWS: ("VALIDATION_ERROR", "NEWS_POST_NOT_FOUND", "NEWS_POST_FORBIDDEN", "NEWS_SUBSCRIPTIONS_DISABLED",
                   "NEWS_SUBSCRIPTION_NOT_FOUND", "NEWS_SUBSCRIPTION_FORBIDDEN", "NEWS_SUBSCRIPTION_TARGET_INVALID",
                   "NEWS_SUBSCRIPTION_SELF", "invalid_request", "unauthenticated"),
    Context.SCOUT: ("invalid_brief", "invalid_target_count", "invalid_id", "invalid_filter", "invalid_text",
                    "run_not_found", "post_not_found", "job_not_found", "homework_not_found", "run_not_terminal",
                    "post_status_conflict", "job_terminal", "idempotency_conflict", "too_many_running_scans",
                    "invalid_request", "unauthenticated"),
}

# Scout's numeric codes the services send (ErrorInfo metadata `scout_code`); any other error's code is
# its HTTP status times 1000.
SCOUT_SERVICE_NUMBERS = (400001, 400002, 400003, 400004, 400005, 404001, 404002, 404003, 404004,
                         409001, 409002, 409003, 429001)

# The codes the gateway's routes raise themselves (gateway.auth, gateway.routes); besides these it
# renders each context's validation code and the generic word per status (gateway.errors).
ROUTE_CODES: dict[Context, tuple[str, ...]] = {
    Context.TIMELINE: ("invalid_signature", "invalid_request", "invalid_limit", "idempotency_conflict",
                       "idempotency_in_progress"),
    Context.NEWS: (),
    Context.SCOUT: ("idempotency_conflict", "idempotency_in_progress"),
}


def scout_numbers(statuses: set[int]) -> list[int]:
    """Scout's numeric codes for errors of these statuses: the services' own, and status × 1000."""
    return sorted({*SCOUT_SERVICE_NUMBERS, *(status * 1000 for status in statuses)})
