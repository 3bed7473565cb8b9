"""The Python client that openapi-python-client generates from ``openapi/openapi.json``.

As a third party would: the generator (the version range of
``examples/python/requirements.txt``) goes into a virtual environment of its own, made here,
so that its dependencies (pydantic, typer, ruff, ...) never reach the project's environment.
It generates the client with ``examples/python/openapi-python-client.yaml`` into a temporary
directory and must print no warning (a warning means a part of the API left out of the
client). The generated package is installed into that environment, and
``examples/python/play.py`` plays whole games through it against a real ``spies-api`` on a
free loopback port with a temporary SQLite file (and ``mypy --strict`` checks it against the
generated package). Each game is then checked on the server, and the log the example saved
through the client is verified by ``spies-replay import``. What the generator printed is
kept in ``build/clients/openapi-python-client.txt``.

Installing the generator needs the package index, as ``.ci/run`` has it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.servers import json_under_rate_limit

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi" / "openapi.json"
EXAMPLE = ROOT / "examples" / "python"
BIN = Path(sys.executable).parent
REPORT = ROOT / "build" / "clients" / "openapi-python-client.txt"
"""What the generator printed, for ``.ci/run`` to show."""


def _env(bin_: Path) -> dict[str, str]:
    """The environment for the programs of a virtual environment: its ``bin`` first (the
    generator runs ``ruff`` from there over the generated code), no ``PYTHONPATH``."""
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**clean, "PATH": f"{bin_}{os.pathsep}{clean.get('PATH', '')}"}


@dataclass(frozen=True)
class Tools:
    """The generator's virtual environment, and what running the generator printed."""

    bin: Path
    package: Path
    returncode: int
    output: str

    def env(self) -> dict[str, str]:
        """The environment for the programs of the generator's virtual environment."""
        return _env(self.bin)


def _run(command: list[str | Path], env: dict[str, str], timeout: float) -> tuple[int, str]:
    done = subprocess.run(
        [str(part) for part in command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    return done.returncode, done.stdout


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Tools:
    """A fresh virtual environment with the generator, and the client generated into it."""
    work = tmp_path_factory.mktemp("python-client")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    bin_, package = venv / "bin", work / "spies-client"
    code, output = _run(
        [bin_ / "python", "-m", "pip", "install", "--quiet", "-r", EXAMPLE / "requirements.txt"],
        _env(bin_),
        timeout=600,
    )
    assert code == 0, f"installing openapi-python-client (from the package index):\n{output}"
    generate = [
        bin_ / "openapi-python-client",
        "generate",
        "--path",
        DOCUMENT,
        "--meta",
        "setup",
        "--config",
        EXAMPLE / "openapi-python-client.yaml",
        "--output-path",
        package,
        "--overwrite",
        "--fail-on-warning",
    ]
    code, output = _run(generate, {**_env(bin_), "COLUMNS": "100"}, timeout=300)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    shown = " ".join(str(part).replace(f"{ROOT}/", "") for part in generate[1:])
    REPORT.write_text(f"$ openapi-python-client {shown}\n{output}(exit status {code})\n")
    return Tools(bin=bin_, package=package, returncode=code, output=output)


@pytest.fixture(scope="module")
def client(tools: Tools) -> Tools:
    """The generated package, installed into the generator's environment."""
    assert (tools.package / "spies_client").is_dir(), f"nothing was generated:\n{tools.output}"
    install = [tools.bin / "python", "-m", "pip", "install", "--quiet", tools.package]
    code, output = _run(install, tools.env(), timeout=600)
    assert code == 0, f"the generated client does not install:\n{output}"
    return tools


def test_the_client_generates_without_a_warning(tools: Tools) -> None:
    assert tools.returncode == 0, tools.output
    assert "warning" not in tools.output.lower(), tools.output
    assert tools.output.strip() == f"Generating {tools.package}", tools.output


def test_the_example_type_checks_with_the_generated_client(client: Tools, tmp_path: Path) -> None:
    """``mypy --strict`` over ``play.py``, with the generated package (typed: ``py.typed``)
    and its dependencies found in the generator's environment."""
    checked = subprocess.run(
        [
            *(sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path)),
            *("--python-executable", str(client.bin / "python"), str(EXAMPLE / "play.py")),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize(
    ("game", "players"),
    [
        pytest.param("deck-of-spies", 1, id="deck-of-spies"),
        pytest.param("black-spy", 3, id="black-spy-3"),
    ],
)
def test_a_whole_game_is_played_through_the_generated_client(
    client: Tools, server: str, tmp_path: Path, game: str, players: int
) -> None:
    export = tmp_path / "game.jsonl"
    code, output = _run(
        [
            client.bin / "python",
            EXAMPLE / "play.py",
            "--base-url",
            server,
            "--game",
            game,
            "--players",
            str(players),
            "--seed",
            f"python-client-{game}",
            "--export",
            export,
        ],
        client.env(),
        timeout=600,
    )
    assert code == 0, output
    played: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    assert (played["game"], played["players"], played["final_phase"]) == (game, players, "over")
    assert played["commands"] > 0

    summary = json_under_rate_limit(f"{server}/games/{played['id']}")
    assert summary["status"] == "finished"
    assert (summary["version"], summary["outcome"]) == (played["version"], played["outcome"])
    outcome = played["outcome"]
    scores: list[int] = outcome["scores"]
    assert len(scores) == players
    if game == "black-spy":  # the lowest penalty total wins once someone reaches the threshold
        assert outcome["reason"] == "threshold-reached"
        assert outcome["winners"] == [seat for seat, s in enumerate(scores) if s == min(scores)]
    else:  # won with 7 owned face cards, lost with fewer or with no Ace left
        assert outcome["reason"] in ("owned-faces", "no-ace-left")
        won = outcome["reason"] == "owned-faces" and scores[0] >= 7
        assert outcome["winners"] == ([0] if won else [])

    # The whole game the client played is a valid one: its export (through the client, as
    # text) re-derives every shuffle and every event from the revealed seed.
    replay = BIN / "spies-replay"
    replay_command = [str(replay)] if replay.exists() else [sys.executable, "-m", "spies_replay"]
    imported = subprocess.run(
        [*replay_command, "--db", str(tmp_path / "check.db"), "import", str(export)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert imported.returncode == 0, imported.stderr
    assert played["id"] in imported.stdout


def test_the_example_unpaced_waits_out_the_rate_limit(
    client: Tools, rate_limited: str, tmp_path: Path
) -> None:
    """With no pacing (``--rate 0``) against a server limited to 5 requests a second, the
    server answers 429: ``play.py`` waits each ``Retry-After`` out (the generated client
    alone died on the first one) and still plays the game to its end."""
    code, output = _run(
        [client.bin / "python", EXAMPLE / "play.py", "--base-url", rate_limited, "--rate", "0"],
        client.env(),
        timeout=600,
    )
    assert code == 0, output
    played: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    assert played["waits"] > 0 and played["final_phase"] == "over"
    summary = json_under_rate_limit(f"{rate_limited}/games/{played['id']}")
    assert summary["status"] == "finished"
