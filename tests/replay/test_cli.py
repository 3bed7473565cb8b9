"""The ``spies-replay`` console script: every subcommand, its output and its exit status."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from spies_replay.cli import main
from spies_replay.reading import read_events
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.counter import finish, new_game, play
from tests.support.countergame import GAMES


class Run:
    """Runs the CLI in-process against one database with the counter game."""

    def __init__(self, db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.db_path = db_path
        self.capsys = capsys
        self.out = ""
        self.err = ""

    def __call__(self, *args: str, stdin: str = "") -> int:
        status = main(["--db", str(self.db_path), *args], games=GAMES, stdin=io.StringIO(stdin))
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        return status


@pytest.fixture
def run(db_path: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    return Run(db_path, capsys)


@pytest.fixture
def active(store: EventStore) -> str:
    game_id = new_game(store, target=30).record.id
    play(store, game_id, 4)  # seat 0 draws, seat 1 shuffles, seat 0 bumps, seat 1 draws
    return game_id


@pytest.fixture
def finished(store: EventStore) -> str:
    game_id = new_game(store, target=9).record.id
    play(store, game_id, 3)
    finish(store, game_id)
    return game_id


# -- usage -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [[], ["frobnicate"], ["show"], ["verify", "x", "--all"], ["show", "g", "--at", "x"]],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv, games=GAMES) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"], games=GAMES) == 0
    assert "verify" in capsys.readouterr().out


def test_a_missing_database_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", str(tmp_path / "none.db"), "list"], games=GAMES) == 2
    assert "cannot use the database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_the_console_script_is_installed(tmp_path: Path) -> None:
    SQLiteEventStore(tmp_path / "s.db").close()
    script = Path(sys.executable).with_name("spies-replay")
    done = subprocess.run(
        [str(script), "list", "--db", str(tmp_path / "s.db")], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, "no games\n")


# -- list ------------------------------------------------------------------------------------


def test_list_shows_every_game_with_status(run: Run, active: str, finished: str) -> None:
    assert run("list") == 0
    assert active in run.out and finished in run.out
    assert "active" in run.out and "finished" in run.out and "2 games" in run.out
    assert run("list", "--status", "finished", "--json") == 0
    data = msgspec.json.decode(run.out)
    assert data["total"] == 1 and data["games"][0]["id"] == finished
    assert "seed" not in data["games"][0]


# -- show ------------------------------------------------------------------------------------


def test_show_defaults_to_the_spectator_at_the_head(run: Run, active: str) -> None:
    assert run("show", active) == 0
    assert "as spectator" in run.out and "step 11 of 11" in run.out
    assert "#11 seat 1 ends the turn" in run.out and "hand:" not in run.out
    assert run("show", active, "--at", "10") == 0
    assert "#10 [seat 1] seat 1 draws a card" in run.out  # hidden from a spectator


def test_show_as_a_seat_draws_its_cards(run: Run, active: str, store: EventStore) -> None:
    card = read_events(store, active, games=GAMES)[-2].event.card
    assert run("show", active, "--at", "10", "--as", "1") == 0
    assert f"seat 1 draws {card}♥" in run.out and f"hand: {card}♥" in run.out
    assert run("show", active, "--at", "10", "--as", "0") == 0
    assert "seat 1 draws a card" in run.out and f"{card}♥" not in run.out


def test_show_at_a_step(run: Run, active: str) -> None:
    assert run("show", active, "--at", "1") == 0
    assert "step 1 of 11" in run.out and "counter created for 2 players" in run.out
    assert run("show", active, "--at", "0") == 0
    assert "before the first event" in run.out


def test_show_json_is_redacted_for_the_viewer(run: Run, active: str) -> None:
    assert run("--json", "show", active, "--at", "4") == 0
    data = msgspec.json.decode(run.out)
    assert data["seq"] == 4 and data["seat"] is None
    assert data["event"]["event"] == {"type": "counter_card_drawn", "seat": 0, "card": None}
    assert data["view"]["hand"] is None and data["view"]["version"] == 4
    assert run("show", active, "--at", "4", "--as", "0", "--json") == 0
    assert msgspec.json.decode(run.out)["event"]["event"]["card"] is not None


def test_show_of_a_finished_game_shows_its_events_in_full(run: Run, finished: str) -> None:
    assert run("show", finished, "--at", "3") == 0
    assert "deck shuffled (hidden)" not in run.out and "deck shuffled (" in run.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "99"], "no step 99"),
        (["--at", "-1"], "no step -1"),
        (["--as", "5"], "no seat 5"),
    ],
)
def test_show_refuses_what_the_game_does_not_have(
    run: Run, active: str, args: list[str], message: str
) -> None:
    assert run("show", active, *args) == 2
    assert message in run.err


def test_show_of_an_unknown_game_exits_2(run: Run, active: str) -> None:
    assert run("show", "nope") == 2
    assert "no game with id 'nope'" in run.err


# -- step ------------------------------------------------------------------------------------


def _steps(out: str) -> list[int]:
    return [
        int(line.split(" step ")[1].split(" ")[0]) for line in out.splitlines() if " step " in line
    ]


def test_step_reads_commands_from_a_pipe(run: Run, active: str) -> None:
    script = "n\n\nb\nj 8\n2\nl\nf\nq\nn\n"
    assert run("step", active, stdin=script) == 0
    assert _steps(run.out) == [0, 1, 2, 1, 8, 2, 11, 0]
    assert "step>" not in run.out


def test_step_stops_at_the_end_of_input_and_refuses_bad_steps(run: Run, active: str) -> None:
    assert run("step", active, "--at", "10", "--as", "0", stdin="n\nn\nback\nwhat\n") == 0
    assert _steps(run.out) == [10, 11, 10]
    assert "no step 12" in run.err and "unknown command 'what'" in run.err


def test_step_json_prints_one_object_per_step(run: Run, active: str) -> None:
    assert run("step", active, "--json", stdin="n\nn\n") == 0
    assert [msgspec.json.decode(line)["seq"] for line in run.out.splitlines()] == [0, 1, 2]


# -- verify ----------------------------------------------------------------------------------


def test_verify_all_ok_exits_0(run: Run, active: str, finished: str) -> None:
    assert run("verify") == 0
    assert "2 games verified, 0 with problems" in run.out
    assert "re-derived from the revealed seed" in run.out
    assert "operator audit" in run.out
    assert run("verify", "--all", "--json") == 0
    data = msgspec.json.decode(run.out)
    assert data["ok"] is True and len(data["games"]) == 2


def test_verify_names_the_game_and_the_first_bad_seq(
    run: Run, active: str, finished: str, db_path: Path
) -> None:
    with sqlite3.connect(db_path, isolation_level=None) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute(
            "UPDATE events SET payload = replace(payload, '\"by\":1', '\"by\":2')"
            " WHERE game_id = ? AND type = 'counter_bumped'",
            (active,),
        )
    assert run("verify") == 1
    assert f"FAIL  {active} at seq 8: hash-mismatch" in run.out
    assert "2 games verified, 1 with problems" in run.out
    assert run("verify", finished) == 0
    assert run("verify", active, "--json") == 1
    report = msgspec.json.decode(run.out)["games"][0]
    assert report["problem"]["seq"] == 8 and report["problem"]["code"] == "hash-mismatch"


def test_verify_of_an_unknown_game_exits_2(run: Run, active: str) -> None:
    assert run("verify", "nope") == 2


# -- export and import -----------------------------------------------------------------------


def test_export_to_stdout_and_to_a_file(run: Run, finished: str, tmp_path: Path) -> None:
    assert run("export", finished) == 0
    lines = run.out.splitlines()
    assert msgspec.json.decode(lines[0])["id"] == finished
    target = tmp_path / "game.jsonl"
    assert run("export", finished, "-o", str(target)) == 0
    assert target.read_text().splitlines() == lines
    assert f"exported {len(lines) - 1} events" in run.out


def test_export_of_an_active_game_is_refused(run: Run, active: str, tmp_path: Path) -> None:
    target = tmp_path / "game.jsonl"
    assert run("export", active, "-o", str(target)) == 2
    assert "still in progress" in run.err and not target.exists()


def test_import_verifies_and_keeps_the_hashes(
    run: Run, finished: str, store: EventStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "game.jsonl"
    assert run("export", finished, "-o", str(target)) == 0
    other = Run(tmp_path / "other.db", capsys)
    assert other("import", str(target)) == 0
    assert f"imported {finished}" in other.out and "revealed seed" in other.out
    with SQLiteEventStore(tmp_path / "other.db") as imported:
        assert imported.get_game(finished).head_hash == store.get_game(finished).head_hash
    assert other("import", str(target)) == 2
    assert "already stored" in other.err
    third = Run(tmp_path / "third.db", capsys)
    assert third("--json", "import", "-", stdin=target.read_text()) == 0
    assert msgspec.json.decode(third.out)["imported"]["ok"] is True


def test_import_refuses_a_tampered_file(
    run: Run, finished: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("export", finished) == 0
    lines = run.out.splitlines()
    lines[5] = lines[5].replace('"seat":0', '"seat":1', 1)
    assert lines[5] != run.out.splitlines()[5]
    other = Run(tmp_path / "other.db", capsys)
    assert other("import", "-", stdin="\n".join(lines)) == 1
    assert "import refused" in other.err and "at seq 5" in other.err
    assert other("list") == 0 and other.out == "no games\n"


def test_import_refuses_a_file_that_is_not_an_export(
    run: Run, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = Run(tmp_path / "other.db", capsys)
    assert other("import", "-", stdin="hello\n") == 1
    assert "line 1" in other.err
    assert other("import", str(tmp_path / "missing.jsonl")) == 2
    assert "cannot read" in other.err
