"""The client address: ``X-Forwarded-For`` believed only from the proxies the operator names.

Attack: a client rotates ``X-Forwarded-For`` to look like many clients, escaping its rate
limit (and its bot-game quota), or to put someone else's address in the logs. Before, any
loopback peer's proxy headers were trusted (uvicorn's default), so a client on the same host
(or any client behind a proxy there) chose its own address.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import structlog

from spies_api.cli import _parser
from spies_api.cli import main as cli_main
from spies_api.http.edge import Edge, TrustedProxies, client_address, client_of
from spies_api.settings import DEFAULTS, Settings, SettingsError, settings_from
from tests.support.servers import ServerProcess


def scope(peer: str, *forwarded: str) -> dict[str, Any]:
    return {
        "type": "http",
        "path": "/games",
        "client": (peer, 40000),
        "headers": [(b"x-forwarded-for", item.encode()) for item in forwarded],
    }


NONE = TrustedProxies(())
PROXY = TrustedProxies(("10.0.0.1", "192.168.0.0/16"))


def test_no_proxy_is_trusted_by_default_not_even_loopback() -> None:
    assert DEFAULTS.trusted_proxies == ()
    assert _parser().parse_args([]).trusted_proxies is None
    default = TrustedProxies(DEFAULTS.trusted_proxies)
    for peer in ("127.0.0.1", "::1"):
        assert client_address(scope(peer, "203.0.113.9"), default) == peer


@pytest.mark.parametrize("forged", ["203.0.113.9", "1.1.1.1, 2.2.2.2", "junk", "::1"])
def test_an_untrusted_peer_cannot_choose_its_address(forged: str) -> None:
    assert client_address(scope("198.51.100.7", forged), NONE) == "198.51.100.7"
    assert client_address(scope("198.51.100.7", forged), PROXY) == "198.51.100.7"


def test_behind_a_trusted_proxy_the_rightmost_untrusted_address_is_the_client() -> None:
    # the proxy appends its peer; whatever the client wrote stands left of it
    assert client_address(scope("10.0.0.1", "203.0.113.9"), PROXY) == "203.0.113.9"
    assert client_address(scope("10.0.0.1", "6.6.6.6, 203.0.113.9"), PROXY) == "203.0.113.9"
    # a chain of trusted proxies is walked through
    chain = scope("10.0.0.1", "6.6.6.6, 203.0.113.9, 192.168.4.4")
    assert client_address(chain, PROXY) == "203.0.113.9"
    # several headers are one list
    assert client_address(scope("10.0.0.1", "6.6.6.6", "203.0.113.9"), PROXY) == "203.0.113.9"
    # ports and brackets are dropped, IPv4-mapped IPv6 is written as IPv4
    assert client_address(scope("10.0.0.1", "203.0.113.9:5555"), PROXY) == "203.0.113.9"
    assert client_address(scope("10.0.0.1", "[2001:db8::1]:443"), PROXY) == "2001:db8::1"
    assert client_address(scope("::ffff:10.0.0.1", "203.0.113.9"), PROXY) == "203.0.113.9"
    # no header, or nothing but trusted proxies: the last proxy
    assert client_address(scope("10.0.0.1"), PROXY) == "10.0.0.1"
    assert client_address(scope("10.0.0.1", "192.168.1.1"), PROXY) == "192.168.1.1"
    # an item that is not an address ends the walk at the proxy that passed it on
    assert client_address(scope("10.0.0.1", "203.0.113.9, junk"), PROXY) == "10.0.0.1"


def test_rotating_the_header_from_an_untrusted_peer_keeps_one_address() -> None:
    seen = {client_address(scope("127.0.0.1", f"203.0.113.{n}"), NONE) for n in range(50)}
    assert seen == {"127.0.0.1"}
    seen = {client_address(scope("10.0.0.1", f"203.0.113.{n}"), PROXY) for n in range(50)}
    assert len(seen) == 50


def test_trusted_proxies_are_a_setting_an_option_and_an_environment_variable() -> None:
    listed = "127.0.0.1, 10.0.0.0/8,::1"
    expected = ("127.0.0.1/32", "10.0.0.0/8", "::1/128")
    assert settings_from({"trusted_proxies": listed}, {}).trusted_proxies == expected
    assert settings_from({}, {"SPIES_TRUSTED_PROXIES": listed}).trusted_proxies == expected
    given = {"trusted_proxies": "10.0.0.1"}
    assert settings_from(given, {"SPIES_TRUSTED_PROXIES": listed}).trusted_proxies == (
        "10.0.0.1/32",
    )
    with pytest.raises(SettingsError, match="SPIES_TRUSTED_PROXIES='10.0.0.0/33'"):
        settings_from({}, {"SPIES_TRUSTED_PROXIES": "10.0.0.0/33"})
    with pytest.raises(ValueError):
        Settings(trusted_proxies=("localhost",))
    assert cli_main(["--trusted-proxies", "proxy.example"], environ={}) == 2


def test_the_edge_keeps_the_address_in_the_scope_and_the_log_lines() -> None:
    seen: list[tuple[str, Any]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append((client_of(scope), structlog.contextvars.get_contextvars().get("client")))

    edge = Edge(inner, trusted_proxies=("10.0.0.1",))
    for request in (scope("10.0.0.1", "203.0.113.9"), scope("127.0.0.1", "203.0.113.9")):
        asyncio.run(edge(request, None, None))  # type: ignore[arg-type]
    assert seen == [("203.0.113.9", "203.0.113.9"), ("127.0.0.1", "127.0.0.1")]
    assert "client" not in structlog.contextvars.get_contextvars()


def commands_logged(log: Path) -> list[dict[str, Any]]:
    found = []
    for line in log.read_bytes().splitlines():
        if line.startswith(b"{"):
            record = msgspec.json.decode(line)
            if record.get("event") in {"command_handled", "command_rejected"}:
                found.append(record)
    return found


def rotate(base: str, count: int) -> list[int]:
    """``count`` commands, each with another ``X-Forwarded-For``; their statuses."""
    created = httpx.post(f"{base}/games", json={"game": "deck-of-spies"}).json()
    token = created["seats"][0]["token"]
    statuses = []
    for n in range(count):
        response = httpx.post(
            f"{base}/games/{created['id']}/commands",
            headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": f"203.0.113.{n}"},
            json={"command": {"type": "counter", "cards": ["AS"]}},
        )
        statuses.append(response.status_code)
    return statuses


def test_over_a_real_server_a_loopback_peer_is_not_a_proxy(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    log = tmp_path / "untrusted.log"
    server = ServerProcess(tmp_path / "a.db", log, "--rate-limit", "12/minute").start()
    servers.append(server)
    statuses = rotate(server.base, 20)
    assert 429 in statuses  # one client, whatever its header says
    logged = commands_logged(log)
    assert logged and {record["client"] for record in logged} == {"127.0.0.1"}


def test_over_a_real_server_a_trusted_proxy_names_the_client(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    log = tmp_path / "trusted.log"
    server = ServerProcess(
        tmp_path / "b.db", log, "--rate-limit", "12/minute", "--trusted-proxies", "127.0.0.1"
    ).start()
    servers.append(server)
    statuses = rotate(server.base, 20)
    assert 429 not in statuses  # twenty clients, each under its limit
    logged = commands_logged(log)
    assert {record["client"] for record in logged} == {f"203.0.113.{n}" for n in range(20)}
