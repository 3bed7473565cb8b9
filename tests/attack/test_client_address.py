"""The client address: ``X-Forwarded-For`` believed only from the proxies the operator names.

Attack: a client rotates ``X-Forwarded-For`` to look like many clients, escaping its rate
limit (and its bot-game quota), or to put someone else's address in the logs. Before, any
loopback peer's proxy headers were trusted (uvicorn's default), so a client on the same host
(or any client behind a proxy there) chose its own address.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import structlog

from spies_api import create_app
from spies_api.cli import _parser
from spies_api.cli import main as cli_main
from spies_api.http.edge import Edge, TrustedProxies, client_address, client_of, rate_key
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


# -- dual-stack peers and groupings (issue: every IPv4 client of `--host ::` was one) -----------
#
# Attack, before: on a dual-stack bind every IPv4 peer arrives as ``::ffff:a.b.c.d``; without a
# trusted proxy the address was kept as it came, and the IPv6 grouping put every one of them in
# ``::/64``: one client's burst was every other client's 429, and one client's bot games were
# every other client's quota.

MAPPED_A, MAPPED_B = "::ffff:1.2.3.4", "::ffff:5.6.7.8"
BOT_GAME = {"game": "deck-of-spies", "seats": [{"type": "bot", "bot": "random"}]}


def test_an_ipv4_mapped_peer_is_its_ipv4_address_without_a_proxy_too() -> None:
    assert client_address(scope(MAPPED_A), NONE) == "1.2.3.4"
    assert client_address(scope(MAPPED_B, "203.0.113.9"), NONE) == "5.6.7.8"
    assert client_address(scope("::1"), NONE) == "::1"
    assert rate_key(client_address(scope(MAPPED_A), NONE)) == "1.2.3.4"
    assert rate_key(client_address(scope(MAPPED_A), NONE)) != rate_key(
        client_address(scope(MAPPED_B), NONE)
    )


def test_addresses_are_grouped_by_the_configured_prefixes() -> None:
    assert rate_key("1.2.3.4", ipv4_prefix=24) == rate_key("1.2.3.5", ipv4_prefix=24)
    assert rate_key("1.2.3.4", ipv4_prefix=24) == "1.2.3.0/24"
    assert rate_key("1.2.4.4", ipv4_prefix=24) != rate_key("1.2.3.4", ipv4_prefix=24)
    assert rate_key("1.2.3.4") != rate_key("1.2.3.5")  # each address by default
    assert rate_key("2001:db8:1:2:3::1", ipv6_prefix=48) == rate_key(
        "2001:db8:1:ff::1", ipv6_prefix=48
    )
    assert rate_key("2001:db8:1:2::1", ipv6_prefix=128) != rate_key(
        "2001:db8:1:2::2", ipv6_prefix=128
    )
    assert rate_key("unknown", ipv4_prefix=24) == "unknown"


def test_the_groupings_are_settings_options_and_environment_variables() -> None:
    assert (DEFAULTS.ipv4_prefix, DEFAULTS.ipv6_prefix) == (32, 64)
    assert settings_from({"ipv4_prefix": "24"}, {}).ipv4_prefix == 24
    assert settings_from({}, {"SPIES_IPV6_PREFIX": "/56"}).ipv6_prefix == 56
    for given in ({"ipv4_prefix": "33"}, {"ipv4_prefix": "0"}, {"ipv6_prefix": "8"}):
        with pytest.raises(SettingsError):
            settings_from(given, {})
    with pytest.raises(ValueError):
        Settings(ipv4_prefix=64)
    assert cli_main(["--ipv4-prefix", "x"], environ={}) == 2


async def _statuses_of(app: Any, peer: str, requests: list[tuple[str, str, Any]]) -> list[int]:
    transport = httpx.ASGITransport(app=app, client=(peer, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://spies") as http:
        return [
            (await http.request(method, path, json=body)).status_code
            for method, path, body in requests
        ]


def test_two_dual_stack_peers_have_two_buckets_and_two_quotas(tmp_path: Path) -> None:
    settings = Settings(
        db_path=tmp_path / "mapped.db",
        rate_limit="3/minute",
        max_bot_games_per_client=1,
        bot_workers=0,
        log_json=True,
    )
    app = create_app(settings)
    create = [("POST", "/games", BOT_GAME)]
    # the first client: its bot game, then one too many (429 too-many-bot-games), then its
    # bucket is empty (the app's 429 drains it)
    assert asyncio.run(_statuses_of(app, MAPPED_A, create * 3)) == [201, 429, 429]
    # the second client has a full bucket and a free quota of its own
    assert asyncio.run(_statuses_of(app, MAPPED_B, create)) == [201]
    grouped = create_app(replace(settings, db_path=tmp_path / "grouped.db", ipv4_prefix=8))
    assert asyncio.run(_statuses_of(grouped, MAPPED_A, create)) == [201]
    assert asyncio.run(_statuses_of(grouped, "1.9.9.9", create)) == [429]  # one /8: one client


def test_over_a_real_dual_stack_server_two_ipv4_clients_are_two(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::", 0))
    except OSError:
        pytest.skip("no IPv6 on this machine")
    log = tmp_path / "dual.log"
    server = ServerProcess(
        tmp_path / "dual.db", log, "--host", "::", "--rate-limit", "3/minute"
    ).start()
    servers.append(server)
    # two IPv4 clients of the dual-stack socket, from two loopback addresses (127.0.0.1
    # asked whether the server was up)
    first = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    second = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"))
    with first, second:
        statuses = [first.get(f"{server.base}/games").status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        assert second.get(f"{server.base}/games").status_code == 200
