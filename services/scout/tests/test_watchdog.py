"""The scan watchdog lives as long as the server serves: a drain stops it with the server."""

from __future__ import annotations

import dataclasses
import threading

from feeds_runtime.settings import GrpcTlsSettings, load_settings
from scout.app import SERVICE


def watchdog_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "scan-watchdog"]


def test_the_watchdog_stops_when_the_server_drains(settings_env, monkeypatch):
    monkeypatch.setenv("SCOUT_GRPC_PORT", "0")
    monkeypatch.setenv("SCOUT_WATCHDOG_INTERVAL_SECONDS", "0.05")
    monkeypatch.setenv("SCOUT_DRAIN_GRACE_SECONDS", "1")
    service = dataclasses.replace(SERVICE)  # settings and database of this test's own
    before = set(watchdog_threads())
    server = service.build_server(load_settings(GrpcTlsSettings))
    try:
        server.start()
        (watchdog,) = set(watchdog_threads()) - before
        assert watchdog.is_alive()
        server.drain()
        watchdog.join(10)
        assert not watchdog.is_alive()
    finally:
        service.database.engine.dispose()
