"""Seat events in the replay log: decided in the write transaction, hash-chained, skipped by
the fold, checked by verify (a seat event that does not fit, a false bot marker), exported
and imported."""

from __future__ import annotations

import pytest

from spies_api.game import SeatChoice, create_game, submit_command
from spies_replay.errors import GameFinishedError, SeatTakenError
from spies_replay.meta import (
    SeatHandedToBot,
    SeatJoined,
    SeatState,
    SeatTakenBack,
    SeatType,
    is_meta,
    seat_table,
)
from spies_replay.reading import load_state, read_events
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game
from spies_replay.verify import verify_game
from tests.support.counter import append, finish
from tests.support.countergame import GAMES, Bump
from tests.support.seats import change_seat

OPEN_SECOND = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN)]


def join(seat: int, name: str) -> SeatChoice:
    def choose(seats: list[SeatState], tokens: dict[int, str]) -> SeatJoined:
        if seats[seat].type != SeatType.OPEN:
            raise SeatTakenError(f"seat {seat} is taken")
        return SeatJoined(seat=seat, name=name)

    return choose


def test_a_join_is_one_hash_chained_event_the_fold_skips(store: EventStore) -> None:
    two_open = [*OPEN_SECOND, SeatState(seat=2, type=SeatType.OPEN)]
    created = create_game(
        store, "counter", 3, {"target": 12}, seed="s", seats=two_open, games=GAMES
    )
    game_id = created.record.id
    assert created.tokens[1] is None and created.tokens[0] is not None
    change = change_seat(store, game_id, join(1, "Grace"), token_hash="ab" * 32, games=GAMES)
    assert change.event is not None and change.event.type == "seat_joined"
    assert change.version == created.record.version + 1 and not change.dealt
    assert store.get_game(game_id).head_hash == change.event.hash
    assert [s.name for s in store.seat_states(game_id)] == [None, "Grace", None]
    assert (
        load_state(store, game_id, games=GAMES).state == created.state
    )  # nothing for the game itself
    with pytest.raises(SeatTakenError):
        change_seat(store, game_id, join(1, "Eve"), games=GAMES)
    assert store.get_game(game_id).version == change.version  # nothing appended
    assert verify_game(store, game_id, games=GAMES).ok


def test_seats_are_final_once_the_game_is_over(store: EventStore) -> None:
    created = create_game(
        store, "counter", 2, {"target": 3}, seed="s", seats=OPEN_SECOND, games=GAMES
    )
    change_seat(store, created.record.id, join(1, "Grace"), games=GAMES)
    finish(store, created.record.id)
    with pytest.raises(GameFinishedError):
        change_seat(store, created.record.id, join(1, "Eve"), games=GAMES)


def test_seat_events_export_import_and_fold_into_the_seat_table(
    store: EventStore,
) -> None:
    created = create_game(
        store, "counter", 2, {"target": 6}, seed="s", seats=OPEN_SECOND, games=GAMES
    )
    game_id = created.record.id
    change_seat(store, game_id, join(1, "Grace"), games=GAMES)
    change_seat(
        store, game_id, lambda seats, tokens: SeatHandedToBot(seat=0, bot="random"), games=GAMES
    )
    loaded = load_state(store, game_id, games=GAMES)
    submit_command(
        store,
        game_id,
        0,
        Bump(by=1),
        state=loaded.state,
        version=loaded.seq,
        bot="random",
        games=GAMES,
    )
    change_seat(store, game_id, lambda seats, tokens: SeatTakenBack(seat=0), games=GAMES)
    finish(store, game_id)
    lines = list(export_lines(store, game_id))
    with SQLiteEventStore(store.path.with_name("other.db")) as other:
        assert import_game(other, lines, games=GAMES).ok
        assert other.seat_states(game_id) == [
            SeatState(seat=0),
            SeatState(seat=1, type=SeatType.JOINED, name="Grace"),
        ]
        meta = [e.event for e in read_events(other, game_id, games=GAMES) if is_meta(e.event)]
        assert seat_table(meta) == other.seat_states(game_id)


def test_verify_finds_a_false_bot_marker(store: EventStore) -> None:
    created = create_game(store, "counter", 2, {"target": 12}, seed="s", games=GAMES)
    game_id = created.record.id
    loaded = load_state(store, game_id, games=GAMES)
    # The engine records what it is given; no bot plays seat 0 here.
    result = submit_command(
        store,
        game_id,
        0,
        Bump(by=1),
        state=loaded.state,
        version=loaded.seq,
        bot="random",
        games=GAMES,
    )
    report = verify_game(store, game_id, games=GAMES)
    assert not report.ok and report.problem is not None
    assert report.problem.code == "bot-mismatch" and report.problem.seq == result.events[0].seq


def test_verify_finds_a_seat_event_that_does_not_fit(store: EventStore) -> None:
    created = create_game(store, "counter", 2, {"target": 12}, seed="s", games=GAMES)
    game_id = created.record.id
    # A writer that skipped the seat rules: seat 0 is the creator's, not open.
    stored = append(store, game_id, created.record.version, [SeatJoined(seat=0, name="Mallory")])
    report = verify_game(store, game_id, games=GAMES)
    assert report.problem is not None
    assert report.problem.code == "seat-event-invalid" and report.problem.seq == stored[0].seq
