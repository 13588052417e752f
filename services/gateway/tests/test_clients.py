"""Gateway channels retry UNAVAILABLE on the idempotent reads a context declares, and only on those."""

from __future__ import annotations

import asyncio
from concurrent import futures

import grpc
import pytest

from gateway.clients import ServiceChannel

SERVICE = "probe.v1.Reads"


@pytest.fixture
def flaky_server():
    """Every method fails UNAVAILABLE on its first call, then answers."""
    calls: dict[str, int] = {}

    def handler(name: str):
        def answer(request: bytes, context: grpc.ServicerContext) -> bytes:
            calls[name] = calls.get(name, 0) + 1
            if calls[name] == 1:
                context.abort(grpc.StatusCode.UNAVAILABLE, "warming up")
            return name.encode()

        return grpc.unary_unary_rpc_method_handler(answer)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(
        SERVICE, {"ListThings": handler("ListThings"), "CreateThing": handler("CreateThing")})])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield f"127.0.0.1:{port}", calls
    server.stop(0)


def test_reads_are_retried_and_writes_are_not(flaky_server):
    address, calls = flaky_server

    async def scenario():
        channel = ServiceChannel("probe", address, deadline=5, idempotent_reads={SERVICE: ["ListThings"]}, tls=None)
        try:
            read = await channel.channel.unary_unary(f"/{SERVICE}/ListThings")(b"", timeout=channel.deadline)
            with pytest.raises(grpc.RpcError) as write_error:
                await channel.channel.unary_unary(f"/{SERVICE}/CreateThing")(b"", timeout=channel.deadline)
            return read, write_error.value.code()
        finally:
            await channel.close()

    # A loop of its own in its own thread: a session-wide Playwright loop may be running in this one.
    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        read, write_code = pool.submit(asyncio.run, scenario()).result()
    assert read == b"ListThings" and calls["ListThings"] == 2
    assert write_code == grpc.StatusCode.UNAVAILABLE and calls["CreateThing"] == 1
