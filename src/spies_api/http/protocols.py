"""uvicorn's HTTP/1.1 protocols, with the request head bounded and the parser's own
refusals written as problem documents.

uvicorn reads a request's head (its request line and its headers) without any bound when it
parses with httptools, the package's parser, and answers a request it cannot parse with a
plain-text 400 without the security headers. :class:`BoundedHttpToolsProtocol` and
:class:`BoundedH11Protocol` (for a server without httptools, or that asks for h11) read at
most ``max_head_bytes`` of a head (uvicorn's ``h11_max_incomplete_event_size``, which h11
applies itself): past it the request is refused before the rest of its head is read, with
414 ``uri-too-long`` while its request line is still being read and 431
``headers-too-large`` after; a request the parser refuses (a malformed request line, header
or chunk) is 400 ``bad-request``. Each refusal is a problem document with the security
headers and ``Connection: close``, written as soon as the parser refuses, or, when the
connection is still answering an earlier request, once that answer is sent. Then the
connection's input is read and dropped for a moment (at most :data:`LINGER_SECONDS` and
:data:`LINGER_BYTES`) before it is closed: closing a connection with unread input resets it,
which can destroy the refusal on its way to a client still sending.

On a graceful shutdown uvicorn closes every connection that is not answering a request.
Here a connection whose request has not all arrived (one accepted from the listening
socket's backlog as the server stopped listening, or a kept-alive one midway through its
next request) is given ``timeout_keep_alive`` seconds for it; it is then served, and closed.

:func:`protocol_class` picks httptools when it is installed, else h11, as uvicorn's ``auto``
does.
"""

from __future__ import annotations

import asyncio
import http
from collections.abc import Callable
from typing import Any, Final

import msgspec
from litestar.exceptions import HTTPException
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.h11_impl import RequestResponseCycle as H11Cycle
from uvicorn.server import ServerState

from spies_api.http.edge import SECURITY_HEADERS
from spies_api.problems.table import PROBLEM_MEDIA_TYPE, problem_for
from spies_api.settings import DEFAULTS

try:  # httptools is a dependency, but has no wheels for every platform
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.protocols.http.httptools_impl import RequestResponseCycle as HttpToolsCycle
except ImportError:  # pragma: no cover
    HttpToolsProtocol = HttpToolsCycle = None  # type: ignore[assignment, misc]

__all__ = [
    "LINGER_BYTES",
    "LINGER_SECONDS",
    "BoundedH11Protocol",
    "BoundedHttpToolsProtocol",
    "protocol_class",
]

LINGER_SECONDS: Final = 2.0
LINGER_BYTES: Final = 1024 * 1024
"""After a refusal, how long and how much of the client's input is read and dropped before
the connection closes (so that the refusal reaches a client still sending)."""

STEP_BYTES: Final = 16 * 1024
"""httptools is fed at most this much at a time, and the head's size checked after each."""

REQUEST_LINE_SLACK: Final = 32
"""Bytes of a request line besides its target (a method, spaces, ``HTTP/1.1``): a head that
is all target but these is still in its request line."""

URI_TOO_LONG: Final = 414
HEADERS_TOO_LARGE: Final = 431
BAD_REQUEST: Final = 400

_DETAILS: Final = {
    URI_TOO_LONG: "the request line is longer than this server reads; send a shorter URL",
    HEADERS_TOO_LARGE: "the request's headers are larger than this server reads; send fewer"
    " or smaller headers (cookies included)",
    BAD_REQUEST: "the request is not well-formed HTTP/1.1 (its request line, a header or its"
    " chunked body)",
}


def refusal(status: int, default_headers: list[tuple[bytes, bytes]]) -> bytes:
    """The whole response of a refusal: a problem document from the one error table, with
    the security headers and ``Connection: close``."""
    _, problem, _ = problem_for(HTTPException(status_code=status, detail=_DETAILS[status]))
    body = msgspec.json.encode(problem)
    headers = [
        *default_headers,
        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SECURITY_HEADERS,
    ]
    phrase = http.HTTPStatus(status).phrase.encode()
    lines = [b"HTTP/1.1 %d %s\r\n" % (status, phrase)]
    lines.extend(name + b": " + value + b"\r\n" for name, value in headers)
    return b"".join([*lines, b"\r\n", body])


