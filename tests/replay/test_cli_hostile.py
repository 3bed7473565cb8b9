"""``spies-replay`` against hostile files: bot moves re-run and caveats printed, a log anchored to
the head its server published, no raw control character on the terminal, and one error line
(never a traceback) for a file too deep, not UTF-8 or with a game id outside the server's
alphabet."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from spies_api.game import create_game
from spies_replay.cli import main
from spies_replay.meta import SeatHandedToBot, SeatJoined, SeatState, SeatType
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, read_export
from tests.support.botgames import export_of, play_with_bots, rechain
from tests.support.seats import change_seat


class Run:
    """The CLI in-process with the registered games and bots."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.out = self.err = ""

    def __call__(self, *args: str, stdin: str = "") -> int:
        status = main(list(args), stdin=io.StringIO(stdin))
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        return status


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return Run(capsys)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "real.db"


@pytest.fixture
def real(db: Path) -> Iterator[EventStore]:
    with SQLiteEventStore(db) as opened:
        yield opened


def write(path: Path, lines: list[bytes]) -> str:
    path.write_bytes(b"".join(line.strip() + b"\n" for line in lines))
    return str(path)


# -- bots and caveats ------------------------------------------------------------------------


def test_verify_re_runs_every_bot_move_and_prints_what_it_cannot(
    run: Run, db: Path, real: EventStore
) -> None:
    today = play_with_bots(real, "spies-and-lies", ["random", "greedy"])
    old = play_with_bots(real, "spies-and-lies", ["random", None], mark=lambda name: name)
    assert run("--db", str(db), "verify") == 0, run.out
    lines = run.out.splitlines()
    mine = next(line for line in lines if today in line)
    assert mine.startswith("ok ") and "bot moves re-derived" in mine
    theirs = lines.index(next(line for line in lines if old in line))
    assert lines[theirs + 1].startswith("      caveat: bot-version-unknown at seq ")
    assert "not re-derived" in lines[theirs + 1]
    assert run("--db", str(db), "--json", "verify", old) == 0
    [report] = msgspec.json.decode(run.out)["games"]
    assert [caveat["code"] for caveat in report["caveats"]] == ["bot-version-unknown"]


def test_import_prints_its_caveats(run: Run, tmp_path: Path, real: EventStore) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", None], mark=lambda n: f"{n}@9")
    path = write(tmp_path / "game.jsonl", list(export_lines(real, game_id)))
    assert run("--db", str(tmp_path / "other.db"), "import", path) == 0
    assert f"imported {game_id}" in run.out
    assert "      caveat: bot-version-not-in-build at seq " in run.out


# -- the published head ----------------------------------------------------------------------


def test_verify_and_import_check_the_head_a_server_published(
    run: Run, db: Path, real: EventStore, tmp_path: Path
) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = read_export(export_lines(real, game_id))
    head, other = record.head_hash, rows[9].hash
    assert run("--db", str(db), "verify", game_id, "--head", head.upper()) == 0
    assert "ends in the published head" in run.out
    assert run("--db", str(db), "verify", game_id, "--head", other) == 1
    assert f"FAIL  {game_id} at seq {record.version}: published-head-mismatch:" in run.out
    assert "the hash at seq 10" in run.out
    assert run("--db", str(db), "--json", "verify", game_id, "--head", "ab" * 32) == 1
    [report] = msgspec.json.decode(run.out)["games"]
    assert report["problem"]["code"] == "published-head-mismatch"
    assert report["published_head"] == "ab" * 32
    export = write(tmp_path / "game.jsonl", list(export_lines(real, game_id)))
    nowhere = str(tmp_path / "no.db")
    assert run("--db", nowhere, "verify", "--file", export, "--head", head) == 0
    assert run("verify", "--file", "-", "--head", other, stdin=Path(export).read_text()) == 1
    assert not Path(nowhere).exists(), "verify --file stores nothing"
    assert run("--db", nowhere, "import", export, "--head", other) == 1
    assert "import refused" in run.err and "published-head-mismatch" in run.err
    assert run("--db", nowhere, "import", export, "--head", head) == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "--all", "--head", "ab" * 32],
        ["verify", "--head", "ab" * 32],
        ["verify", "g", "--head", "xyz"],
        ["import", "f", "--head", "ab" * 31],
    ],
)
def test_a_head_that_cannot_be_checked_is_a_usage_error(
    run: Run, db: Path, real: EventStore, argv: list[str]
) -> None:
    assert run("--db", str(db), *argv) == 2
    assert "Traceback" not in run.err and "head" in run.err


