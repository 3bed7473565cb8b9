"""An operator ends a game in progress: ``game_aborted`` (reason ``aborted``, the operator's
words), the clocks stopped, ``seed_revealed``; nobody wins. The end goes through the store's
append (a game that moved on meanwhile is read again), verifies like any end, is carried by
export and import, and ``spies-replay abort`` says what it did with its exit status. A forged
abort is refused where it gives itself away.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from spies_api.game import (
    ABORT_ATTEMPTS,
    abort_game,
    create_game,
    load_head,
    prepare_abort,
    submit_command,
)
from spies_core.clock import TimeControl
from spies_core.decider import Outcome
from spies_core.registry import GAMES
from spies_replay.cli import main
from spies_replay.clocks import from_ms, to_ms
from spies_replay.errors import GameFinishedError, GameNotFoundError, VersionConflictError
from spies_replay.meta import ABORT_DETAIL_MAX, SeatState, SeatType
from spies_replay.store.backends import open_store
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameStatus, utc_now
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game, read_export
from spies_replay.verify import VerifyReport, verify_game, verify_log
from tests.support.backends import BACKENDS, fresh_backend
from tests.support.botgames import REGISTERED, edit_payload, play_with_bots, rechain

ABORTED = Outcome(winners=(), reason="aborted")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    with SQLiteEventStore(tmp_path / "abort.db") as opened:
        yield opened


def in_play(store: EventStore, game: str = "black-spy", commands: int = 8) -> str:
    """A game of bots (and a person in Black Spy), ``commands`` commands in (from a client
    seed: the same game every run, still in progress then)."""
    bots = {"black-spy": [None, "random", "greedy"], "spies-and-lies": ["random", "greedy"]}
    game_id = play_with_bots(store, game, bots[game], seed=f"abort-{game}", commands=commands)
    assert store.get_game(game_id).status == GameStatus.ACTIVE
    return game_id


def log_of(store: EventStore, game_id: str) -> tuple[GameRecord, list[EventRow]]:
    return read_export(export_lines(store, game_id))


# -- the end in the log ----------------------------------------------------------------------


@pytest.mark.parametrize("game", ["black-spy", "spies-and-lies"])
def test_an_aborted_game_is_over_with_nobody_winning_and_verifies(
    store: EventStore, tmp_path: Path, game: str
) -> None:
    game_id = in_play(store, game)
    version = store.get_game(game_id).version
    prepared = abort_game(store, game_id, detail="a runaway table")
    assert [e.type for e in prepared.events] == ["game_aborted", "seed_revealed"]
    aborted = prepared.events[0].event
    assert (aborted.reason, aborted.detail) == ("aborted", "a runaway table")
    assert prepared.outcome == ABORTED
    record = store.get_game(game_id)
    assert record.status == GameStatus.FINISHED and record.outcome == ABORTED
    assert record.version == version + 2 == prepared.head.version
    report = verify_game(store, game_id, bots=REGISTERED)
    assert report.ok, report.problem
    assert report.bot_moves_rederived > 0 and report.rederived == "revealed-seed"
    with SQLiteEventStore(tmp_path / "elsewhere.db") as other:
        assert import_game(other, export_lines(store, game_id), bots=REGISTERED).ok
        assert list(export_lines(other, game_id)) == list(export_lines(store, game_id))
        assert other.get_game(game_id).outcome == ABORTED


def test_the_clocks_stop_with_the_time_each_ran_charged(store: EventStore) -> None:
    spec = GAMES["spies-and-lies"]
    start = to_ms("2026-12-01T12:00:00.000000Z")
    control = TimeControl(turn_seconds=60, budget_seconds=600)
    created = create_game(store, "spies-and-lies", 2, clock=control, created_at=from_ms(start))
    head = created.head
    assert head.clock is not None and all(c.since_ms == start for c in head.clock.seats)
    prepared = prepare_abort(
        spec, head, reason="aborted", detail="stop", recorded_at=from_ms(start + 7_500)
    )
    assert [e.type for e in prepared.events] == ["game_aborted", "clocks_updated", "seed_revealed"]
    stopped = prepared.events[1].event.seats
    assert [(c.since_ms, c.remaining_ms) for c in stopped] == [(None, 592_500)] * 2
    store.append(prepared.append)
    assert verify_game(store, head.id, bots=REGISTERED).ok
    assert load_head(store, head.id).clock == prepared.head.clock


def test_an_abort_is_refused_on_a_finished_or_missing_game(store: EventStore) -> None:
    finished = play_with_bots(store, "spies-and-lies", ["random", "random"])
    with pytest.raises(GameFinishedError):
        abort_game(store, finished, detail="too late")
    with pytest.raises(GameNotFoundError):
        abort_game(store, "no-such-game", detail="nothing")
    game_id = in_play(store)
    abort_game(store, game_id, detail="once")
    with pytest.raises(GameFinishedError):
        abort_game(store, game_id, detail="twice")
    assert store.get_game(game_id).version == len(store.read_rows(game_id))


@pytest.mark.parametrize(
    ("reason", "detail", "says"),
    [
        ("aborted", "", "must not be empty"),
        ("aborted", "   ", "must not be empty"),
        ("aborted", "x" * (ABORT_DETAIL_MAX + 1), f"at most {ABORT_DETAIL_MAX}"),
        ("aborted", "clear\x1b[2J", "U+001B"),
        ("aborted", "two\nlines", "U+000A"),
        ("aborted", "evil\u202etxt", "U+202E"),
        ("paused", "why", "unknown abort reason 'paused'"),
    ],
)
def test_words_that_cannot_be_recorded_append_nothing(
    store: EventStore, reason: str, detail: str, says: str
) -> None:
    game_id = in_play(store)
    version = store.get_game(game_id).version
    with pytest.raises(ValueError, match=re.escape(says)):
        abort_game(store, game_id, reason=reason, detail=detail)
    assert store.get_game(game_id).version == version


def test_the_lobby_ends_an_abandoned_game_the_same_way(store: EventStore) -> None:
    """``prepare_abort`` is the pure part another caller (the server's lobby) appends with
    the reason ``abandoned``: a table still waiting for players when its open seats expire
    (verify takes ``abandoned`` from nothing else: ``tests/replay/test_deferred_deal.py``)."""
    seats = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN), SeatState(seat=2)]
    game_id = create_game(store, "black-spy", 3, seats=seats, open_seat_ttl=60).record.id
    head = load_head(store, game_id)
    assert head.open_until is not None
    prepared = prepare_abort(
        GAMES[head.game],
        head,
        reason="abandoned",
        detail="open seats expired",
        recorded_at=head.open_until,
    )
    store.append(prepared.append)
    assert store.get_game(game_id).outcome == Outcome(winners=(), reason="abandoned")
    assert verify_game(store, game_id, bots=REGISTERED).ok


def test_a_game_that_moved_on_meanwhile_is_read_again(store: EventStore) -> None:
    """A server appends between the abort's read of the head and its append: the version
    check refuses the first try, and the abort is sealed again after the server's move."""
    game_id = play_with_bots(store, "black-spy", [None, None, None], commands=5)
    spec = GAMES["black-spy"]
    moved: list[int] = []

    def server_moves_first() -> str:
        if not moved:
            head = load_head(store, game_id)
            seat = min(spec.to_act(head.state))
            command = spec.legal_commands(head.state, seat)[0]
            moved.append(submit_command(store, game_id, seat, command).version)
        return utc_now()

    prepared = abort_game(store, game_id, detail="stop", clock=server_moves_first)
    assert prepared.events[0].seq == moved[0] + 1
    assert verify_game(store, game_id, bots=REGISTERED).ok


def test_a_game_that_keeps_moving_is_refused_clearly(store: EventStore) -> None:
    game_id = play_with_bots(store, "spies-and-lies", [None, None], commands=0)
    spec = GAMES["spies-and-lies"]

    def always_first() -> str:
        head = load_head(store, game_id)
        seat = min(spec.to_act(head.state))
        submit_command(store, game_id, seat, spec.legal_commands(head.state, seat)[0])
        return utc_now()

    with pytest.raises(VersionConflictError):
        abort_game(store, game_id, detail="stop", clock=always_first)
    assert ABORT_ATTEMPTS > 1
    assert "game_aborted" not in {row.type for row in store.read_rows(game_id)}
    assert store.get_game(game_id).status == GameStatus.ACTIVE


def test_an_abort_is_never_recorded_before_the_last_event(store: EventStore) -> None:
    """The operator's machine may run behind the server's clock: the log's times never run
    backwards, so the abort takes the last event's time."""
    game_id = in_play(store)
    last = store.read_rows(game_id)[-1].recorded_at
    prepared = abort_game(
        store, game_id, detail="stop", clock=lambda: "2000-01-01T00:00:00.000000Z"
    )
    assert prepared.events[0].recorded_at == last
    assert verify_game(store, game_id, bots=REGISTERED).ok


# -- forged aborts ---------------------------------------------------------------------------


def problem(record: GameRecord, rows: list[EventRow]) -> tuple[int | None, str]:
    report: VerifyReport = verify_log(GAMES, *rechain(record, rows), bots=REGISTERED).report
    assert report.problem is not None, "the forgery passed"
    return report.problem.seq, report.problem.code


@pytest.fixture
def aborted(store: EventStore) -> tuple[GameRecord, list[EventRow]]:
    game_id = in_play(store)
    abort_game(store, game_id, detail="stop")
    return log_of(store, game_id)


def test_a_move_after_the_abort_is_caught(
    store: EventStore, aborted: tuple[GameRecord, list[EventRow]]
) -> None:
    record, rows = aborted
    command = next(row for row in rows if row.command is not None and row.actor == 0)
    forged = [*rows[:-1], msgspec.structs.replace(command, recorded_at=rows[-1].recorded_at)]
    assert problem(record, [*forged, rows[-1]]) == (len(rows), "event-after-end")
    game_event = next(row for row in rows if row.type.startswith("black_spy_card"))
    late = msgspec.structs.replace(game_event, recorded_at=rows[-1].recorded_at)
    assert problem(record, [*rows[:-1], late, rows[-1]]) == (len(rows), "event-after-end")


def test_abort_words_that_are_not_printable_are_caught(
    aborted: tuple[GameRecord, list[EventRow]],
) -> None:
    record, rows = aborted
    forged = edit_payload(rows, len(rows) - 1, detail="\x1b]0;pwned\x07")
    assert problem(record, forged) == (len(rows) - 1, "abort-invalid")


def test_an_abort_relabelled_as_a_win_is_caught(
    aborted: tuple[GameRecord, list[EventRow]],
) -> None:
    record, rows = aborted
    won = msgspec.structs.replace(record, outcome=Outcome(winners=(1,), reason="aborted"))
    assert problem(won, rows) == (len(rows), "outcome-mismatch")


def test_a_clocked_abort_without_its_clocks_is_caught(store: EventStore) -> None:
    control = TimeControl(turn_seconds=60)
    created = create_game(store, "spies-and-lies", 2, clock=control)
    abort_game(store, created.record.id, detail="stop")
    record, rows = log_of(store, created.record.id)
    assert [row.type for row in rows[-3:]] == ["game_aborted", "clocks_updated", "seed_revealed"]
    assert problem(record, [*rows[:-2], rows[-1]]) == (len(rows) - 1, "clocks-missing")


# -- spies-replay abort ----------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_spies_replay_abort_ends_a_game_and_says_so(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fresh_backend(backend, tmp_path) as found:
        location = found.location
        with open_store(location) as opened:
            game_id = in_play(opened)
            finished = play_with_bots(opened, "spies-and-lies", ["random", "random"])

        def run(*args: str) -> tuple[int, str, str]:
            status = main(["--db", location, *args], stdin=io.StringIO())
            captured = capsys.readouterr()
            return status, captured.out, captured.err

        status, out, err = run("abort", game_id, "--reason", "cheating reported")
        assert status == 0, err
        assert out.startswith(f"aborted {game_id} (black-spy) at version ")
        assert "game_aborted, seed_revealed" in out
        assert run("verify", game_id)[0] == 0
        status, out, _ = run("--json", "show", game_id)
        assert status == 0

        status, _, err = run("abort", game_id, "--reason", "again")
        assert status == 1 and "is finished already (outcome: aborted)" in err
        status, _, err = run("abort", finished, "--reason", "late")
        assert status == 1 and "is finished already" in err
        status, out, err = run("--json", "abort", "no-such-game", "--reason", "x")
        assert status == 1 and "no game 'no-such-game'" in err
        assert json.loads(out) == {"error": err.split("error: ", 1)[1].strip(), "exit": 1}
        with open_store(location) as opened:
            assert verify_game(opened, game_id, bots=REGISTERED).ok


def test_spies_replay_abort_json_and_usage(
    store: EventStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = in_play(store)
    location = str(tmp_path / "abort.db")

    def run(*args: str) -> int:
        return main(["--db", location, *args], stdin=io.StringIO())

    assert run("abort", game_id) == 2  # --reason is required
    assert "--reason" in capsys.readouterr().err
    assert run("abort", game_id, "--reason", "bell\x07") == 2
    assert "U+0007" in capsys.readouterr().err
    assert run("abort", game_id, "--reason", "x" * (ABORT_DETAIL_MAX + 1)) == 2
    capsys.readouterr()
    assert store.get_game(game_id).status == GameStatus.ACTIVE
    assert run("--json", "abort", game_id, "--reason", "maintenance") == 0
    answer = json.loads(capsys.readouterr().out)
    record = store.get_game(game_id)
    assert answer == {
        "aborted": game_id,
        "game": "black-spy",
        "version": record.version,
        "head_hash": record.head_hash,
        "outcome": {"winners": [], "reason": "aborted", "draw": False, "scores": []},
        "events": ["game_aborted", "seed_revealed"],
    }
