"""REST request metrics as plain ASGI middleware: `http_requests_total{route,method,status}` and
`http_request_duration_seconds{route,method}`, labelled by the route template the router matched
(`/api/v1/scout/runs/{run_id}`), never the raw path, so an id in a URL cannot grow the series."""

from __future__ import annotations

import time
from typing import Any

from feeds_runtime.observability import metrics

UNMATCHED = "unmatched"


def route_template(scope: dict) -> str:
    route = scope.get("route")  # set by the router on the scope it matched
    return getattr(route, "path_format", None) or getattr(route, "path", None) or UNMATCHED


class RequestMetrics:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not metrics.enabled():
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # an exception that escapes every handler is answered 500 by the server

        async def send_status(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route, method = route_template(scope), scope["method"]
            metrics.HTTP_REQUESTS.labels(route, method, str(status)).inc()
            metrics.HTTP_DURATION.labels(route, method).observe(time.perf_counter() - started)
