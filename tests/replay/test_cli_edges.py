"""``spies-replay`` at its edges: bad databases, bad values, closed pipes, the terminal.

Every case answers in one line on stderr with exit status 2 (or ends normally), never with a
traceback: an exception escaping ``main`` fails the test.
"""

from __future__ import annotations

import io
import os
import pty
import termios
import threading
import tty
from pathlib import Path

import pytest

from spies_replay.cli import main
from spies_replay.cli.keys import command_for_key, split_keys
from spies_replay.errors import StoreUnavailableError
from spies_replay.store.backends import open_store
from spies_replay.store.protocols import EventStore
from tests.support.counter import finish, new_game, play
from tests.support.countergame import GAMES

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"


class Run:
    """The CLI in-process with the counter game; keeps stdout, stderr and the status."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys
        self.out = self.err = ""

    def __call__(self, *args: str, stdin: str = "", games: object = GAMES) -> int:
        status = main(list(args), games=games, stdin=io.StringIO(stdin))  # type: ignore[arg-type]
        captured = self.capsys.readouterr()
        self.out, self.err = captured.out, captured.err
        return status

    def one_error(self, *args: str) -> str:
        """Run, expect exit 2 and exactly one error line; return it."""
        assert self(*args) == 2, (self.out, self.err)
        lines = self.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("spies-replay: error: "), self.err
        return lines[0]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return Run(capsys)


@pytest.fixture
def game(store: EventStore) -> str:
    game_id = new_game(store, target=9).record.id
    play(store, game_id, 3)
    finish(store, game_id)
    return game_id


# -- the database ---------------------------------------------------------------------------------


def test_a_file_that_is_not_a_database_is_one_line(run: Run, tmp_path: Path) -> None:
    text = tmp_path / "README.md"
    text.write_text("# not a database\n" * 200)
    line = run.one_error("--db", str(text), "list")
    assert line.endswith("it is not a SQLite database")
    assert text.read_text().startswith("# not a database")


def test_a_directory_is_one_line(run: Run, tmp_path: Path) -> None:
    assert run.one_error("--db", str(tmp_path), "list").endswith(
        "it is a directory, not a database file"
    )


def test_a_missing_database_is_one_line_and_not_created(run: Run, tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    assert run.one_error("--db", str(missing), "verify").endswith("no such file")
    assert not missing.exists()


def test_import_into_a_missing_directory_is_refused_not_created(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "typo" / "games.db"
    line = run.one_error("--db", str(target), "import", str(GOLDEN / "deck-of-spies.jsonl"))
    assert f"the directory {target.parent} does not exist" in line
    assert not target.parent.exists()


def test_a_database_under_a_file_is_one_line(run: Run, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    line = run.one_error("--db", str(tmp_path / "file" / "x.db"), "import", "-")
    assert line.endswith("is not a directory")


def test_a_url_is_not_taken_for_a_path(run: Run) -> None:
    line = run.one_error("--db", "mysql://localhost/spies", "list")
    assert line.endswith(
        "not a file path nor a postgresql:// URL; games are stored in a SQLite"
        " file such as spies.db or in PostgreSQL"
    )
    assert not Path("mysql:").exists()


def test_an_unreachable_postgres_server_is_one_line_without_the_password(run: Run) -> None:
    line = run.one_error("--db", "postgresql://spies:hunter2@127.0.0.1:1/spies", "list")
    assert "the server cannot be reached" in line
    assert "hunter2" not in line and "postgresql://spies:***@127.0.0.1:1/spies" in line


def test_a_malformed_postgres_url_is_one_line(run: Run) -> None:
    line = run.one_error("--db", "postgresql://h/db?nonsense=1", "list")
    assert line.endswith("not a valid PostgreSQL URL")


def test_open_store_raises_one_typed_error(tmp_path: Path) -> None:
    for location, reason in [
        (tmp_path, "a directory"),
        (tmp_path / "no" / "x.db", "does not exist"),
        ("sqlite://spies.db", "not a file path"),
        ("postgresql://127.0.0.1:1/spies", "cannot be reached"),
    ]:
        with pytest.raises(StoreUnavailableError) as caught:
            open_store(location)
        assert reason in caught.value.message and "\n" not in caught.value.message
        assert caught.value.code == "store-unavailable"
    with pytest.raises(StoreUnavailableError):
        open_store(tmp_path / "missing.db", create=False)
    with open_store(tmp_path / "new.db") as store:
        assert store.list_games().total == 0


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_database_is_one_line(run: Run, db_path: Path, game: str) -> None:
    db_path.chmod(0)
    try:
        assert "not readable" in run.one_error("--db", str(db_path), "list")
    finally:
        db_path.chmod(0o600)


# -- option values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["list", "--limit", "0"], "expected at least 1, not 0"),
        (["list", "--limit", "-1"], "expected at least 1, not -1"),
        (["list", "--offset", "-5"], "expected at least 0, not -5"),
        (["list", "--limit", "ten"], "expected a whole number, not 'ten'"),
        (["show", "g", "--at", "1.5"], "expected a whole number, not '1.5'"),
        (["show", "g", "--as", "first"], "expected a whole number, not 'first'"),
    ],
)
def test_bad_values_name_what_is_expected(
    run: Run, db_path: Path, game: str, args: list[str], message: str
) -> None:
    assert run("--db", str(db_path), *args) == 2
    assert message in run.err


def test_a_one_seat_game_says_only_seat_0(run: Run, tmp_path: Path) -> None:
    db = str(tmp_path / "golden.db")
    assert run("--db", db, "import", str(GOLDEN / "deck-of-spies.jsonl"), games=None) == 0
    assert run("--db", db, "show", "deck-of-spies", "--as", "1", games=None) == 2
    assert "has only seat 0; there is no seat 1" in run.err


def test_a_step_out_of_range_says_step_0_exists(run: Run, db_path: Path, game: str) -> None:
    line = run.one_error("--db", str(db_path), "show", game, "--at", "-1")
    assert "has steps 0 (before the first event) to" in line and "no step -1" in line


def test_export_to_a_missing_directory_or_a_directory_is_one_line(
    run: Run, db_path: Path, game: str, tmp_path: Path
) -> None:
    line = run.one_error("--db", str(db_path), "export", game, "-o", str(tmp_path / "no" / "x"))
    assert "cannot write" in line and "no such file or directory" in line
    line = run.one_error("--db", str(db_path), "export", game, "-o", str(tmp_path))
    assert "cannot write" in line and "is a directory" in line


class ClosedPipe(io.StringIO):
    """A stdout whose reader has gone away after the first line."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_a_closed_pipe_is_a_normal_end(db_path: Path, game: str) -> None:
    stdout, stderr = ClosedPipe(), io.StringIO()
    status = main(["--db", str(db_path), "export", game], games=GAMES, stdout=stdout, stderr=stderr)
    assert status == 0 and stdout.getvalue().count("\n") == 1 and stderr.getvalue() == ""


