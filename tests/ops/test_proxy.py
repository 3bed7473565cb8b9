"""Behind a reverse proxy, for real: Debian's nginx running ``deploy/nginx/spies.conf`` in
front of two ``spies-api`` processes (A and B) on one PostgreSQL database.

nginx runs unprivileged (as ``nobody`` when the tests run as root), its configuration
rendered into a temporary directory with free loopback ports: the deploy file itself, its
upstream listing A and B, and twice more with an upstream of A alone and of B alone, so a
test can choose the process behind a request while still going through nginx. Each test
client connects from its own loopback address (127.0.0.2, 127.0.0.3, ...), which is the
"real client" address nginx appends to ``X-Forwarded-For``; nginx itself connects to the
processes from 127.0.0.1, their only trusted proxy (``--trusted-proxies 127.0.0.1``).

Skipped, with the reason, without ``nginx`` (``.ci/run`` installs Debian's) or without
``SPIES_TEST_POSTGRES_URL`` (``.ci/postgres.sh``).
"""

from __future__ import annotations

import json
import os
import pwd
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from spies_api.openapi.document import openapi_document
from tests.support import processes
from tests.support.servers import answers, free_port
from tests.support.waiting import until

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "spies.conf"
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
)
POSTGRES = os.environ.get("SPIES_TEST_POSTGRES_URL")
RATE = 300
"""Requests per minute per client address (and per process) the processes allow."""
TIMEOUT = 15.0
"""How long any one wait may take before the test fails (never a measurement)."""


def _needs_nginx_and_postgres() -> None:
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx, as .ci/run does)")
    if POSTGRES is None:
        pytest.skip("SPIES_TEST_POSTGRES_URL is not set (start one with .ci/postgres.sh start)")


# -- the configuration ---------------------------------------------------------------------


def render_site(name: str, ports: list[int], listen: int) -> str:
    """``deploy/nginx/spies.conf`` with its upstream named ``name`` listing ``ports``, and
    its server listening on ``127.0.0.1:listen``.

    Each substitution must find what it replaces, so a change to the deploy file that this
    test no longer understands fails here rather than testing something else.
    """
    text = SITE.read_text()
    servers = re.findall(r"^( *)server 127\.0\.0\.1:\d+( [^;]*)?;\n", text, flags=re.M)
    assert len(servers) >= 2, "the deploy file's upstream should list several processes"
    indent, options = servers[0]
    listing = "".join(f"{indent}server 127.0.0.1:{port}{options};\n" for port in ports)
    text, found = re.subn(
        r"(?:^ *server 127\.0\.0\.1:\d+(?: [^;]*)?;\n)+", listing, text, flags=re.M
    )
    assert found == 2, "two upstreams: any process, and the process of a game's stream tickets"
    assert text.count("spies_api_backend") >= 2
    assert text.count("spies_api_by_game") >= 2 and text.count("$spies_game") == 2
    text = text.replace("spies_api_backend", name).replace("spies_api_by_game", f"{name}_by_game")
    text = text.replace("$spies_game", f"${name}_game")
    text, found = re.subn(r"^( *)listen 80;$", rf"\1listen 127.0.0.1:{listen};", text, flags=re.M)
    assert found == 1, "the deploy file should have one `listen 80;`"
    return text


