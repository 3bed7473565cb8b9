"""The answers that are the same for every request, built once and served from memory.

The docs (``/schema``, its pages and ``/schema/openapi.json``), the lobby (``/``), the rules
pages (``/rules/{game}``) and the static files under ``/assets/`` answer every request with
the same bytes. :class:`CachedAnswers`, a middleware of the app, asks the app for such a path
once, keeps a 200 answer (its headers, its body and its body gzipped) and from then on
answers from memory: gzipped when the request's ``Accept-Encoding`` takes gzip (and gzip is
smaller), with ``Vary: Accept-Encoding`` and a strong ``ETag`` per variant, and 304 without a
body when ``If-None-Match`` names that tag. Any other answer (a 404, an error) is passed on
as the app gave it and not kept. What an answer needs that is slow to build (the OpenAPI
document: seconds of CPU) is built first on a worker thread (:class:`KeptAnswers`), so that
no other request waits for it. What is kept is bounded: :data:`MAX_ENTRIES` answers (every
path that answers 200 here is one of the package's files or pages, so a few dozen in all) of
at most :data:`MAX_BODY_BYTES` each.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

import anyio
from litestar.enums import ScopeType
from litestar.types import (
    ASGIApp,
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    Message,
    Receive,
    ReceiveMessage,
    Scope,
    Send,
)

__all__ = [
    "CACHED",
    "MAX_BODY_BYTES",
    "MAX_ENTRIES",
    "CachedAnswer",
    "CachedAnswers",
    "KeptAnswers",
    "accepts_gzip",
    "matches",
]

CACHED: Final = re.compile(r"/(assets/|schema(/|$)|rules/|$)")
"""The paths whose 200 answers are kept (matched from the start of the path)."""

HTTP_OK: Final = 200
HTTP_NOT_MODIFIED: Final = 304

MAX_ENTRIES: Final = 256
MAX_BODY_BYTES: Final = 8 * 1024 * 1024
"""Bounds on what is kept (the largest file the package serves is under 2 MiB)."""

_REPLACED: Final = frozenset({b"content-length", b"content-encoding", b"etag", b"vary"})
"""The app's headers that each variant writes itself."""
_NOT_MODIFIED_KEEPS: Final = frozenset({b"cache-control", b"expires", b"content-location"})
"""The headers a 304 repeats from its 200 (RFC 9110, 15.4.5), besides ``ETag`` and
``Vary``."""


@dataclass(frozen=True, slots=True)
class _Variant:
    """One encoding of an answer: its body, its tag and its whole header list."""

    body: bytes
    etag: bytes
    headers: tuple[tuple[bytes, bytes], ...]


@dataclass(frozen=True, slots=True)
class CachedAnswer:
    """A 200 answer kept in memory: as the app wrote it, and gzipped if that is smaller.

    Attributes:
        identity: the body as the app wrote it.
        gzipped: the body gzipped, or ``None`` when gzip would not make it smaller.
    """

    identity: _Variant
    gzipped: _Variant | None

    @classmethod
    def of(cls, headers: Iterable[tuple[bytes, bytes]], body: bytes) -> CachedAnswer:
        """The answer of ``headers`` and ``body``, gzipped once (deterministically, with no
        time in the gzip header, so every process serves the same bytes and tags)."""
        kept = tuple((name, value) for name, value in headers if name.lower() not in _REPLACED)
        tag = hashlib.sha256(body).hexdigest()[:24]
        squeezed = gzip.compress(body, compresslevel=9, mtime=0)
        return cls(
            identity=_variant(kept, body, f'"{tag}"'.encode(), None),
            gzipped=(
                _variant(kept, squeezed, f'"{tag}-gzip"'.encode(), b"gzip")
                if len(squeezed) < len(body)
                else None
            ),
        )

    def variant(self, accept_encoding: bytes) -> _Variant:
        """The variant for a request's ``Accept-Encoding``."""
        if self.gzipped is not None and accepts_gzip(accept_encoding):
            return self.gzipped
        return self.identity


def _variant(
    kept: tuple[tuple[bytes, bytes], ...], body: bytes, etag: bytes, encoding: bytes | None
) -> _Variant:
    headers = [
        *kept,
        (b"content-length", str(len(body)).encode()),
        (b"etag", etag),
        (b"vary", b"accept-encoding"),
    ]
    if encoding is not None:
        headers.append((b"content-encoding", encoding))
    return _Variant(body, etag, tuple(headers))


def _weight(params: bytes) -> float:
    """The ``q`` of an ``Accept-Encoding`` item's parameters (1 without one; 0 if it does
    not parse)."""
    for param in params.split(b";"):
        name, _, value = param.partition(b"=")
        if name.strip().lower() == b"q":
            try:
                return float(value.strip())
            except ValueError:
                return 0.0
    return 1.0


def accepts_gzip(accept_encoding: bytes) -> bool:
    """Whether an ``Accept-Encoding`` value takes gzip (RFC 9110, 12.5.3): ``gzip`` (or
    ``x-gzip``) with a weight above 0, or ``*`` with a weight above 0 and gzip not refused
    by name."""
    named: bool | None = None
    anything = False
    for item in accept_encoding.split(b","):
        coding, _, params = item.partition(b";")
        coding = coding.strip().lower()
        if coding in (b"gzip", b"x-gzip"):
            named = (named or False) or _weight(params) > 0
        elif coding == b"*":
            anything = _weight(params) > 0
    return named if named is not None else anything


