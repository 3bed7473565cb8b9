"""Every console script with bad input: one line on stderr, exit status 2, never a traceback.

The scripts run as a person runs them (the installed ``spies-api`` and ``spies-replay``
next to this interpreter), with missing, malformed and out-of-range values for every option
and environment variable. Any ``Traceback`` in the output fails the test. ``spies-sim``'s
bad input has its own cases in ``tests/sim/test_sim.py``; here it answers a bad option and
``--help`` like every script.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from spies_api.cli import main as api_main
from spies_api.settings import OPTIONS, Settings, SettingsError, settings_from
from spies_replay.cli import main as replay_main
from tests.support import processes
from tests.support.servers import free_port, wait_until_up

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "fixtures" / "golden" / "deck-of-spies.jsonl"
BIN = Path(sys.executable).parent


SCRIPTS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
"""Every console script of the project: name to ``module:function``."""


def script(name: str) -> list[str]:
    """The installed console script, or its entry point when it is not installed here."""
    path = BIN / name
    if path.exists():
        return [str(path)]
    module, function = SCRIPTS[name].split(":")
    code = f"import sys; from {module} import {function}; sys.exit({function}())"
    return [sys.executable, "-c", code]


def run(
    name: str, *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("SPIES_")}
    return subprocess.run(
        [*script(name), *args],
        capture_output=True,
        text=True,
        env={**clean, **(env or {})},
        timeout=timeout,
        check=False,
    )


def assert_one_line(done: subprocess.CompletedProcess[str], prog: str, status: int = 2) -> str:
    """No traceback; the given status; one ``prog: error:`` line (after any usage lines)."""
    output = done.stdout + done.stderr
    assert "Traceback" not in output and "Error:" not in output, output
    assert done.returncode == status, output
    errors = [line for line in done.stderr.splitlines() if line.startswith(prog)]
    assert len(errors) == 1 and re.match(rf"{prog}( \w+)?: error: ", errors[0]), done.stderr
    assert not [line for line in done.stderr.splitlines() if line.startswith("INFO")]
    return errors[0]


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("places")
    text = root / "README.md"
    text.write_text("# not a database\n" * 100)
    (root / "a-directory").mkdir()
    return {"root": root, "text": text, "dir": root / "a-directory"}


# -- spies-api ----------------------------------------------------------------------------------


def api_cases(places: dict[str, Path]) -> list[tuple[list[str], dict[str, str], str]]:
    root, text, directory = places["root"], places["text"], places["dir"]
    db = ["--db", str(root / "ok.db")]
    return [
        (["--db", str(root / "no" / "x.db")], {}, f"the directory {root / 'no'} does not exist"),
        (["--db", str(directory)], {}, "it is a directory, not a database file"),
        (["--db", str(text)], {}, "it is not a SQLite database"),
        (["--db", str(text / "x.db")], {}, "is not a directory"),
        (["--db", ""], {}, "--db '': expected a value"),
        (["--db", "postgresql://spies:pw@127.0.0.1:1/spies"], {}, "cannot be reached"),
        ([*db, "--port", "99999"], {}, "--port '99999': expected a port number from 1 to 65535"),
        ([*db, "--port", "0"], {}, "--port '0'"),
        ([*db, "--port", "-1"], {}, "--port '-1'"),
        ([*db, "--port=-1"], {}, "--port '-1'"),
        ([*db, "--port", "http"], {}, "--port 'http'"),
        ([*db, "--host", ""], {}, "--host '': expected a value"),
        ([*db, "--host", "no-such-host.invalid"], {}, "cannot listen on no-such-host.invalid"),
        ([*db, "--rate-limit", "5"], {}, "--rate-limit '5': expected N/UNIT"),
        ([*db, "--rate-limit", "0/second"], {}, "--rate-limit '0/second'"),
        ([*db, "--rate-limit", "5/week"], {}, "--rate-limit '5/week'"),
        ([*db, "--max-streams-per-game", "0"], {}, "expected a whole number, at least 1"),
        ([*db, "--max-streams-per-game", "many"], {}, "--max-streams-per-game 'many'"),
        ([], {"SPIES_DB": str(directory)}, "it is a directory"),
        ([], {"SPIES_DB": str(root / "no" / "x.db")}, "does not exist"),
        (db, {"SPIES_PORT": "abc"}, "SPIES_PORT='abc': expected a port number"),
        (db, {"SPIES_HOST": " "}, "SPIES_HOST=' ': expected a value"),
        (db, {"SPIES_RATE_LIMIT": "fast"}, "SPIES_RATE_LIMIT='fast'"),
        (db, {"SPIES_MAX_STREAMS_PER_GAME": "-3"}, "SPIES_MAX_STREAMS_PER_GAME='-3'"),
        (db, {"SPIES_ACCESS_LOG": "maybe"}, "SPIES_ACCESS_LOG='maybe': expected 1, true"),
        ([*db, "--port", "70000"], {"SPIES_PORT": "abc"}, "--port '70000'"),  # the CLI wins
        ([*db, "--frobnicate"], {}, "unrecognized arguments: --frobnicate"),
        ([*db, "--port"], {}, "argument --port: expected one argument"),
        ([*db, "--cache-bytes", "-1"], {}, "--cache-bytes '-1': expected a whole number, 0 or"),
    ]


def in_process(
    main: Callable[..., int], capsys: pytest.CaptureFixture[str], *args: Any, **kwargs: Any
) -> subprocess.CompletedProcess[str]:
    """A console script's ``main`` in this process, as a completed process (faster)."""
    status = main(list(args), **kwargs)
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(args, status, captured.out, captured.err)


