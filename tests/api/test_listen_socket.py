"""The socket ``spies-api`` listens on: connections accepted from it send without delay.

uvicorn serves on the socket the command line binds, through asyncio, which sets
``TCP_NODELAY`` on an accepted connection only when its protocol number says TCP. Without
it, a response written in two parts (head, then body) waits for the client's delayed
acknowledgement on every request of a kept-alive connection.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest

from spies_api import cli
from tests.support.servers import free_port


async def accepted_nodelay(sock: socket.socket) -> int:
    """Serve on ``sock`` as uvicorn does, connect once, and read the accepted socket's flag."""
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            raw = transport.get_extra_info("socket")
            accepted.set_result(raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
    try:
        _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
        flag = await asyncio.wait_for(accepted, timeout=10)
        writer.close()
        return flag
    finally:
        server.close()


def test_connections_accepted_by_spies_api_set_tcp_nodelay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flags: list[int] = []

    def serve(self: Any, sockets: list[socket.socket]) -> None:
        flags.extend(asyncio.run(accepted_nodelay(sock)) for sock in sockets)

    monkeypatch.setattr(cli._Server, "run", serve)
    port = free_port()
    assert cli.main(["--db", str(tmp_path / "api.db"), "--port", str(port)], environ={}) == 0
    assert flags == [1]
