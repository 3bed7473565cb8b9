"""Request heads are bounded, whichever HTTP parser serves, and every refusal of the
parser's is a problem document with the security headers.

Attack, before: with uvicorn on httptools (what the package installs) a request with 64 MiB
of headers was read whole and answered 200; three at once took the process to 2.9 GiB, never
given back, and held every other request for 13 s; a 32 MiB query string held ``/healthz``
for 2 s. A request the parser could not read got uvicorn's plain-text 400, without the
security headers. ``bench/big_heads.py`` measures the process's memory under the attack.
"""

from __future__ import annotations

import select
import socket
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from spies_api import Settings
from spies_api.cli import _parser
from spies_api.http.edge import SECURITY_HEADERS
from spies_api.http.protocols import BoundedH11Protocol, BoundedHttpToolsProtocol, protocol_class
from spies_api.settings import DEFAULTS, SettingsError, settings_from
from tests.support.servers import ServerProcess, read_until_closed, serve_in_thread

from .figures import record

GUARANTEE = "limits"
KIB = 1024
MIB = 1024 * KIB
HUGE = 64 * MIB
PARSERS = ["httptools", "h11"]


@pytest.fixture(scope="module", params=PARSERS)
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """``host:port`` of a server with ``spies-api``'s uvicorn configuration and 8 KiB heads."""
    settings = Settings(
        db_path=tmp_path_factory.mktemp("heads") / "heads.db",
        max_head_bytes=8 * KIB,
        rate_limit=None,
        free_paths_rate_limit=None,
        bot_workers=0,
        log_json=True,
    )
    with serve_in_thread(settings, http=request.param) as (base, _):
        yield base.removeprefix("http://")


def connect(address: str) -> socket.socket:
    host, _, port = address.rpartition(":")
    return socket.create_connection((host, int(port)), timeout=30)