# -- wording ----------------------------------------------------------------------------------


def test_one_game_is_singular(run: Run, db_path: Path, game: str) -> None:
    assert run("--db", str(db_path), "list") == 0
    assert run.out.splitlines()[-1] == "1 game"
    assert run("--db", str(db_path), "verify") == 0
    assert "1 game verified, 0 with problems" in run.out


def test_deck_of_spies_counts_and_the_hidden_order(run: Run, tmp_path: Path) -> None:
    db = str(tmp_path / "golden.db")
    assert run("--db", db, "import", str(GOLDEN / "deck-of-spies.jsonl"), games=None) == 0
    screens = []
    for seq in range(0, 40):
        assert run("--db", db, "show", "deck-of-spies", "--at", str(seq), games=None) == 0
        screens.append(run.out)
    text = "\n".join(screens)
    assert " 1 cards" not in text
    assert "spy discard:  1 card (" in text
    assert "to come:" not in text and "still to come, in a hidden order:" in text


# -- step -------------------------------------------------------------------------------------


def _steps(out: str) -> list[int]:
    return [
        int(line.split(" step ")[1].split(" ")[0]) for line in out.splitlines() if " step " in line
    ]


def test_step_starts_at_0_and_first_goes_where_back_goes(
    run: Run, db_path: Path, game: str
) -> None:
    assert run("--db", str(db_path), "step", game, stdin="n\nn\nf\nb\nl\nb\nf\n") == 0
    last = _steps(run.out)[4]
    assert _steps(run.out) == [0, 1, 2, 0, last, last - 1, 0]
    assert "no step -1: the game has steps 0 (before the first event) to" in run.err


def test_step_help_lists_the_keys_and_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["step", "--help"], games=GAMES) == 0
    text = capsys.readouterr().out
    assert "default 0, before the first event" in text and "the last)" not in text
    for key in ("right arrow", "left arrow", "Home", "End", "Esc", "a digit or j"):
        assert key in text


@pytest.mark.parametrize(
    ("key", "command"),
    [
        ("n", "n"),
        (" ", "n"),
        ("\r", "n"),
        ("\x1b[C", "n"),
        ("b", "b"),
        ("\x1b[D", "b"),
        ("f", "f"),
        ("\x1b[H", "f"),
        ("l", "l"),
        ("\x1b[F", "l"),
        ("q", "q"),
        ("\x1b", "q"),
        ("\x04", "q"),
        ("h", "h"),
        ("7", None),
        ("j", None),
        ("x", "x"),
    ],
)
def test_each_key_has_its_command(key: str, command: str | None) -> None:
    assert command_for_key(key) == command


def test_typed_ahead_keys_split_into_single_keys() -> None:
    assert list(split_keys("nn\x1b[Cb\x1b[D\x1bOH12\rq")) == [
        "n",
        "n",
        "\x1b[C",
        "b",
        "\x1b[D",
        "\x1bOH",
        "1",
        "2",
        "\r",
        "q",
    ]


def test_step_on_a_terminal_reads_single_keys_and_restores_the_terminal(
    db_path: Path, game: str
) -> None:
    master, slave = pty.openpty()
    tty.setcbreak(slave, termios.TCSANOW)  # as a person's keys would arrive, one by one
    before = termios.tcgetattr(slave)
    stdin = os.fdopen(slave, "r", closefd=False)
    stdout, stderr = io.StringIO(), io.StringIO()
    os.write(master, b"n\x1b[Cn b\x1b[D4\rl9\x7f\rxq")
    result: list[int] = []
    worker = threading.Thread(
        target=lambda: result.append(
            main(
                ["--db", str(db_path), "step", game],
                games=GAMES,
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
            )
        ),
        daemon=True,
    )
    worker.start()
    worker.join(timeout=30)
    try:
        assert result == [0], stderr.getvalue()
        version = _steps(stdout.getvalue())[-1]
        # n, right, n, space, b, left, 4 Enter, l, 9 Backspace Enter (no number), x, q
        assert _steps(stdout.getvalue()) == [0, 1, 2, 3, 4, 3, 2, 4, version]
        assert "unknown command 'x'" in stderr.getvalue()
        assert "right arrow" in stderr.getvalue()  # the keys, once, at the start
        assert termios.tcgetattr(slave) == before
    finally:
        stdin.close()
        os.close(slave)
        os.close(master)
