"""What the README and docs/ say, tried: the settings they list and the commands they show.

- every ``spies-api`` option is a row of the settings table of docs/operations.md, with its
  environment variable;
- every shell block of the README and docs/ is either run here or marked as not runnable
  (its fence says ``console norun`` or ``sh norun``), so no command is shown untried.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from spies_api.settings import OPTIONS
from tests.support import processes
from tests.support.servers import free_port, wait_until_up

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
OPERATIONS = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")


def _settings_rows() -> dict[str, str]:
    """The settings table of docs/operations.md: each row's flag to its variable."""
    rows = {}
    for flag, env in re.findall(r"^\| `(--[^` ]+)[^`]*` \| `(SPIES_\w+)` \|", OPERATIONS, re.M):
        rows[flag.replace("[no-]", "")] = env
    return rows


def test_every_option_is_in_the_settings_table_of_operations_md() -> None:
    rows = _settings_rows()
    missing = [o.flag for o in OPTIONS if rows.get(o.flag) != o.env]
    assert missing == [], f"not in docs/operations.md's settings table: {missing}"


# -- the commands the docs show --------------------------------------------------------------

SHELLS = ("console", "sh", "shell", "bash")
"""Fence languages of command blocks: ``console`` shows ``$ `` commands and their output,
the others a script."""

NOT_RUN = re.compile(r'title="not run here: [^"]+"')
"""How a page marks a command block this test does not run, saying why in the block's title
(the site shows it above the block)."""

RUN_PAGES = ("README.md", "docs/http.md", "docs/bots.md", "docs/auditing.md")
"""The pages whose command blocks are run, in order, against one server. Every other page's
command blocks must be marked ``not run here`` with the reason."""

DOC_PORT = "8000"
"""The port the docs' commands talk to (the server's default); the test's server has its
own, put in its place."""


STREAM_SECONDS = 3
"""How long a ``curl -N`` of an event stream is read before the next command."""


@dataclass(frozen=True)
class Command:
    """A ``$ `` command of a console block (continuation lines joined) and the output shown
    after it."""

    text: str
    shown: tuple[str, ...]


@dataclass(frozen=True)
class Block:
    """A fenced command block of a page."""

    page: str
    line: int
    info: str
    body: tuple[str, ...]

    @property
    def runnable(self) -> bool:
        """Whether the page lets this test run it (no ``not run here`` title)."""
        return NOT_RUN.search(self.info) is None

    def commands(self) -> list[Command]:
        """The block's commands: each ``$ `` line of a console block (with the lines its
        trailing backslashes continue) and its shown output; a script block is one."""
        if not self.info.startswith("console"):
            return [Command("\n".join(self.body), ())]
        found: list[Command] = []
        lines = list(self.body)
        while lines:
            line = lines.pop(0)
            if not line.startswith("$ "):
                continue
            text = [line[2:]]
            while text[-1].rstrip().endswith("\\") and lines:
                text.append(lines.pop(0))
            shown = []
            while lines and not lines[0].startswith("$ "):
                shown.append(lines.pop(0))
            found.append(Command("\n".join(text), tuple(shown)))
        return found


def blocks(page: str) -> list[Block]:
    """The command blocks of a page (README.md, or a file under docs/)."""
    found = []
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    number = 0
    while number < len(lines):
        fence = re.match(r"^```(\S*)\s*(.*)$", lines[number])
        number += 1
        if fence is None:
            continue
        start, body = number, []
        while number < len(lines) and lines[number] != "```":
            body.append(lines[number])
            number += 1
        number += 1
        if fence.group(1) in SHELLS:
            info = f"{fence.group(1)} {fence.group(2)}".strip()
            found.append(Block(page, start, info, tuple(body)))
    return found


def doc_pages() -> list[str]:
    """README.md and every page of docs/ (not the rules' reference: it has no commands)."""
    pages = ["README.md"]
    pages += sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))
    return pages


def test_every_command_block_is_run_or_marked_with_why_not() -> None:
    unmarked = [
        f"{block.page}:{block.line}"
        for page in doc_pages()
        if page not in RUN_PAGES
        for block in blocks(page)
        if block.runnable
    ]
    assert unmarked == [], (
        "command blocks neither run by this test nor marked "
        f'```sh title="not run here: WHY"```: {unmarked}'
    )
    assert all(blocks(page) for page in RUN_PAGES)