# ``main`` in this process is the same code as the script after the interpreter starts (an
# exception escaping it fails the test as well); a representative set also runs as real
# processes (slow: each starts an interpreter).
API_IN_A_PROCESS = (0, 1, 2, 6, 12, 20, 25, 26)
REPLAY_IN_A_PROCESS = (0, 1, 3, 4, 7, 13, 17, 19)


@pytest.mark.parametrize("index", range(29))
def test_spies_api_refuses_bad_settings_in_one_line(
    places: dict[str, Path], index: int, capsys: pytest.CaptureFixture[str]
) -> None:
    args, env, message = api_cases(places)[index]
    line = assert_one_line(in_process(api_main, capsys, *args, environ=env), "spies-api")
    assert message in line, line
    assert not (places["root"] / "no").exists()  # a missing directory is never created


@pytest.mark.slow
@pytest.mark.parametrize("index", API_IN_A_PROCESS)
def test_the_spies_api_script_refuses_bad_settings_in_one_line(
    places: dict[str, Path], index: int
) -> None:
    args, env, message = api_cases(places)[index]
    line = assert_one_line(run("spies-api", *args, env=env), "spies-api")
    assert message in line, line
    assert not (places["root"] / "no").exists()


def test_every_api_case_is_run(places: dict[str, Path]) -> None:
    assert len(api_cases(places)) == 29


@pytest.mark.slow
def test_a_port_in_use_is_one_line_before_any_start_up_line(places: dict[str, Path]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("spies-api", "--db", str(places["root"] / "ok.db"), "--port", str(port))
    line = assert_one_line(done, "spies-api")
    assert f"cannot listen on 127.0.0.1:{port}: address already in use" in line
    assert done.stderr.splitlines() == [line]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path, int]]:
    port = free_port()
    db = tmp_path / "env.db"
    clean = {key: value for key, value in os.environ.items() if not key.startswith("SPIES_")}
    env = {**clean, "SPIES_DB": str(db), "SPIES_PORT": "1", "PYTHONUNBUFFERED": "1"}
    process = processes.start(
        [*script("spies-api"), "--port", str(port)],  # the command line wins over SPIES_PORT
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        yield process, db, port
    finally:
        processes.end(process)


@pytest.mark.slow
def test_the_start_up_log_names_the_database_from_the_environment(
    server: tuple[subprocess.Popen[str], Path, int],
) -> None:
    process, db, port = server
    assert process.stderr is not None
    first = json.loads(process.stderr.readline())
    assert first["event"] == "api_starting"
    assert first["database"] == str(db.resolve()) and first["port"] == port
    assert first["open"] == f"http://127.0.0.1:{port}/"
    assert first["docs"] == f"http://127.0.0.1:{port}/schema"
    wait_until_up(f"http://127.0.0.1:{port}")
    assert db.exists()
    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=30)
    # uvicorn ends by re-raising the signal it handled
    assert "Traceback" not in rest and process.returncode in (0, -signal.SIGTERM)


