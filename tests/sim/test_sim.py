"""The ``spies-sim`` console script: its report, its determinism, its errors, ``--record``."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest

from spies_api.game import create_game, seed_from_client, submit_command
from spies_bots import BOTS, BotSpec
from spies_bots.match import play_match
from spies_bots.random_bot import choose
from spies_core import GAMES
from spies_core.rng import seed_commitment
from spies_replay.reading import read_events, view_at
from spies_replay.store.sqlite import SQLiteEventStore
from spies_sim.cli import main
from spies_sim.stats import wilson


def _seat_counts(game: str) -> list[int]:
    return sorted(GAMES[game].seat_counts)


def _seats(game: str, players: int | None = None, bot: str = "random") -> str:
    return ",".join([bot] * (players or _seat_counts(game)[0]))


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class Result:
    def __init__(self, status: int, out: str, err: str) -> None:
        self.status, self.out, self.err = status, out, err

    def json(self) -> Any:
        return msgspec.json.decode(self.out)


def sim(*argv: str, stderr: io.StringIO | None = None) -> Result:
    out, err = io.StringIO(), stderr or io.StringIO()
    status = main(list(argv), stdout=out, stderr=err)
    return Result(status, out.getvalue(), err.getvalue())


def _without_timing(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k != "timing"}
    if isinstance(value, list):
        return [_without_timing(v) for v in value]
    return value


# -- the report ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players"), [(g, n) for g in GAMES for n in _seat_counts(g)], ids=str
)
def test_json_report_per_seat(game: str, players: int) -> None:
    result = sim(game, "--seats", _seats(game, players), "--games", "4", "--jobs", "1", "--json")
    assert result.status == 0, result.err
    report = result.json()
    assert report["game"] == game and report["games"] == 4 and report["players"] == players
    assert report["seats"] == ["random"] * players
    assert [seat["seat"] for seat in report["per_seat"]] == list(range(players))
    assert report["score_name"] == GAMES[game].score_name
    for seat in report["per_seat"]:
        assert seat["wins"] + seat["shared_wins"] + seat["draws"] + seat["losses"] == 4
        assert seat["win_rate"] == (seat["wins"] + seat["shared_wins"] + seat["draws"] / 2) / 4
        low, high = seat["ci95"]
        assert 0 <= low <= seat["win_rate"] <= high <= 1
        assert seat["decisions"] > 0
        assert seat["timing"]["median_ms"] <= seat["timing"]["worst_ms"]
    assert sum(report["reasons"].values()) == 4
    length = report["length"]["commands"]
    assert length["min"] <= length["mean"] <= length["max"]
    assert report["length"]["events"]["mean"] > length["mean"]
    assert set(report["bots"]) == {"random"}
    assert report["bots"]["random"]["decisions"] == sum(
        seat["decisions"] for seat in report["per_seat"]
    )
    assert report["timing"]["games_per_second"] > 0
    groups = _sides(game, players)
    shared = [group for group in groups.values() if len(group) > 1]
    if shared:  # a team game: one row per side, as its seats fared
        assert [team["seats"] for team in report["teams"]] == list(groups.values())
        for team in report["teams"]:
            seat = report["per_seat"][team["seats"][0]]
            assert (team["wins"], team["shared_wins"], team["draws"], team["losses"]) == (
                seat["wins"],
                seat["shared_wins"],
                seat["draws"],
                seat["losses"],
            )
    else:
        assert report["teams"] == []


def _sides(game: str, players: int) -> dict[int, list[int]]:
    """Seats by the ``side`` their views give (none for games without sides)."""
    spec = GAMES[game]
    match = play_match(
        spec,
        [choose] * players,
        seed=b"sides",
        rngs=[Random(seat) for seat in range(players)],
    )
    groups: dict[int, list[int]] = {}
    for seat, side in enumerate(match.sides):
        if side is not None:
            groups.setdefault(side, []).append(seat)
    return dict(sorted(groups.items()))


def test_text_report() -> None:
    game = next(iter(GAMES))
    result = sim(game, "--seats", _seats(game), "--games", "3", "--jobs", "1")
    assert result.status == 0
    assert "95% CI" in result.out and "games/s" in result.out
    assert "decision time per bot" in result.out and "random" in result.out
    assert result.err == ""  # not a terminal: no progress bar


def test_progress_bar_on_a_terminal() -> None:
    game = next(iter(GAMES))
    terminal = Tty()
    result = sim(game, "--seats", _seats(game), "--games", "3", "--jobs", "1", stderr=terminal)
    assert result.status == 0
    assert "3/3 games" in result.err and "games/s" in result.err


def test_draws_count_half_in_the_interval() -> None:
    assert wilson(5, 10) == wilson(5.0, 10)
    low, high = wilson(2.5, 5)
    assert low < 0.5 < high
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    assert 0 < wilson(1, 10)[0] < 0.1 < wilson(1, 10)[1]


# -- determinism -----------------------------------------------------------------------------


@pytest.mark.slow  # worker processes or subprocesses
@pytest.mark.parametrize("game", list(GAMES))
def test_the_same_seed_gives_the_same_results_for_any_jobs(game: str) -> None:
    args = [game, "--seats", _seats(game), "--games", "6", "--seed", "fixed", "--json"]
    one, two = sim(*args, "--jobs", "1"), sim(*args, "--jobs", "2")
    assert one.status == two.status == 0
    assert _without_timing(one.json()) == _without_timing(two.json())
    other = sim(game, "--seats", _seats(game), "--games", "6", "--seed", "other", "--json")
    assert _without_timing(other.json()) != _without_timing(one.json())


# -- bad input -------------------------------------------------------------------------------


BAD: list[tuple[list[str], str]] = [
    (["no-such-game", "--seats", "random"], "unknown game 'no-such-game'"),
    (["{game}", "--seats", "no-such-bot"], "unknown bot 'no-such-bot'"),
    (["{game}", "--seats", "{too_many}"], "is played by"),
    (["{game}", "--seats", "{seats}", "--options", "{{"], "--options is not valid JSON"),
    (["{game}", "--seats", "{seats}", "--options", "[1]"], "must be a JSON object"),
    (["{game}", "--seats", "{seats}", "--options", '{{"no_such": 1}}'], "no_such"),
    (["{game}", "--seats", "{seats}", "--games", "0"], "--games must be at least 1"),
    (["{game}", "--seats", "{seats}", "--jobs", "0"], "--jobs must be at least 1"),
    (["{game}", "--seats", "{seats}", "--games", "many"], "invalid int value"),
    (["{game}", "--seats", "{seats}", "--seed", ""], "--seed must not be empty"),
    (["{game}"], "required: --seats"),
]


@pytest.mark.parametrize(("argv", "message"), BAD, ids=[m for _, m in BAD])
@pytest.mark.parametrize("game", list(GAMES))
def test_bad_input_is_one_line_and_exit_2_and_writes_nothing(
    argv: list[str], message: str, game: str, tmp_path: Path
) -> None:
    counts = _seat_counts(game)
    fields = {"game": game, "seats": _seats(game), "too_many": _seats(game, counts[-1] + 1)}
    args = [arg.format(**fields) for arg in argv]
    db = tmp_path / "out.db"
    result = sim(*args, "--record", str(db))
    assert result.status == 2
    assert result.out == ""
    assert result.err.startswith("spies-sim: error: ") and result.err.count("\n") == 1
    assert message in result.err
    assert "Traceback" not in result.err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", list(GAMES))
def test_the_wrong_number_of_seats_names_the_allowed_counts(game: str) -> None:
    counts = _seat_counts(game)
    result = sim(game, "--seats", _seats(game, counts[-1] + 1))
    assert result.status == 2
    assert "[invalid-players]" in result.err
    assert all(str(n) in result.err for n in counts)


def test_a_bot_that_does_not_play_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    first, *others = GAMES
    if not others:
        pytest.skip("needs two games")
    monkeypatch.setitem(BOTS, "one-game", BotSpec("one-game", "plays one game", {first: choose}))
    game = others[0]
    result = sim(game, "--seats", _seats(game, bot="one-game"))
    assert result.status == 2
    assert "does not play" in result.err and "[unknown-bot]" in result.err


@pytest.mark.parametrize("where", ["missing-folder", "folder", "not-a-database"])
def test_a_record_path_that_cannot_be_written(where: str, tmp_path: Path) -> None:
    game = next(iter(GAMES))
    target = {
        "missing-folder": tmp_path / "none" / "out.db",
        "folder": tmp_path,
        "not-a-database": tmp_path / "notes.txt",
    }[where]
    if where == "not-a-database":
        target.write_text("not a database, " * 100)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = sim(game, "--seats", _seats(game), "--games", "1", "--record", str(target))
    assert result.status == 2
    assert result.err.startswith("spies-sim: error: --record") and result.err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    if where == "not-a-database":
        assert target.read_text() == "not a database, " * 100


def test_errors_as_json() -> None:
    result = sim("no-such-game", "--seats", "random", "--json")
    assert result.status == 2
    error = result.json()
    assert error == {"error": error["error"], "code": "unknown-game", "exit": 2}
    assert "unknown game 'no-such-game'" in error["error"]


# -- recording -------------------------------------------------------------------------------


@pytest.mark.slow  # worker processes or subprocesses
def test_recorded_games_verify_and_carry_their_seeds(tmp_path: Path) -> None:
    db = tmp_path / "sim.db"
    expected = set()
    for game in GAMES:
        for players in _seat_counts(game):
            seed = f"rec-{game}-{players}"
            result = sim(
                game, "--seats", _seats(game, players), "--games", "3", "--seed", seed,
                "--jobs", "2", "--record", str(db), "--json",
            )  # fmt: skip
            assert result.status == 0, result.err
            assert result.json()["record"] == str(db)
            expected |= {seed_commitment(f"{seed}:{i}".encode()) for i in range(3)}
    with SQLiteEventStore(db) as store:
        records = store.list_games(limit=1000).games
        game_ids = [record.id for record in records]
    assert {record.seed_commitment for record in records} == expected
    assert all(record.status == "finished" for record in records)

    replay = Path(sys.executable).with_name("spies-replay")
    verified = subprocess.run(
        [str(replay), "--db", str(db), "verify", "--all"], capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"{len(expected)} games verified, 0 with problems" in verified.stdout
    shown = subprocess.run(
        [str(replay), "--db", str(db), "show", game_ids[0], "--at", "3"],
        capture_output=True,
        text=True,
    )
    assert shown.returncode == 0, shown.stderr


@pytest.mark.parametrize(
    ("game", "players"), [(g, n) for g in GAMES for n in _seat_counts(g)], ids=str
)
def test_bots_see_what_the_server_serves_at_every_step(
    game: str, players: int, tmp_path: Path
) -> None:
    """A game played in memory and the same game recorded by the engine agree step by step:
    the same deal, the same version, and at every decision the view the API would serve."""
    spec = GAMES[game]
    seen: list[tuple[Any, list[Any]]] = []

    def watching(view: Any, legal: Any, rng: Random) -> Any:
        seen.append((view, list(legal)))
        return choose(view, legal, rng)

    rngs = [Random(seat) for seat in range(players)]
    match = play_match(spec, [watching] * players, seed=seed_from_client("views"), rngs=rngs)
    with SQLiteEventStore(tmp_path / "views.db") as store:
        created = create_game(store, game, players, None, seed="views")
        game_id, state, version = created.record.id, created.state, created.record.version
        outcome = None
        for (seat, command), (view, legal) in zip(match.commands, seen, strict=True):
            served = view_at(store, game_id, seat=seat)
            # the seats' names are filled in for clients; a bot is never shown them
            assert msgspec.structs.replace(served.view, names=[]) == view
            assert spec.legal_commands(served.state, seat) == legal
            result = submit_command(store, game_id, seat, command, state=state, version=version)
            state, version, outcome = result.state, result.version, result.outcome
    assert outcome == match.outcome
    assert version == 1 + match.events + 1  # game_created, the game, seed_revealed


@pytest.mark.slow  # worker processes or subprocesses
def test_the_console_script_is_quiet_when_piped(tmp_path: Path) -> None:
    game = next(iter(GAMES))
    script = Path(sys.executable).with_name("spies-sim")
    done = subprocess.run(
        [str(script), game, "--seats", _seats(game), "--games", "2", "--jobs", "1"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert done.stderr == ""
    assert "games/s" in done.stdout
    bad = subprocess.run([str(script), game, "--seats", "nobody"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_games_are_recorded_into_postgres_and_verify(tmp_path: Path) -> None:
    from spies_replay.store.backends import open_store
    from spies_replay.verify import verify_all
    from tests.support.backends import POSTGRES_SKIP_REASON, fresh_backend, postgres_base_url

    if postgres_base_url() is None:
        pytest.skip(POSTGRES_SKIP_REASON)
    game = next(iter(GAMES))
    with fresh_backend("postgres", tmp_path) as backend:
        result = sim(
            game, "--seats", _seats(game), "--games", "2", "--seed", "pg", "--record",
            backend.location, "--json",
        )  # fmt: skip
        assert result.status == 0, result.err
        assert result.json()["record"] == backend.location  # no password in this URL
        with open_store(backend.location, create=False) as store:
            reports = verify_all(store)
        assert len(reports) == 2 and all(report.ok for report in reports)


def test_an_unreachable_record_database_is_one_line() -> None:
    game = next(iter(GAMES))
    url = "postgresql://spies:secret@127.0.0.1:1/spies"
    result = sim(game, "--seats", _seats(game), "--games", "1", "--record", url)
    assert result.status == 2 and result.err.count("\n") == 1
    assert "cannot be reached" in result.err and "secret" not in result.err


# -- checkpoint ------------------------------------------------------------------------------


def test_a_run_resumed_from_its_checkpoint_reports_as_one_run(tmp_path: Path) -> None:
    game = next(iter(GAMES))
    file = tmp_path / "run.jsonl"
    args = [game, "--seats", _seats(game), "--seed", "resume", "--jobs", "1", "--json"]
    whole = sim(*args, "--games", "6")
    first = sim(*args, "--games", "2", "--checkpoint", str(file))
    assert first.status == 0 and first.json()["checkpoint"]["resumed"] == 0
    with file.open("ab") as cut:  # a kill in the middle of writing a line
        cut.write(b'{"index": 5, "winn')
    rest = sim(*args, "--games", "6", "--checkpoint", str(file))
    assert rest.status == 0
    report = rest.json()
    assert report["checkpoint"] == {"path": str(file), "resumed": 2}
    assert report["timing"]["played"] == 4
    del report["checkpoint"]
    assert _without_timing(report) == _without_timing(whole.json())
    lines = file.read_bytes().splitlines()
    assert len(lines) == 1 + 6
    again = sim(*args, "--games", "6", "--checkpoint", str(file))
    repeated = again.json()
    assert repeated["timing"]["played"] == 0 and repeated.pop("checkpoint")["resumed"] == 6
    assert _without_timing(repeated) == _without_timing(report)
    assert file.read_bytes().splitlines() == lines


@pytest.mark.parametrize("content", ["another run", "not a checkpoint", "damaged line"])
def test_a_checkpoint_of_another_run_is_refused_untouched(content: str, tmp_path: Path) -> None:
    game = next(iter(GAMES))
    file = tmp_path / "run.jsonl"
    base = [game, "--seats", _seats(game), "--games", "2", "--jobs", "1"]
    assert sim(*base, "--seed", "a", "--checkpoint", str(file)).status == 0
    if content == "not a checkpoint":
        file.write_text("hello\n")
    elif content == "damaged line":
        lines = file.read_text().splitlines()
        file.write_text("\n".join([lines[0], "{oops", *lines[1:]]) + "\n")
    before = file.read_bytes()
    result = sim(
        *base, "--seed", "b" if content == "another run" else "a", "--checkpoint", str(file)
    )
    assert result.status == 2 and result.err.count("\n") == 1
    assert {
        "another run": "holds another run",
        "not a checkpoint": "is not a spies-sim",
        "damaged line": "line 2 is damaged",
    }[content] in result.err
    assert file.read_bytes() == before


def test_checkpoint_and_record_are_not_combined(tmp_path: Path) -> None:
    game = next(iter(GAMES))
    result = sim(
        game,
        "--seats",
        _seats(game),
        "--checkpoint",
        str(tmp_path / "c"),
        "--record",
        str(tmp_path / "r.db"),
    )
    assert result.status == 2 and "cannot be combined" in result.err
    assert list(tmp_path.iterdir()) == []


# -- recording with a clock ------------------------------------------------------------------

CLOCK = '{"turn_seconds": 60, "budget_seconds": 600, "increment_seconds": 2}'


@pytest.mark.parametrize("game", list(GAMES))
def test_recorded_games_with_a_clock_verify_every_clock(game: str, tmp_path: Path) -> None:
    from spies_replay.cli.bots import REGISTERED_BOTS  # noqa: PLC0415
    from spies_replay.verify import verify_all  # noqa: PLC0415

    db = tmp_path / "clocked.db"
    clocked = sim(
        game, "--seats", _seats(game), "--games", "2", "--jobs", "1", "--json",
        "--record", str(db), "--clock", CLOCK,
    )  # fmt: skip
    assert clocked.status == 0, clocked.err
    assert clocked.json()["record"] == str(db)
    with SQLiteEventStore(db) as store:
        records = store.list_games(limit=10).games
        assert len(records) == 2 and all(r.status == "finished" for r in records)
        for record in records:
            logged = read_events(store, record.id)
            created = logged[0].event
            assert created.clock is not None and created.clock.budget_seconds == 600
            moves = sum(1 for e in logged if e.actor is not None and e.type != "clocks_updated")
            updated = [e for e in logged if e.type == "clocks_updated"]
            assert updated and len(updated) >= moves // 2  # a clock after (nearly) every move
            assert not [e for e in logged if e.type in ("clock_expired", "clocks_resumed")]
        reports = verify_all(store, bots=REGISTERED_BOTS)
    assert [r.ok for r in reports] == [True, True], [r.problem for r in reports]
    assert all(not r.caveats for r in reports)


@pytest.mark.parametrize(
    ("game", "clock", "needs"),
    [
        ("deck-of-spies", CLOCK, "--record"),
        ("deck-of-spies", "{}", "turn_seconds, budget_seconds"),
        ("deck-of-spies", '{"turn_seconds": 0.01}', "too short"),
        ("deck-of-spies", '{"turn_seconds": -5}', "not a number of seconds"),
        ("deck-of-spies", '{"turn_seconds": "30"}', "--clock"),
        ("deck-of-spies", '{"turn_seconds": 30, "tempo": 1}', "tempo"),
        ("deck-of-spies", '{"turn_seconds": 30, "increment_seconds": 1}', "budget_seconds"),
        ("deck-of-spies", "{30s", "not valid JSON"),
        ("deck-of-spies", "30", "--clock: Expected `object`"),
        ("black-spy", '{"turn_seconds": 30, "on_timeout": "forfeit"}', "forfeit"),
        ("deck-of-spies", '{"turn_seconds": 30, "timeout_bot": "wizard"}', "unknown-bot"),
    ],
)
def test_a_bad_clock_is_refused_before_anything_is_written(
    game: str, clock: str, needs: str, tmp_path: Path
) -> None:
    db = tmp_path / "never.db"
    record = [] if needs == "--record" else ["--record", str(db)]
    result = sim(game, "--seats", _seats(game), "--games", "1", *record, "--clock", clock)
    assert result.status == 2, result.err
    assert result.err.startswith("spies-sim: error: --clock") or needs == "unknown-bot"
    assert needs in result.err and result.err.count("\n") == 1
    assert not db.exists()
