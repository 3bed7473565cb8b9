"""What every request meets before the routes: who the client is, its rate, its path, and
the security headers of every response.

:class:`TrustedProxies` and :func:`client_address` give a request's client address: the
direct peer's, unless that peer is a reverse proxy the operator named
(``Settings.trusted_proxies``); then ``X-Forwarded-For`` is read from the right, and the
client is the rightmost address there that is not itself a trusted proxy. A client that
writes its own ``X-Forwarded-For`` changes nothing: its header is either ignored (it is not a
trusted proxy) or left of the address its proxy appended. No peer is trusted by default,
loopback included.

:class:`Edge` is the ASGI layer wrapped around the whole app (every response passes through
it, the router's 404s included). For each request it:

1. finds the client address once, keeps it and the key the limits count it by
   (:func:`rate_key`: its address, or its network when the operator groups addresses) in
   the scope (:func:`client_of`, :func:`rate_key_of`) and binds the address to the
   request's structured log lines as ``client``;
2. answers a path holding a null byte or another control character with 404 ``not-found``
   (a problem document) before anything tries to open a file by it;
3. takes one token from the client's bucket (:class:`RateLimiter`); static files, the web
   client's pages, the docs and the health and metrics paths (:data:`NOT_COUNTED`) take it
   from a second, more generous bucket of the client's, so that a flood of them is refused
   too. An empty bucket is 429 ``too-many-requests`` with ``Retry-After``. A 429 of the
   app's own (``too-many-bot-games``) empties the client's bucket: a client that asks
   again at once for what it was just refused is answered here, at no cost, until its
   bucket refills;
4. answers ``HEAD`` on a page (:data:`PAGES`) as the app answers ``GET``, without the body;
5. adds the security headers (:data:`SECURITY_HEADERS`) to whatever the app answers.

It is plain ASGI, with no request object built and no store access: the rate limit costs a
dictionary lookup and a little arithmetic per request.
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections.abc import Callable, Iterable
from typing import Any, Final, cast

import msgspec
import structlog
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from spies_api.problems.hints import NO_PATH
from spies_api.problems.table import problem_document
from spies_api.settings import DEFAULTS

__all__ = [
    "CLIENT_KEY",
    "CONTENT_SECURITY_POLICY",
    "NOT_COUNTED",
    "PAGES",
    "RATE_KEY",
    "SECURITY_HEADERS",
    "Edge",
    "RateLimiter",
    "TrustedProxies",
    "client_address",
    "client_of",
    "rate_key",
    "rate_key_of",
]

CLIENT_KEY: Final = "spies.client"
"""The key of the scope's ``state`` under which :class:`Edge` keeps the client address."""
RATE_KEY: Final = "spies.rate_key"
"""The key of the scope's ``state`` under which :class:`Edge` keeps the client's
:func:`rate_key`."""

IPV4_BITS: Final = 32
IPV4_VERSION: Final = 4

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
    address as IPv4: on a dual-stack socket every IPv4 peer arrives as one).
    """
    peer = scope.get("client")
    if not peer:
        return UNKNOWN_CLIENT
    host = str(peer[0])
    if not trusted and ":" not in host:  # an IPv4 peer is already in its normal form
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


def rate_key(
    client: str, *, ipv4_prefix: int = IPV4_BITS, ipv6_prefix: int = DEFAULTS.ipv6_prefix
) -> str:
    """What the rate limits and the bot-game quota count by: the client's network of
    ``ipv4_prefix`` bits (by default its address) or, for IPv6, of ``ipv6_prefix`` bits (by
    default its ``/64``: one host usually holds a whole ``/64``, so a client could otherwise
    rotate through billions of addresses). A client that is not an address (``unknown``)
    is counted by its name."""
    if ":" not in client and ipv4_prefix == IPV4_BITS:
        return client
    found = _address(client)
    if found is None:
        return client
    bits = ipv4_prefix if found.version == IPV4_VERSION else ipv6_prefix
    return str(ipaddress.ip_network((found, bits), strict=False))


def client_of(scope: Scope | dict[str, Any]) -> str:
    """The client address :class:`Edge` found for a request (``unknown`` without it)."""
    return str(scope.get("state", {}).get(CLIENT_KEY, UNKNOWN_CLIENT))


def rate_key_of(scope: Scope | dict[str, Any]) -> str:
    """The key :class:`Edge` counted a request by (:func:`rate_key` of its client, with the
    server's groupings), which the bot-game quota counts by too."""
    key = scope.get("state", {}).get(RATE_KEY)
    return str(key) if key is not None else rate_key(client_of(scope))


CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline';"
    " img-src 'self' data:;"
    " font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none';"
    " form-action 'self'; frame-ancestors 'none'"
)
"""What a page of the server may load: only the server's own scripts, style sheets, images
(and ``data:`` images: the favicon, Swagger UI's icons) and API, no inline script and no
inline ``<style>`` element, nothing from another host; no page may frame it. ``style``
attributes are allowed (``style-src-attr``: the web client sets a bar's width with one);
they cannot run script."""

SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""The headers of every response."""

PAGES: Final = re.compile(r"/(assets/|schema(/|$)|play/|join/|replay/|rules/|$)")
"""The web client's pages, its static files and the docs (matched from the start of the
path): what ``HEAD`` is answered on like ``GET`` without the body."""

NOT_COUNTED: Final = re.compile(
    r"/(assets/|schema(/|$)|play/|join/|replay/|rules/|healthz$|readyz$|metrics$|favicon\.ico$|$)"
)
"""The paths the rate limit does not count: static files, the web client's pages, the docs,
the health and metrics paths (matched from the start of the path). They have a bucket of
their own (``free_limiter``), so that no client floods them either."""

_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f]")
"""A character no path of the server holds (a null byte would reach ``open()``)."""


class RateLimiter:
    """A token bucket per client: ``burst`` requests at once, refilled at ``rate`` a second.

    Args:
        rate: tokens added per second.
        burst: the bucket's size (and its content when a client is first seen).
        max_clients: buckets kept at most; beyond it, the full ones (clients idle for long
            enough to be back at ``burst``) are forgotten, then the oldest half if need be.
        clock: seconds, monotonic.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        *,
        max_clients: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_clients = max_clients
        self.clock = clock
        self._buckets: dict[str, list[float]] = {}

    def take(self, key: str) -> float:
        """Take a token of ``key``'s bucket: ``0.0`` if there was one, else the seconds until
        there is."""
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_clients:
                self._prune(now)
            self._buckets[key] = [self.burst - 1.0, now]
            return 0.0
        tokens = bucket[0] + (now - bucket[1]) * self.rate
        if tokens > self.burst:
            tokens = self.burst
        bucket[1] = now
        if tokens >= 1.0:
            bucket[0] = tokens - 1.0
            return 0.0
        bucket[0] = tokens
        return (1.0 - tokens) / self.rate

    def drain(self, key: str) -> None:
        """Empty ``key``'s bucket and more: its next request waits as long as the bucket takes
        to fill (after a 429 of the app's own, so a client that keeps asking for what it was
        refused is held at the door, not served)."""
        self._buckets[key] = [1.0 - self.burst, self.clock()]

    def _prune(self, now: float) -> None:
        refill = self.burst / self.rate
        self._buckets = {
            key: bucket for key, bucket in self._buckets.items() if now - bucket[1] < refill
        }
        if len(self._buckets) >= self.max_clients:
            newest = sorted(self._buckets.items(), key=lambda item: item[1][1])
            self._buckets = dict(newest[len(newest) // 2 :])


def _problem_response(
    status: int, code: str, title: str, detail: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> tuple[dict[str, Any], dict[str, Any]]:
    body = msgspec.json.encode(problem_document(status, code, title, detail))
    start: dict[str, Any] = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
            *SECURITY_HEADERS,
        ],
    }
    end: dict[str, Any] = {"type": "http.response.body", "body": body}
    return start, end


TOO_MANY_REQUESTS_DETAIL: Final = (
    "too many requests from this client; retry after the Retry-After seconds"
)


class Edge:
    """The ASGI layer around the app: the client address of each request, in the scope
    (:func:`client_of`) and in its log lines (``client``); invalid paths; the rate limits;
    ``HEAD`` on pages; the security headers.

    Args:
        app: the app's own ASGI handler.
        trusted_proxies: see :class:`TrustedProxies`.
        limiter: the rate limit of the counted paths, or ``None`` for none.
        free_limiter: the rate limit of the paths ``limiter`` does not count
            (:data:`NOT_COUNTED`), or ``None`` for none.
        ipv4_prefix: the IPv4 network counted as one client (:func:`rate_key`).
        ipv6_prefix: the IPv6 network counted as one client.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        trusted_proxies: Iterable[str] = (),
        limiter: RateLimiter | None = None,
        free_limiter: RateLimiter | None = None,
        ipv4_prefix: int = IPV4_BITS,
        ipv6_prefix: int = DEFAULTS.ipv6_prefix,
    ) -> None:
        self.app = app
        self.trusted = TrustedProxies(trusted_proxies)
        self.limiter = limiter
        self.free_limiter = free_limiter
        self.ipv4_prefix = ipv4_prefix
        self.ipv6_prefix = ipv6_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in (ScopeType.HTTP, ScopeType.WEBSOCKET):
            await self.app(scope, receive, send)
            return
        client = client_address(scope, self.trusted)
        key = rate_key(client, ipv4_prefix=self.ipv4_prefix, ipv6_prefix=self.ipv6_prefix)
        state = scope.setdefault("state", {})
        state[CLIENT_KEY] = client
        state[RATE_KEY] = key
        tokens = structlog.contextvars.bind_contextvars(client=client)
        try:
            if scope["type"] == ScopeType.HTTP:
                refusal = self._refusal(scope, key)
                if refusal is not None:
                    for message in refusal:
                        await send(message)  # type: ignore[arg-type]
                    return
                head = scope.get("method") == "HEAD" and PAGES.match(scope["path"]) is not None
                if head:  # the page's GET, its headers as they are, no body
                    scope = cast("Scope", {**scope, "method": "GET"})
                await self.app(scope, receive, self._with_headers(send, key, head=head))
            else:
                await self.app(scope, receive, send)
        finally:
            structlog.contextvars.reset_contextvars(**tokens)

    def _with_headers(self, send: Send, key: str, *, head: bool) -> Send:
        limiter = self.limiter

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
                if message["status"] == 429 and limiter is not None:  # too-many-bot-games
                    limiter.drain(key)
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        return send_with_headers

    def _refusal(self, scope: Scope, key: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        path = scope["path"]
        if _CONTROL.search(path) is not None:
            return _problem_response(404, "not-found", "Not found", NO_PATH)
        limiter = self.free_limiter if NOT_COUNTED.match(path) is not None else self.limiter
        if limiter is None:
            return None
        wait = limiter.take(key)
        if wait == 0.0:
            return None
        retry = str(max(1, math.ceil(wait))).encode()
        return _problem_response(
            429,
            "too-many-requests",
            "Too many requests",
            TOO_MANY_REQUESTS_DETAIL,
            [(b"retry-after", retry)],
        )