def matches(if_none_match: bytes, etag: bytes) -> bool:
    """Whether an ``If-None-Match`` value names ``etag`` (weak comparison, as RFC 9110,
    13.1.2 asks, or ``*``)."""
    if if_none_match.strip() == b"*":
        return True
    return any(tag.strip().removeprefix(b"W/") == etag for tag in if_none_match.split(b",") if tag)


def _header(scope: Scope, name: bytes) -> bytes:
    """Every value of the request header ``name``, joined by commas (one list)."""
    return b",".join(value for key, value in scope.get("headers", ()) if key == name)


class KeptAnswers:
    """The answers kept for one app, by path, and the paths being asked for now (Litestar
    builds a middleware for each route: one of these for the app keeps one bound).

    Args:
        prepare: called with a path, on a worker thread, before the app is first asked for
            it: what the answer needs that is slow to build (the OpenAPI document takes
            seconds), built off the event loop so that no other request waits for it.
    """

    def __init__(self, prepare: Callable[[str], object] | None = None) -> None:
        self.answers: dict[str, CachedAnswer] = {}
        self.asking: dict[str, asyncio.Event] = {}
        self.prepare = prepare


class CachedAnswers:
    """ASGI middleware: ``GET`` of a :data:`CACHED` path answered from memory after the
    first 200.

    Args:
        app: the next ASGI app.
        kept: the app's kept answers.
    """

    def __init__(self, app: ASGIApp, kept: KeptAnswers) -> None:
        self.app = app
        self.kept = kept

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != ScopeType.HTTP
            or scope["method"] != "GET"
            or CACHED.match(scope["path"]) is None
        ):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        asking = self.kept.asking.get(path)
        if asking is not None:  # the first request of the path is being answered: its answer
            await asking.wait()
        answer = self.kept.answers.get(path)
        if answer is None:
            answer = await self._ask(scope, receive, send)
            if answer is None:
                return
        variant = answer.variant(_header(scope, b"accept-encoding"))
        status, headers, body = HTTP_OK, list(variant.headers), variant.body
        if matches(_header(scope, b"if-none-match"), variant.etag):
            status, body = HTTP_NOT_MODIFIED, b""
            headers = [
                (name, value)
                for name, value in headers
                if name in _NOT_MODIFIED_KEEPS or name in (b"etag", b"vary")
            ]
        start: HTTPResponseStartEvent = {
            "type": "http.response.start",
            "status": status,
            "headers": headers,
        }
        end: HTTPResponseBodyEvent = {
            "type": "http.response.body",
            "body": body,
            "more_body": False,
        }
        await send(start)
        await send(end)

    async def _ask(self, scope: Scope, receive: Receive, send: Send) -> CachedAnswer | None:
        """The app's answer for the path, kept if it can be; else passed on (``None``)."""
        path = scope["path"]
        messages: list[Message] = []
        answered = asyncio.Event()
        requested = False

        async def keep(message: Message) -> None:
            messages.append(message)
            if message["type"] != "http.response.start" and not message.get("more_body", False):
                answered.set()

        async def until_answered() -> ReceiveMessage:
            # A streamed answer (a large file) listens for the client's disconnect until it
            # is sent; held here, it is sent when it ends, so the app hears "disconnect" then.
            nonlocal requested
            if not requested:
                requested = True
                return await receive()
            await answered.wait()
            return {"type": "http.disconnect"}

        self.kept.asking[path] = asking = asyncio.Event()
        try:
            if self.kept.prepare is not None:
                await anyio.to_thread.run_sync(self.kept.prepare, path)
            await self.app(scope, until_answered, keep)
            # gzip at its best once, off the event loop (a large file takes tens of ms)
            answer = await anyio.to_thread.run_sync(_cacheable, messages)
            if answer is not None and len(self.kept.answers) < MAX_ENTRIES:
                self.kept.answers[path] = answer
        finally:
            del self.kept.asking[path]
            asking.set()
        if answer is None:
            for message in messages:
                await send(message)
        return answer


def _cacheable(messages: list[Message]) -> CachedAnswer | None:
    """The answer ``messages`` make, if it is a whole 200 in plain start and body messages,
    not already encoded, of at most :data:`MAX_BODY_BYTES`."""
    if not messages or messages[0]["type"] != "http.response.start":
        return None
    start: Any = messages[0]
    headers = [(bytes(name).lower(), bytes(value)) for name, value in start.get("headers", ())]
    if start["status"] != HTTP_OK or any(name == b"content-encoding" for name, _ in headers):
        return None
    chunks: list[bytes] = []
    for message in messages[1:]:
        if message["type"] != "http.response.body":
            return None
        chunks.append(bytes(message.get("body", b"")))
    body = b"".join(chunks)
    if len(body) > MAX_BODY_BYTES or messages[-1].get("more_body", False):
        return None
    return CachedAnswer.of(headers, body)