def main_config(work: Path, sites: list[Path]) -> str:
    """An nginx.conf for an unprivileged nginx with everything under ``work``."""
    temps = "\n".join(
        f"    {kind}_temp_path {work / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    includes = "\n".join(f"    include {site};" for site in sites)
    return f"""daemon off;
worker_processes 1;
pid {work / "nginx.pid"};
error_log {work / "error.log"} info;
events {{ worker_connections 1024; }}
http {{
    access_log {work / "access.log"};
{temps}
{includes}
}}
"""


def _block(text: str, head: str) -> str:
    """The body of the first ``head { ... }`` block of an nginx file (no nested blocks)."""
    start = text.index(head)
    return text[text.index("{", start) + 1 : text.index("}", start)]


def _seconds(value: str) -> float:
    units = {"s": 1, "m": 60, "h": 3600}
    return float(value[:-1]) * units[value[-1]] if value[-1] in units else float(value)


def test_the_deploy_file_keeps_streams_unbuffered_and_open_past_their_keep_alive() -> None:
    """What the live tests below cannot see (they pass on any timeout over their own
    length), read from the file itself."""
    text = SITE.read_text()
    upstream = _block(text, "upstream spies_api_backend")
    assert len(re.findall(r"^\s*server ", upstream, flags=re.M)) >= 2
    assert re.search(r"^\s*keepalive \d+;", upstream, flags=re.M)
    assert "proxy_http_version 1.1;" in text
    assert 'proxy_set_header Connection "";' in text
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in text
    stream = _block(text, "location ~ ^/games/[^/]+/events/stream$")
    assert "proxy_buffering off;" in stream
    assert "gzip off;" in stream
    timeout = re.search(r"proxy_read_timeout (\w+);", stream)
    assert timeout is not None
    # the longest keep-alive interval Settings allows (sse_keepalive_seconds <= 15)
    assert _seconds(timeout.group(1)) > 4 * 15
    everywhere = re.search(r"^    proxy_read_timeout (\w+);", text, flags=re.M)
    assert everywhere is not None and _seconds(everywhere.group(1)) > 15
    # the location is every streaming path of the API's document, and no other path
    pattern = re.search(r"location ~ (\S+) \{", text)
    assert pattern is not None
    paths = [path.replace("{game_id}", "k3j9x2") for path in openapi_document()["paths"]]
    matched = [path for path in paths if re.fullmatch(pattern.group(1), path)]
    assert matched == ["/games/k3j9x2/events/stream"], matched


# -- the processes -------------------------------------------------------------------------


@dataclass
class Deployment:
    """Where everything listens, and the processes' log files."""

    proxy: str
    """nginx, in front of A and B."""
    via_a: str
    """nginx, in front of A alone."""
    via_b: str
    """nginx, in front of B alone."""
    logs: list[Path] = field(default_factory=list)

    def log_lines(self) -> list[dict[str, Any]]:
        """Every JSON log line A and B have written so far."""
        lines = []
        for log in self.logs:
            for line in log.read_text().splitlines():
                if line.startswith("{"):
                    lines.append(json.loads(line))
        return lines


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    def up() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"{url} exited {process.returncode}:\n{log.read_text()}")
        return answers(url, "")

    until(up, timeout=60, what=lambda: f"{url} to answer:\n{log.read_text()}")


