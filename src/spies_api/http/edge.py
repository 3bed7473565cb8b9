"""What every request meets before the routes: who the client is.

:class:`TrustedProxies` and :func:`client_address` give a request's client address: the
direct peer's, unless that peer is a reverse proxy the operator named
(``Settings.trusted_proxies``); then ``X-Forwarded-For`` is read from the right, and the
client is the rightmost address there that is not itself a trusted proxy. A client that
writes its own ``X-Forwarded-For`` changes nothing: its header is either ignored (it is not a
trusted proxy) or left of the address its proxy appended. No peer is trusted by default,
loopback included.

:class:`Edge` is the ASGI layer wrapped around the whole app (every response passes through
it, the router's 404s included): it finds the client address once, keeps it in the scope
(:func:`client_of`) and binds it to the request's structured log lines as ``client``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any, Final

import structlog
from litestar.types import ASGIApp, Receive, Scope, Send

__all__ = ["CLIENT_KEY", "Edge", "TrustedProxies", "client_address", "client_of"]

CLIENT_KEY: Final = "spies.client"
"""The key of the scope's ``state`` under which :class:`Edge` keeps the client address."""

UNKNOWN_CLIENT: Final = "unknown"
"""The client address of a request whose peer the server was not told (no ``client``)."""

_Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(text: str) -> _Address | None:
    """An IP address from a peer or an ``X-Forwarded-For`` item (``1.2.3.4``,
    ``1.2.3.4:5678``, ``::1``, ``[::1]:5678``), or ``None``."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class TrustedProxies:
    """The reverse proxies whose ``X-Forwarded-For`` is believed."""

    def __init__(self, networks: Iterable[str]) -> None:
        self.networks: tuple[_Network, ...] = tuple(
            ipaddress.ip_network(network, strict=False) for network in networks
        )

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, address: _Address | None) -> bool:
        """Whether ``address`` is one of the proxies."""
        return address is not None and any(address in network for network in self.networks)


def _forwarded_for(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
    """Every ``X-Forwarded-For`` item, in order (several headers are one list)."""
    items: list[str] = []
    for name, value in headers:
        if name == b"x-forwarded-for":
            items.extend(value.decode("latin-1").split(","))
    return items


def client_address(scope: Scope | dict[str, Any], trusted: TrustedProxies) -> str:
    """The client address of a request.

    The direct peer's address, unless that peer is a trusted proxy: then the rightmost
    ``X-Forwarded-For`` address that is not itself a trusted proxy (the first one a trusted
    proxy did not vouch for). An item that is not an IP address ends the walk at the proxy
    that passed it on. Every address is written in its normal form (an IPv4-mapped IPv6
    address as IPv4).
    """
    peer = scope.get("client")
    if not peer:
        return UNKNOWN_CLIENT
    host = str(peer[0])
    if not trusted:
        return host
    current = _address(host)
    if not trusted.trusts(current):
        return str(current) if current is not None else host
    for item in reversed(_forwarded_for(scope.get("headers", ()))):
        found = _address(item)
        if found is None:
            break
        current = found
        if not trusted.trusts(found):
            break
    return str(current)


def client_of(scope: Scope | dict[str, Any]) -> str:
    """The client address :class:`Edge` found for a request (``unknown`` without it)."""
    return str(scope.get("state", {}).get(CLIENT_KEY, UNKNOWN_CLIENT))


class Edge:
    """The ASGI layer around the app: the client address of each request, in the scope
    (:func:`client_of`) and in its log lines (``client``)."""

    def __init__(self, app: ASGIApp, *, trusted_proxies: Iterable[str] = ()) -> None:
        self.app = app
        self.trusted = TrustedProxies(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = client_address(scope, self.trusted)
        scope.setdefault("state", {})[CLIENT_KEY] = client
        tokens = structlog.contextvars.bind_contextvars(client=client)
        try:
            await self.app(scope, receive, send)
        finally:
            structlog.contextvars.reset_contextvars(**tokens)