@pytest.mark.slow
def test_spies_api_help_names_every_environment_variable() -> None:
    done = run("spies-api", "--help")
    assert done.returncode == 0
    for option in OPTIONS:
        assert option.flag in done.stdout and option.env in done.stdout
    # a port is not a limit: an unset --metrics-port serves the metrics on the API's port
    help_text = " ".join(done.stdout.split())
    assert "SPIES_METRICS_PORT; default the API's port, when --metrics is on)" in help_text


# -- settings -------------------------------------------------------------------------------------


def test_the_command_line_wins_over_the_environment_which_wins_over_the_default() -> None:
    env = {"SPIES_PORT": "9001", "SPIES_DB": "env.db", "SPIES_ACCESS_LOG": "yes"}
    settings = settings_from({"port": "9002", "access_log": False}, env)
    assert settings.port == 9002 and str(settings.db_path) == "env.db"
    assert settings.access_log is False
    assert settings_from({}, env).access_log is True
    assert settings_from({}, {}) == Settings()
    assert settings_from({}, {"SPIES_CACHE_BYTES": "0"}).cache_bytes == 0  # none kept packed
    assert settings_from({"cache_bytes": "1048576"}, {}).cache_bytes == 1 << 20


def test_every_option_has_its_variable() -> None:
    names = {option.env for option in OPTIONS}
    assert names == {
        "SPIES_DB",
        "SPIES_SYNC",
        "SPIES_HOST",
        "SPIES_PORT",
        "SPIES_RATE_LIMIT",
        "SPIES_TRUSTED_PROXIES",
        "SPIES_IPV4_PREFIX",
        "SPIES_IPV6_PREFIX",
        "SPIES_FREE_PATHS_RATE_LIMIT",
        "SPIES_PLAYER_RATE_LIMIT",
        "SPIES_CACHE_BYTES",
        "SPIES_MAX_HEAD_BYTES",
        "SPIES_MAX_BOT_GAMES_PER_CLIENT",
        "SPIES_MAX_BOT_GAMES",
        "SPIES_MAX_GAMES_PER_CLIENT",
        "SPIES_OPEN_SEAT_TTL",
        "SPIES_COMMITMENT_TTL",
        "SPIES_MAX_COMMITMENTS_PER_CLIENT",
        "SPIES_MAX_COMMITMENTS",
        "SPIES_MAX_STREAMS_PER_GAME",
        "SPIES_MAX_STREAMS_PER_SEAT",
        "SPIES_MAX_STREAMS",
        "SPIES_MAX_STREAMS_PER_CLIENT",
        "SPIES_IDEMPOTENCY_KEY_MAX_LENGTH",
        "SPIES_ACCESS_LOG",
        "SPIES_METRICS",
        "SPIES_METRICS_PORT",
        "SPIES_DRAIN_SECONDS",
        "SPIES_SHUTDOWN_TIMEOUT",
        "SPIES_CORS_ORIGINS",
        "SPIES_COMPRESS_MIN_BYTES",
    }