@pytest.fixture(scope="module")
def deployment() -> Iterator[Deployment]:
    _needs_nginx_and_postgres()
    assert NGINX is not None and POSTGRES is not None
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="spies-nginx-")))
        work.chmod(0o755)
        ports = [free_port(), free_port()]
        deployment = Deployment("", "", "")
        started: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        for index, port in enumerate(ports):
            log = work / f"api-{'ab'[index]}.log"
            deployment.logs.append(log)
            out = stack.enter_context(log.open("wb"))
            process = processes.start(
                [
                    sys.executable,
                    "-m",
                    "spies_api",
                    "--db",
                    POSTGRES,
                    "--port",
                    str(port),
                    "--rate-limit",
                    f"{RATE}/minute",
                    "--trusted-proxies",
                    "127.0.0.1",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            stack.callback(processes.end, process)
            started.append((f"http://127.0.0.1:{port}/games?limit=1", process, log))
        for url, process, log in started:  # both start at once
            _wait_for(url, process, log)
        listens = [free_port() for _ in range(3)]
        sites = []
        for name, upstream, listen in (
            ("spies_both", ports, listens[0]),
            ("spies_a", ports[:1], listens[1]),
            ("spies_b", ports[1:], listens[2]),
        ):
            site = work / f"{name}.conf"
            site.write_text(render_site(name, upstream, listen))
            sites.append(site)
        conf = work / "nginx.conf"
        conf.write_text(main_config(work, sites))
        command = [NGINX, "-p", str(work), "-e", str(work / "error.log"), "-c", str(conf)]
        if os.geteuid() == 0:  # nginx runs unprivileged: as nobody, owning its directory
            nobody = pwd.getpwnam("nobody")
            for path in [work, *work.iterdir()]:
                os.chown(path, nobody.pw_uid, nobody.pw_gid)
            command = ["runuser", "-u", "nobody", "--", *command]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr
        nginx = processes.start(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stack.callback(processes.end, nginx)
        deployment.proxy, deployment.via_a, deployment.via_b = (
            f"http://127.0.0.1:{port}" for port in listens
        )
        for url in (deployment.proxy, deployment.via_a, deployment.via_b):
            _wait_for(f"{url}/games?limit=1", nginx, work / "error.log")
        yield deployment


def client_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from the loopback ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=TIMEOUT)


# -- a game through the proxy --------------------------------------------------------------


def _play_one(client: httpx.Client, base: str, game: dict[str, Any], auth: dict[str, str]) -> Any:
    """One command of the seat to act (its first legal one), sent through ``base``."""
    legal = client.get(f"{base}/games/{game['id']}/legal", headers=auth)
    assert legal.status_code == 200, legal.text
    body = legal.json()
    answer = client.post(
        f"{base}/games/{game['id']}/commands",
        headers=auth,
        json={"command": body["commands"][0], "expected_version": body["version"]},
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_whole_game_through_the_proxy_on_both_processes(deployment: Deployment) -> None:
    with client_from("127.0.0.2") as client:
        created = client.post(
            f"{deployment.proxy}/games", json={"game": "deck-of-spies", "seed": "proxy-1"}
        )
        assert created.status_code == 201, created.text
        game = created.json()
        auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        status, commands = "active", 0
        while status == "active":
            assert commands < 500, "the game did not end"
            _play_one(client, deployment.proxy, game, auth)
            commands += 1
            status = client.get(f"{deployment.proxy}/games/{game['id']}").json()["status"]
        assert commands >= 2
        # each process, through its own nginx, has the very same log
        heads = {
            client.get(f"{base}/games/{game['id']}").json()["head_hash"]
            for base in (deployment.proxy, deployment.via_a, deployment.via_b)
        }
        assert len(heads) == 1


# -- a stream on A, commands through B -----------------------------------------------------


class StreamReader(threading.Thread):
    """Reads an event stream in a thread; each event's ``id`` is put on :attr:`arrived`."""

    def __init__(self, client: httpx.Client, url: str, auth: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.client, self.url, self.auth = client, url, auth
        self.arrived: queue.Queue[int | None] = queue.Queue()
        self.headers: httpx.Headers | None = None
        self.opened = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with self.client.stream("GET", self.url, headers=self.auth) as response:
                self.headers = response.headers
                self.opened.set()
                for line in response.iter_lines():
                    if line.startswith("id:"):
                        self.arrived.put(int(line[3:]))
        except BaseException as exc:  # reported by the test
            self.failure = exc
        finally:
            self.opened.set()
            self.arrived.put(None)

    def next_id(self) -> int | None:
        """The next event's id, ``None`` once the stream has ended."""
        try:
            return self.arrived.get(timeout=TIMEOUT)
        except queue.Empty:
            raise AssertionError(
                f"no event within {TIMEOUT} s: the proxy holds the stream back"
            ) from None


def test_a_stream_through_a_sees_each_command_through_b_as_it_happens(
    deployment: Deployment,
) -> None:
    with client_from("127.0.0.3") as client, client_from("127.0.0.3") as streaming:
        created = client.post(
            f"{deployment.via_b}/games", json={"game": "deck-of-spies", "seed": "proxy-2"}
        )
        assert created.status_code == 201, created.text
        game = created.json()
        auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        reader = StreamReader(
            streaming, f"{deployment.via_a}/games/{game['id']}/events/stream", auth
        )
        reader.start()
        assert reader.opened.wait(TIMEOUT), f"no answer to the stream within {TIMEOUT} s"
        assert reader.headers is not None, reader.failure
        assert reader.headers["content-type"].startswith("text/event-stream")
        seen = [reader.next_id() for _ in range(game["version"])]
        assert seen == list(range(1, game["version"] + 1))
        version, commands = game["version"], 0
        while True:
            answer = _play_one(client, deployment.via_b, game, auth)
            commands += 1
            # Every event of this command arrives on A's stream before the next command is
            # sent: a buffering proxy would hold them until the stream ends.
            while version < answer["version"]:
                got = reader.next_id()
                assert got == version + 1, (got, version)
                version = got
            if answer["status"] != "active":
                break
            assert commands < 500, "the game did not end"
        while (got := reader.next_id()) is not None:  # the final events, then the end
            assert got == version + 1
            version = got
        reader.join(TIMEOUT)
        assert reader.failure is None, reader.failure
        final = client.get(f"{deployment.proxy}/games/{game['id']}").json()
        assert version == final["version"] and final["status"] == "finished"


# -- the web client ------------------------------------------------------------------------


def test_the_web_client_plays_through_the_proxy_in_chromium(deployment: Deployment) -> None:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    from tests.web.helpers import (  # noqa: PLC0415
        ARGS,
        CHROMIUM,
        DESKTOP,
        Watched,
        click_a_move,
        create_in_lobby,
        version,
    )

    assert CHROMIUM.exists(), f"{CHROMIUM} is missing (apt-get install chromium)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(viewport=DESKTOP)
            context.set_default_timeout(TIMEOUT * 1000)
            watched = Watched(context, deployment.proxy)
            page = watched.page()
            game_id = create_in_lobby(page, deployment.proxy, "deck-of-spies", ["creator"])
            start = version(page)
            for _ in range(3):
                click_a_move(page)
            assert version(page) > start
            summary = httpx.get(f"{deployment.proxy}/games/{game_id}", timeout=TIMEOUT).json()
            assert summary["version"] == version(page)
            context.close()
        finally:
            browser.close()
    assert watched.foreign == [], watched.foreign
    assert watched.errors == [], watched.errors


# -- the client's address ------------------------------------------------------------------


def test_the_logs_and_the_rate_limit_see_the_real_client_not_the_proxy(
    deployment: Deployment,
) -> None:
    spoofed = {"X-Forwarded-For": "203.0.113.9"}  # what a client claims is never believed
    with client_from("127.0.0.4") as client:
        created = client.post(
            f"{deployment.proxy}/games",
            json={"game": "deck-of-spies", "seed": "proxy-4"},
            headers=spoofed,
        )
        assert created.status_code == 201, created.text
        game = created.json()
        auth = {"Authorization": f"Bearer {game['seats'][0]['token']}", **spoofed}
        for _ in range(2):
            _play_one(client, deployment.proxy, game, auth)

    def handled() -> list[dict[str, Any]]:
        lines = [
            line
            for line in deployment.log_lines()
            if line.get("event") == "command_handled" and line.get("game_id") == game["id"]
        ]
        return lines if len(lines) >= 2 else []

    lines = until(handled, timeout=TIMEOUT, what="a command_handled line per command")
    assert {line.get("client") for line in lines} == {"127.0.0.4"}

    # The rate limit counts each real client apart: one client through nginx runs out of
    # requests on process A, another client through the same nginx still has all of its own.
    limited, sent = None, 0
    with client_from("127.0.0.5") as greedy:
        while limited is None and sent < 3 * RATE:  # a fixed window: two windows at most
            answer = greedy.get(f"{deployment.via_a}/games", params={"limit": 1})
            if answer.status_code == 429:
                limited = answer
            else:
                assert answer.status_code == 200, answer.text
                sent += 1
    assert limited is not None, f"{3 * RATE} requests were never limited"
    assert sent >= RATE // 2, "limited long before the client's own allowance"
    assert limited.json()["code"] == "too-many-requests"
    assert int(limited.headers["Retry-After"]) >= 1
    with client_from("127.0.0.6") as other:
        assert other.get(f"{deployment.via_a}/games", params={"limit": 1}).status_code == 200
