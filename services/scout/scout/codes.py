"""The scout errors the envelope shows: each domain error carries its numeric `scout_code`
(ErrorInfo metadata) inside the HTTP status' scope."""

from __future__ import annotations

from feeds_runtime.errors import Conflict, InvalidArgument, NotFound, ResourceExhausted


def invalid_brief(message: str) -> InvalidArgument:
    return InvalidArgument("invalid_brief", message, scout_code=400001)


def invalid_target_count(message: str) -> InvalidArgument:
    return InvalidArgument("invalid_target_count", message, scout_code=400002)


def invalid_id(what: str) -> InvalidArgument:
    return InvalidArgument("invalid_id", f"{what} must be a UUID", scout_code=400003)


def invalid_filter(message: str) -> InvalidArgument:
    return InvalidArgument("invalid_filter", message, scout_code=400004)


def invalid_text(message: str) -> InvalidArgument:
    return InvalidArgument("invalid_text", message, scout_code=400005)


def invalid_request(message: str) -> InvalidArgument:
    """A malformed call the gateway refuses itself before it reaches the service, with this code."""
    return InvalidArgument("invalid_request", message, scout_code=400000)


def run_not_found() -> NotFound:
    return NotFound("run_not_found", "run not found", scout_code=404001)


def post_not_found() -> NotFound:
    return NotFound("post_not_found", "post not found", scout_code=404002)


def job_not_found() -> NotFound:
    return NotFound("job_not_found", "job not found", scout_code=404003)


def homework_not_found() -> NotFound:
    return NotFound("homework_not_found", "homework not found", scout_code=404004)


def run_not_terminal() -> Conflict:
    return Conflict("run_not_terminal", "the run is still queued or running; cancel its job first", scout_code=409001)


def post_status_conflict(status: str, action: str) -> Conflict:
    return Conflict("post_status_conflict", f"a {status} post cannot be {action}", scout_code=409002)


def job_terminal(status: str) -> Conflict:
    return Conflict("job_terminal", f"the job already {status}", scout_code=409003)


def idempotency_conflict() -> Conflict:
    """A 422 at the gateway (errors.REASON_STATUS), with the code of its own record of the key's answer."""
    return Conflict("idempotency_conflict", "this Idempotency-Key was used for a different scan", scout_code=422000)


def too_many_running_scans(limit: int) -> ResourceExhausted:
    return ResourceExhausted("too_many_running_scans", f"{limit} of your scans are queued or running, the most at "
                             "once; start another when one has finished", scout_code=429001)