# -- control characters ----------------------------------------------------------------------

EVIL_ID = "\x1b]0;pwned\x07\x1b[2J\r\nok    forged\x00"


def printed_raw(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on (line breaks aside)."""
    return [char for char in text if not char.isprintable() and char != "\n"]


def test_no_output_prints_a_raw_control_character_read_from_a_file(
    run: Run, db: Path, real: EventStore, tmp_path: Path
) -> None:
    seats = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN)]
    created = create_game(real, "spies-and-lies", 2, seed="evil", game_id=EVIL_ID, seats=seats)
    change_seat(real, EVIL_ID, lambda s, t: SeatJoined(seat=1, name="\x1b[31mMallory\r\n"))
    change_seat(real, EVIL_ID, lambda s, t: SeatHandedToBot(seat=0, bot="\x9b2J\u202ebot"))
    version = created.record.version + 2
    runs = [
        ("list",),
        ("show", EVIL_ID),
        ("show", EVIL_ID, "--at", str(version - 1)),
        ("show", EVIL_ID, "--at", str(version), "--as", "1"),
        ("step", EVIL_ID),
        ("verify",),
        ("verify", EVIL_ID),
        ("--json", "verify"),
        ("--json", "show", EVIL_ID),
        ("--json", "list"),
    ]
    for argv in runs:
        status = run("--db", str(db), *argv, stdin="n\n" * version)
        assert status in (0, 1), (argv, run.err)
        assert not printed_raw(run.out + run.err), (argv, run.out, run.err)
    assert run("--db", str(db), "show", EVIL_ID) == 0
    assert "\\x1b]0;pwned\\x07" in run.out and "\\r\\nok    forged\\x00" in run.out


def test_an_import_refusal_prints_the_hostile_game_id_escaped(
    run: Run, real: EventStore, tmp_path: Path
) -> None:
    game_id = play_with_bots(real, "spies-and-lies", ["random", "random"])
    record, rows = read_export(export_lines(real, game_id))
    forged = rechain(msgspec.structs.replace(record, id=EVIL_ID), rows)
    path = write(tmp_path / "evil.jsonl", export_of(*forged))
    assert run("--db", str(tmp_path / "other.db"), "import", path) == 1
    [line] = run.err.splitlines()
    assert line.startswith("spies-replay: error: import refused: line 1: game id ")
    assert not printed_raw(run.err)


# -- nesting and bytes -------------------------------------------------------------------------


def deep_export(real: EventStore, depth: int) -> list[bytes]:
    lines = list(export_lines(real, play_with_bots(real, "spies-and-lies", ["random", "random"])))
    lines[2] = b'{"x":' + b"[" * depth + b"]" * depth + b"," + lines[2].strip()[1:]
    return lines


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_a_line_nested_too_deep_is_one_error_line(
    run: Run, real: EventStore, tmp_path: Path, depth: int
) -> None:
    path = write(tmp_path / "deep.jsonl", deep_export(real, depth))
    for argv in (["import", path], ["verify", "--file", path]):
        assert run("--db", str(tmp_path / "other.db"), *argv) == 1
        [line] = run.err.splitlines()
        assert line.startswith("spies-replay: error: ") and "line 3" in line
        assert "nested deeper than 64 levels" in line


def test_a_deep_line_is_one_error_line_from_the_console_script(
    real: EventStore, tmp_path: Path
) -> None:
    path = write(tmp_path / "deep.jsonl", deep_export(real, 100_000))
    done = subprocess.run(
        [sys.executable, "-m", "spies_replay", "--db", str(tmp_path / "x.db"), "import", path],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_file_that_is_not_utf_8_is_one_error_line(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b'{"format": "spies-replay/1", "id": "\xff\xfe"}\n')
    assert run("--db", str(tmp_path / "other.db"), "import", str(path)) == 1
    [line] = run.err.splitlines()
    assert line.startswith("spies-replay: error: import refused: line 1")
