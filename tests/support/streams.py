"""Many event streams held open over raw sockets, read by one thread.

A thread and an HTTP client per stream would make a test with a hundred streams slow and
its timing noisy; here each stream is one socket, its request written at once, its response
head read, and then one thread reads every socket as data arrives (so that keep-alives
never fill the server's buffers), undoing the chunked encoding and keeping each stream's
text.
"""

from __future__ import annotations

import contextlib
import re
import selectors
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from spies_api import Settings
from spies_api.app import Runtime

from .servers import serve_in_thread
from .waiting import until

__all__ = ["RawStream", "RawStreams", "StreamingServer", "streaming_server"]

_ID = re.compile(r"^id: (\d+)$", re.MULTILINE)


@dataclass
class RawStream:
    """One stream's response: its status, headers and the text of its body so far."""

    sock: socket.socket
    status: int
    headers: dict[str, str]
    raw: bytearray = field(default_factory=bytearray)
    body: bytearray = field(default_factory=bytearray)
    ended: bool = False
    """The response is complete (its last chunk), or the server closed the connection."""

    @property
    def text(self) -> str:
        return self.body.decode()

    def ids(self) -> list[int]:
        """The ``id`` of every event received so far."""
        return [int(found) for found in _ID.findall(self.text.replace("\r\n", "\n"))]

    def keepalives(self) -> int:
        """How many ``: keep-alive`` comments arrived so far."""
        return self.text.count(": keep-alive")

    def _dechunk(self) -> None:
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(bytes(self.raw[:line_end]).split(b";")[0], 16)
            if size == 0:
                self.ended = True
                del self.raw[:]
                return
            if len(self.raw) < line_end + 2 + size + 2:
                return
            self.body += self.raw[line_end + 2 : line_end + 2 + size]
            del self.raw[: line_end + 2 + size + 2]


class RawStreams:
    """Event streams opened on a server, each over its own socket.

    Args:
        base: the server, ``http://host:port``.
    """

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.streams: list[RawStream] = []
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._registered = threading.Event()
        self._reader = threading.Thread(target=self._read, name="raw-streams", daemon=True)
        self._reader.start()

    def open(self, path: str, headers: dict[str, str] | None = None) -> RawStream:
        """Send ``GET path`` and read the response head; a 200 stays open and is read on."""
        sock = socket.create_connection(self.address, timeout=30)
        lines = [f"GET {path} HTTP/1.1", f"host: {self.address[0]}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            data = sock.recv(65536)
            assert data, f"the server closed the connection of {path} before answering"
            head += data
        head_bytes, _, rest = head.partition(b"\r\n\r\n")
        status_line, *header_lines = head_bytes.decode("latin-1").split("\r\n")
        found = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in header_lines)
        }
        stream = RawStream(sock=sock, status=int(status_line.split()[1]), headers=found)
        if stream.status != 200:
            length = int(found.get("content-length", "0"))
            while len(rest) < length:
                data = sock.recv(65536)
                if not data:
                    break
                rest += data
            stream.body += rest
            stream.ended = True
            sock.close()
            return stream
        stream.raw += rest
        stream._dechunk()
        sock.setblocking(False)
        with self._lock:
            self.streams.append(stream)
            self._selector.register(sock, selectors.EVENT_READ, stream)
        self._registered.set()
        return stream

    def _read(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                empty = not self._selector.get_map()
            if empty:  # until a stream is opened (or the reader is stopped)
                self._registered.wait()
                self._registered.clear()
                continue
            for key, _ in self._selector.select(timeout=0.05):
                stream: RawStream = key.data
                try:
                    data = stream.sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                with self._lock:
                    if not data:
                        stream.ended = True
                        self._forget(stream)
                        continue
                    stream.raw += data
                    stream._dechunk()
                    if stream.ended:
                        self._forget(stream)

    def _forget(self, stream: RawStream) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(stream.sock)
        stream.sock.close()

    def close(self, stream: RawStream) -> None:
        """Close one stream's connection (the client leaves)."""
        with self._lock:
            if not stream.ended:
                stream.ended = True
                self._forget(stream)

    def wait(self, condition: Callable[[], bool], timeout: float = 20.0) -> None:
        """Wait until ``condition()`` is true (checked under the reader's lock)."""

        def holds() -> bool:
            with self._lock:
                return condition()

        until(holds, timeout=timeout, what="the streams' condition")

    def __enter__(self) -> RawStreams:
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            for stream in self.streams:
                if not stream.ended:
                    stream.ended = True
                    self._forget(stream)
        self._stop.set()
        self._registered.set()
        self._reader.join(timeout=5)
        self._selector.close()


@dataclass(frozen=True)
class StreamingServer:
    """A server in a thread, with raw streams on it and an HTTP client for the rest."""

    runtime: Runtime
    raw: RawStreams
    http: httpx.Client


@contextmanager
def streaming_server(settings: Settings) -> Iterator[StreamingServer]:
    """Serve ``settings`` in a thread; yield the parts it serves, raw streams and a client
    of it."""
    with (
        serve_in_thread(settings) as (base, runtime),
        RawStreams(base) as raw,
        httpx.Client(base_url=base, timeout=30.0) as http,
    ):
        yield StreamingServer(runtime, raw, http)