class _Linger:
    """A refused connection: its input read and dropped until the client closes, or
    :data:`LINGER_BYTES` or :data:`LINGER_SECONDS` have passed."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self.dropped = 0
        self.timer = loop.call_later(LINGER_SECONDS, self.close)

    def drop(self, data: bytes | memoryview) -> None:
        self.dropped += len(data)
        if self.dropped > LINGER_BYTES:
            self.close()

    def close(self) -> None:
        self.timer.cancel()
        if not self.transport.is_closing():
            self.transport.close()


def _refuse(
    transport: asyncio.Transport,
    loop: asyncio.AbstractEventLoop,
    status: int,
    default_headers: list[tuple[bytes, bytes]],
) -> _Linger:
    """Write the refusal, end the output after it, and linger on the input."""
    transport.write(refusal(status, default_headers))
    if transport.can_write_eof():
        transport.write_eof()
    transport.resume_reading()  # read what is still coming, and drop it
    return _Linger(transport, loop)


class _Refusing:
    """What both protocols add to uvicorn's: the bound, the refusal and its lingering, the
    wait for a request at shutdown. Mixed in before uvicorn's class."""

    config: Config
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    server_state: ServerState
    timeout_keep_alive: int
    timeout_keep_alive_task: asyncio.TimerHandle | None
    timeout_keep_alive_handler: Callable[[], None]
    _unset_keepalive_if_required: Callable[[], None]

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # uvicorn's, as uvicorn calls it
        super().__init__(*args, **kwargs)
        self.max_head_bytes = self.config.h11_max_incomplete_event_size or DEFAULTS.max_head_bytes
        self._linger: _Linger | None = None
        self._closing = False  # shut down while a request was awaited

    def _lingering(self, data: bytes | memoryview) -> bool:
        """Whether the connection was refused (and ``data`` is dropped)."""
        if self._linger is None:
            return False
        self._linger.drop(data)
        return True

    def _refuse(self, status: int) -> None:
        self._unset_keepalive_if_required()
        self._linger = _refuse(self.transport, self.loop, status, self.server_state.default_headers)

    def _await_request(self) -> None:
        """On a graceful shutdown, give a connection whose request has not all arrived (its
        first, or the next on a kept-alive connection) ``timeout_keep_alive`` seconds for it,
        rather than closing it at once; it is answered, then closed."""
        self._closing = True
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )


def _may_refuse(cycle: H11Cycle | HttpToolsCycle | None, transport: asyncio.Transport) -> bool:
    """Whether a refusal of the parser's can be written now. A request whose own body the
    parser refused ends: its app hears that the client is gone and nothing it sends is
    written; if its answer has begun, the connection is closed instead (no second answer
    after part of one)."""
    if cycle is None or cycle.response_complete:
        return True
    if cycle.response_started:
        transport.close()
        return False
    cycle.disconnected = True
    cycle.message_event.set()
    return True