@pytest.mark.parametrize(
    ("given", "env", "message"),
    [
        ({"port": "65536"}, {}, "--port '65536'"),
        ({}, {"SPIES_PORT": "8o8o"}, "SPIES_PORT='8o8o'"),
        ({}, {"SPIES_MAX_STREAMS_PER_GAME": "0"}, "SPIES_MAX_STREAMS_PER_GAME='0'"),
    ],
)
def test_bad_settings_are_one_line_naming_their_source(
    given: dict[str, str], env: dict[str, str], message: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        settings_from(given, env)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_settings_refuse_a_port_out_of_range() -> None:
    with pytest.raises(ValueError, match="port"):
        Settings(port=99999)


# -- spies-replay ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def replay_db(places: dict[str, Path]) -> Path:
    db = places["root"] / "replay.db"
    assert replay_main(["--db", str(db), "import", str(GOLDEN)], stdout=io.StringIO()) == 0
    return db


def replay_cases(places: dict[str, Path], db: Path) -> list[tuple[list[str], int, str]]:
    root, text, directory = places["root"], places["text"], places["dir"]
    on = ["--db", str(db)]
    return [
        (["--db", str(text), "list"], 2, "it is not a SQLite database"),
        (["--db", str(directory), "list"], 2, "it is a directory"),
        (["--db", str(root / "none.db"), "list"], 2, "no such file"),
        (["--db", str(root / "no" / "x.db"), "import", str(GOLDEN)], 2, "does not exist"),
        ([*on, "list", "--limit", "-1"], 2, "expected at least 1"),
        ([*on, "list", "--offset", "x"], 2, "expected a whole number"),
        ([*on, "list", "--status", "done"], 2, "invalid choice: 'done'"),
        ([*on, "show", "deck-of-spies", "--at", "-1"], 2, "has steps 0 (before the first event)"),
        ([*on, "show", "deck-of-spies", "--at", "9999"], 2, "no step 9999"),
        ([*on, "show", "deck-of-spies", "--as", "3"], 2, "no seat 3"),
        ([*on, "show", "nope"], 2, "no game with id 'nope'"),
        ([*on, "step", "nope"], 2, "no game with id 'nope'"),
        ([*on, "verify", "nope"], 2, "no game with id 'nope'"),
        ([*on, "export", "deck-of-spies", "-o", str(root / "no" / "x")], 2, "cannot write"),
        ([*on, "export", "deck-of-spies", "-o", str(directory)], 2, "is a directory"),
        ([*on, "import", str(root / "none.jsonl")], 2, "cannot read"),
        ([*on, "import", str(directory)], 2, "cannot read"),
        ([*on, "import", str(text)], 1, "import refused: line 1"),
        ([*on, "import", str(GOLDEN)], 2, "already stored"),
        ([*on, "frobnicate"], 2, "invalid choice: 'frobnicate'"),
        ([*on], 2, "the following arguments are required"),
    ]


@pytest.mark.parametrize("index", range(21))
def test_spies_replay_refuses_bad_input_in_one_line(
    places: dict[str, Path], replay_db: Path, index: int, capsys: pytest.CaptureFixture[str]
) -> None:
    args, status, message = replay_cases(places, replay_db)[index]
    line = assert_one_line(in_process(replay_main, capsys, *args), "spies-replay", status)
    assert message in line, line
    assert not (places["root"] / "no").exists()


@pytest.mark.slow
@pytest.mark.parametrize("index", REPLAY_IN_A_PROCESS)
def test_the_spies_replay_script_refuses_bad_input_in_one_line(
    places: dict[str, Path], replay_db: Path, index: int
) -> None:
    args, status, message = replay_cases(places, replay_db)[index]
    line = assert_one_line(run("spies-replay", *args), "spies-replay", status)
    assert message in line, line


def test_every_replay_case_is_run(places: dict[str, Path], replay_db: Path) -> None:
    assert len(replay_cases(places, replay_db)) == 21


@pytest.mark.slow
def test_a_closed_pipe_ends_spies_replay_normally(replay_db: Path) -> None:
    with subprocess.Popen(
        [*script("spies-replay"), "--db", str(replay_db), "export", "deck-of-spies"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith(b"{")
        process.stdout.close()  # | head -1
        errors = process.stderr.read().decode()
        assert process.wait(timeout=30) == 0 and "Traceback" not in errors and errors == ""


# -- every console script -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_console_script_answers_a_bad_option_in_one_line(name: str) -> None:
    done = run(name, "--no-such-option")
    assert "Traceback" not in done.stdout + done.stderr and done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"{name}: error: ")
    helped = run(name, "--help")
    assert helped.returncode == 0 and "Traceback" not in helped.stdout + helped.stderr


def test_the_console_scripts_include_the_server_the_replay_tool_and_the_simulator() -> None:
    assert {"spies-api", "spies-replay", "spies-sim"} <= set(SCRIPTS)
    assert SCRIPTS["spies-replay"] == "spies_replay.cli:main"
    assert SCRIPTS["spies-sim"] == "spies_sim.cli:main"
