"""`python -m gateway server`: serve the REST gateway with uvicorn."""

from __future__ import annotations

import argparse

import uvicorn

from feeds_runtime.logs import configure_logging
from feeds_runtime.observability import metrics, tracing
from feeds_runtime.settings import load_settings
from gateway.app import create_app
from gateway.settings import GatewaySettings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="gateway", description="The REST gateway.")
    parser.add_argument("kind", choices=["server"], help="which process to run")
    parser.parse_args(argv)
    settings = load_settings(GatewaySettings)
    configure_logging("gateway", settings.log_level)
    tracing.configure("gateway", "server")
    if settings.metrics_port:
        metrics.serve(settings.metrics_port, settings.metrics_host)
    else:
        metrics.disable()
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_config=None,
                timeout_graceful_shutdown=10, access_log=False)


if __name__ == "__main__":
    main()