if HttpToolsProtocol is not None:

    class BoundedHttpToolsProtocol(_Refusing, HttpToolsProtocol):
        """uvicorn's httptools protocol, its heads bounded and its refusals problems.

        The parser is fed at most :data:`STEP_BYTES` at a time; the bytes of the head being
        read are counted (exactly, but for a client that pipelines: then at most one step
        more), and past ``max_head_bytes`` the request is refused.
        """

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._head: int | None = 0  # bytes of the head being read; None in a body
            self._completed = self._pipelined = False
            self._pending: int | None = None  # a refusal waiting for an answer to end

        def data_received(self, data: bytes) -> None:
            if self._lingering(data) or self._pending is not None:  # refused, or to be
                return
            view = memoryview(data)
            while view:
                piece, view = view[:STEP_BYTES], view[STEP_BYTES:]
                self._completed = self._pipelined = False
                super().data_received(piece)  # type: ignore[arg-type]  # httptools reads views
                if self._lingering(view):  # the parser refused it
                    return
                if self.transport.is_closing():
                    return
                upgraded = self.transport.get_protocol()
                if upgraded is not self:  # the rest is the new protocol's
                    if view:
                        upgraded.data_received(bytes(view))  # type: ignore[attr-defined]
                    return
                if self._head is not None:
                    if self._completed:  # only a pipelined head can have begun after it
                        self._head = len(piece) if self._pipelined else 0
                    else:
                        self._head += len(piece)
                    if self._head > self.max_head_bytes:
                        self._over()
                        return

        def on_message_begin(self) -> None:
            self._pipelined = self._completed
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._head = None
            super().on_headers_complete()
            if self._closing and self.cycle is not None:
                self.cycle.keep_alive = False

        def on_message_complete(self) -> None:
            self._head = 0
            self._completed = True
            super().on_message_complete()

        def _over(self) -> None:
            """The head ran past the bound: refuse it now, or after the answer in flight."""
            target = len(getattr(self, "url", b""))  # set at a request's first byte
            head = self._head or 0
            in_request_line = not self.headers and head - target <= REQUEST_LINE_SLACK
            status = URI_TOO_LONG if in_request_line else HEADERS_TOO_LARGE
            if self.cycle is not None and not self.cycle.response_complete:
                self._pending = status  # written when that answer ends
                self.flow.pause_reading()
                return
            self._refuse(status)

        def send_400_response(self, msg: str) -> None:
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete and not cycle.more_body:
                self._pending = BAD_REQUEST  # junk after a whole request: after its answer
                self.flow.pause_reading()
            elif _may_refuse(cycle, self.transport):
                self._refuse(BAD_REQUEST)

        def on_response_complete(self) -> None:
            if self._pending is not None and not self.transport.is_closing():
                self.server_state.total_requests += 1
                self._refuse(self._pending)
                return
            super().on_response_complete()

        def shutdown(self) -> None:
            between = self.cycle is None or self.cycle.response_complete
            if between and self._linger is None and (self.cycle is None or self._head):
                self._await_request()
                return
            super().shutdown()

else:  # pragma: no cover
    BoundedHttpToolsProtocol = None  # type: ignore[assignment, misc]


class BoundedH11Protocol(_Refusing, H11Protocol):
    """uvicorn's h11 protocol, its refusals problems (h11 bounds the head itself, to
    ``h11_max_incomplete_event_size``)."""

    def data_received(self, data: bytes) -> None:
        if not self._lingering(data):
            super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self._closing and self.cycle is not None:
            self.cycle.keep_alive = False

    def send_400_response(self, msg: str) -> None:
        # h11 reads what follows a whole request only once it is answered
        if not _may_refuse(self.cycle, self.transport):
            return
        unread, _ = self.conn.trailing_data
        status = BAD_REQUEST
        if len(unread) > self.max_head_bytes:  # h11's "receive buffer too long"
            in_request_line = b"\n" not in unread[: self.max_head_bytes]
            status = URI_TOO_LONG if in_request_line else HEADERS_TOO_LARGE
        self._refuse(status)

    def shutdown(self) -> None:
        between = self.cycle is None or self.cycle.response_complete
        unread, _ = self.conn.trailing_data
        if between and self._linger is None and (self.cycle is None or unread):
            self._await_request()
            return
        super().shutdown()


def protocol_class(http_implementation: str = "auto") -> type[asyncio.Protocol]:
    """The bounded protocol for ``auto`` (httptools if installed, else h11), ``httptools``
    or ``h11``."""
    if http_implementation == "h11" or BoundedHttpToolsProtocol is None:
        return BoundedH11Protocol
    return BoundedHttpToolsProtocol