def answer(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """The status, headers (lower-case names) and body of the first answer in ``raw``."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", len(body)))
    return int(lines[0].split()[1]), headers, body[:length]


def assert_refusal(raw: bytes, status: int, code: str) -> None:
    got, headers, body = answer(raw)
    assert got == status, raw[:300]
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    for name, value in SECURITY_HEADERS:
        assert headers[name.decode()] == value.decode(), name
    problem = msgspec.json.decode(body)
    assert problem["status"] == status and problem["code"] == code
    assert problem["type"] == f"urn:spies:problem:{code}" and problem["detail"]


def send_until_answered(sock: socket.socket, start: bytes, filler: bytes, total: int) -> int:
    """Send ``start``, then ``filler`` over and over up to ``total`` bytes, until the server
    answers (or stops reading); the bytes sent."""
    sock.sendall(start)
    sent = len(start)
    while sent < total:
        readable, writable, _ = select.select([sock], [sock], [], 30)
        if readable:
            break
        if writable:
            try:
                sent += sock.send(filler)
            except OSError:  # reset or broken pipe: the server is done with it
                break
    return sent


@pytest.mark.parametrize(
    ("start", "filler", "status", "code"),
    [
        (b"GET /games HTTP/1.1\r\nHost: spies\r\nX-Big: ", b"a" * 65536, 431, "headers-too-large"),
        (
            b"GET /games HTTP/1.1\r\nHost: spies\r\n",
            b"X-Many: header\r\n" * 4096,
            431,
            "headers-too-large",
        ),
        (b"GET /healthz?q=", b"a" * 65536, 414, "uri-too-long"),
    ],
    ids=["one-huge-header", "many-headers", "huge-query"],
)
def test_an_oversized_head_is_refused_before_the_client_has_sent_it(
    served: str, start: bytes, filler: bytes, status: int, code: str, request: pytest.FixtureRequest
) -> None:
    with connect(served) as sock:
        sent = send_until_answered(sock, start, filler, HUGE)
        raw = read_until_closed(sock)
    assert_refusal(raw, status, code)
    assert sent < HUGE  # before: all 64 MiB were read (and answered 200)
    record(
        GUARANTEE,
        f"test_request_heads.py::{request.node.name}",
        oversized_heads_refused=1,
        head_bytes_sent_by_them=sent,
    )


def test_a_head_under_the_bound_is_served_and_the_connection_kept(served: str) -> None:
    with connect(served) as sock:
        for _ in range(2):  # twice on one connection: the count starts again at each request
            sock.sendall(
                b"GET /healthz HTTP/1.1\r\nHost: spies\r\nX-Fill: " + b"b" * 7000 + b"\r\n\r\n"
            )
            raw = b""
            while b'"ok"' not in raw:
                chunk = sock.recv(65536)
                assert chunk, raw
                raw += chunk
            status, headers, _ = answer(raw)
            assert status == 200 and headers.get("connection") != "close"


def test_after_an_answer_on_a_kept_connection_an_oversized_head_is_refused(served: str) -> None:
    with connect(served) as sock:
        request = b"GET /healthz HTTP/1.1\r\nHost: spies\r\n\r\n"
        oversized = b"GET /healthz HTTP/1.1\r\nHost: spies\r\nX-Big: " + b"c" * (64 * KIB)
        sock.sendall(request + oversized)  # pipelined: the second before the first's answer
        raw = read_until_closed(sock)
    first, _, rest = raw.partition(b"\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 200")
    second = raw[raw.index(b"HTTP/1.1 431") :]
    assert_refusal(second, 431, "headers-too-large")


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET / HTTP/1.1\r\nHost spies\r\n\r\n",  # a header without a colon
        b"\x00\x01\x02 junk\r\n\r\n",  # not a request line
        b"GET / HTTP/1.1\r\nHost: spies\r\nContent-Length: x\r\n\r\n",
        b"POST /games HTTP/1.1\r\nHost: spies\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ],
    ids=["header-without-colon", "junk", "bad-content-length", "bad-chunk"],
)
def test_what_the_parser_refuses_is_a_problem_with_the_security_headers(
    served: str, request_bytes: bytes
) -> None:
    with connect(served) as sock:
        sock.sendall(request_bytes)
        raw = read_until_closed(sock)
    assert_refusal(raw, 400, "bad-request")  # before: text/plain, no security headers


def test_junk_after_a_whole_request_is_refused_after_its_answer(served: str) -> None:
    with connect(served) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: spies\r\n\r\n\x00\x01 junk\r\n\r\n")
        raw = read_until_closed(sock)
    assert raw.startswith(b"HTTP/1.1 200")  # the answers in order, none in the other
    assert_refusal(raw[raw.index(b"HTTP/1.1 400") :], 400, "bad-request")


def test_the_bound_is_a_setting_an_option_and_an_environment_variable() -> None:
    assert DEFAULTS.max_head_bytes == 32 * KIB
    assert _parser().parse_args([]).max_head_bytes is None
    assert settings_from({"max_head_bytes": "16384"}, {}).max_head_bytes == 16384
    assert settings_from({}, {"SPIES_MAX_HEAD_BYTES": "65536"}).max_head_bytes == 65536
    for wrong in ("0", "512", "2000000", "32k"):
        with pytest.raises(SettingsError, match="--max-head-bytes"):
            settings_from({"max_head_bytes": wrong}, {})
    assert protocol_class() is BoundedHttpToolsProtocol
    assert protocol_class("h11") is BoundedH11Protocol


def test_a_real_spies_api_bounds_heads_by_default(tmp_path: Path, servers: list) -> None:  # type: ignore[type-arg]

    server = ServerProcess(tmp_path / "real.db", tmp_path / "real.log").start()
    servers.append(server)
    with connect(f"127.0.0.1:{server.port}") as sock:
        start = b"GET /games HTTP/1.1\r\nHost: spies\r\nCookie: "
        sent = send_until_answered(sock, start, b"d" * 65536, HUGE)
        raw = read_until_closed(sock)
    assert_refusal(raw, 431, "headers-too-large")
    assert sent < HUGE