def test_the_readmes_two_commands_each_stand_alone_on_one_venv() -> None:
    """Pasted one after the other, the quick start's lines still all run: the server starts in
    the foreground (Ctrl+C ends it), so it is the last command of its own block, never
    followed by the tests; and both lines build and use the same ``.venv``."""
    quick = [block for block in blocks("README.md") if block.line < _line_of("## A first game ")]
    assert len(quick) == 2 and all(len(block.body) == 1 for block in quick)
    serve, test = (block.body[0] for block in quick)
    assert serve.endswith("&& spies-api") and serve.count("spies-api") == 1
    assert "pytest" not in serve and "spies-api" not in test and "pytest" in test
    venv = "python3 -m venv .venv && . .venv/bin/activate && pip install "
    assert serve.startswith(venv) and test.startswith(venv)


def _line_of(heading: str) -> int:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.startswith(heading))


@pytest.fixture(scope="module")
def doc_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    """``spies-api`` started as the README says, with every default (the rate limit on), in
    a directory of its own (its ``spies.db`` there): the directory and the port."""
    place = tmp_path_factory.mktemp("docs-as-tried")
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SPIES_")}
    process = processes.start(
        [str(BIN / "spies-api"), "--port", str(port)],
        cwd=place,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=clean,
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}")
        yield place, port
    finally:
        processes.end(process)


def _same_shape(shown: object, real: object) -> bool:
    """Whether an answer has the shape the page shows: the same keys in every object, as
    deep as the page shows them (values differ from run to run)."""
    if isinstance(shown, dict):
        return (
            isinstance(real, dict)
            and set(shown) == set(real)
            and all(_same_shape(shown[k], real[k]) for k in shown)
        )
    if isinstance(shown, list) and shown and isinstance(real, list) and real:
        return _same_shape(shown[0], real[0])
    return True


def _json(line: str) -> object | None:
    try:
        value: object = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_commands_of_the_page_do_what_it_shows(doc_server: tuple[Path, int], page: str) -> None:
    """Each command of the page's blocks, in order, in one shell (a variable set by one is
    there for the next), against the server: it succeeds, prints something where the page
    shows output, and each JSON line it prints has the keys of the line the page shows."""
    place, port = doc_server
    commands = [c for block in blocks(page) if block.runnable for c in block.commands()]
    out = place / page.replace("/", "-")
    out.mkdir()
    script = ["set -o pipefail"]
    for index, command in enumerate(commands):
        text = re.sub(rf"(localhost|127\.0\.0\.1):{DOC_PORT}\b", rf"\1:{port}", command.text)
        # a live stream stays open: read it for a while (curl's status 28, its time is up)
        text = text.replace("curl -s -N ", f"curl -s -N --max-time {STREAM_SECONDS} ")
        script.append(f"{{ {text}\n}} > {out}/{index} 2>&1; echo $? > {out}/{index}.status")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPIES_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    subprocess.run(["bash", "-c", "\n".join(script)], cwd=place, env=env, timeout=300, check=False)
    for index, command in enumerate(commands):
        printed = (out / str(index)).read_text()
        status = (out / f"{index}.status").read_text().strip()
        where = f"{page}: $ {command.text}\n{printed}"
        assert status == "0" or (status == "28" and " -N " in command.text), where
        if any(line.strip() and not line.startswith("...") for line in command.shown):
            assert printed.strip(), where
        real_lines = [value for line in printed.splitlines() if (value := _json(line))]
        for line in command.shown:
            shown = _json(line)
            if shown is not None:
                assert any(_same_shape(shown, real) for real in real_lines), (
                    f"{where}\nthe page shows {line}"
                )


def test_the_clocks_example_runs_as_docs_http_md_shows(tmp_path: Path) -> None:
    """``python examples/clocks.py`` (its own ``spies-api``, about 20 s): Ada is timed out
    three times, handed to the bot, takes her seat back, and no timeout is recorded while no
    server ran, as the page shows."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "clocks.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("SPIES_")},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    shown = (ROOT / "docs" / "http.md").read_text(encoding="utf-8")
    for line in (
        "timeouts recorded: seat 0: 3; Ada holds her seat again",
        "timeouts recorded since the restart: 0",
    ):
        assert line in shown and line in done.stdout, line


def test_every_file_the_source_tree_of_development_md_names_exists() -> None:
    """The tree of docs/development.md names files and folders under each top folder: each
    is there (a rename that forgets the page fails here)."""
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    tree = page[page.index("```text\nsrc/") : page.index("```\n", page.index("```text\nsrc/") + 8)]
    missing, top = [], ROOT
    for line in tree.splitlines()[1:]:
        head = re.match(r"^([\w./]+/)\s", line)
        if head is not None:
            top = ROOT / head.group(1)
            assert top.is_dir(), head.group(1)
        for name in re.findall(r"\b(\w+(?:\.py|/))(?=[\s,;:)]|$)", line[20:]):
            if not list(top.rglob(name.rstrip("/"))):
                missing.append(f"{top.relative_to(ROOT)}: {name}")
    assert missing == []
