"""A game created with an open seat deals when its last open seat is taken.

Its log holds ``game_created`` (``deal_deferred``, the seed's commitment) and its seats, but
no setup event: nobody, its creator included, is dealt a hand before the table is full, so a
creator cannot create games until it likes a deal. The join that takes the last open seat
appends ``seat_joined``, then the setup events drawn exactly as creation draws them
(``FairRng(seed, 0)``), then the clocks starting. Verify, export and import, replay and the
console's ``show`` read the setup where it is; a forged log that deals early, late, or
defers with no open seat is refused.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from spies_api.game import create_game, load_head, prepare_abort
from spies_api.game.loading import fold_head, kept_head
from spies_core.clock import TimeControl
from spies_core.registry import GAMES, get_game
from spies_core.rng import ALGORITHM, FairRng, seed_commitment
from spies_core.step import setup
from spies_replay.cli import main
from spies_replay.codec import chain_of, genesis_hash, seal
from spies_replay.meta import (
    ClocksUpdated,
    GameCreated,
    SeatHandedToBot,
    SeatJoined,
    SeatState,
    SeatType,
    SeedSource,
    is_meta,
)
from spies_replay.reading import read_events, view_at
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameStatus
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game
from spies_replay.verify import verify_game, verify_log
from tests.support.playouts import play_out
from tests.support.seats import change_seat

SEED = "lobby-deal"
CREATED_AT = "2026-11-29T17:00:00.000000Z"
JOINED_AT = "2026-11-29T17:05:00.000000Z"


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with SQLiteEventStore(tmp_path / "spies.db") as opened:
        yield opened


def lobby_seats(players: int) -> list[SeatState]:
    """Seat 0 the creator's and every other seat open (a one-seat game: that seat open)."""
    if players == 1:
        return [SeatState(seat=0, type=SeatType.OPEN)]
    return [SeatState(seat=0), *(SeatState(seat=s, type=SeatType.OPEN) for s in range(1, players))]


def join(seat: int, name: str) -> Any:
    return lambda seats, tokens: SeatJoined(seat=seat, name=name)


def at(when: str) -> Any:
    return lambda: when


@pytest.mark.parametrize("game", sorted(GAMES))
def test_nothing_is_dealt_until_the_last_open_seat_is_taken(store: EventStore, game: str) -> None:
    spec = GAMES[game]
    players = max(spec.min_players, 1)
    created = create_game(
        store, game, players, seed=SEED, seats=lobby_seats(players), created_at=CREATED_AT
    )
    game_id = created.record.id
    logged = read_events(store, game_id)
    assert [e.type for e in logged] == ["game_created"]
    first = logged[0].event
    assert isinstance(first, GameCreated) and first.deal_deferred
    assert created.state == spec.initial_state() and load_head(store, game_id).waiting
    for seat in range(players):  # no seat sees a hand, nobody is to act
        view = view_at(store, game_id, seat=seat).view
        assert view.dealt is False and not spec.legal_commands(created.state, seat)
    assert not spec.to_act(created.state)

    open_seats = [s.seat for s in lobby_seats(players) if s.type == SeatType.OPEN]
    for number, seat in enumerate(open_seats):
        last = number == len(open_seats) - 1
        before = store.get_game(game_id).version
        change = change_seat(store, game_id, join(seat, f"p{seat}"), clock=at(JOINED_AT))
        batch = read_events(store, game_id, after=before)
        assert change.dealt is last
        # the join kept the head after it (dealt, its clocks running), as a fold makes it
        assert kept_head(store.head_row(game_id)) == fold_head(store, game_id)
        if not last:
            assert [e.type for e in batch] == ["seat_joined"]
    started = setup(spec, players, {}, FairRng(SEED.encode(), 0))
    assert [e.type for e in batch] == ["seat_joined", *(type_of(e) for e in started.events)]
    assert [e.event for e in batch[1:]] == list(started.events)
    head = load_head(store, game_id)
    assert not head.waiting and head.state == started.state and spec.to_act(head.state)
    assert view_at(store, game_id, seat=0).view.dealt is True
    assert view_at(store, game_id, at=before + 1, seat=0).view.dealt is False  # the join alone
    assert verify_game(store, game_id).ok


def type_of(event: Any) -> str:
    return str(event.__struct_config__.tag)


def test_the_deal_matches_a_game_dealt_at_creation_from_the_same_seed(store: EventStore) -> None:
    held = create_game(store, "black-spy", 4, seed=SEED)
    lobby = create_game(store, "black-spy", 4, seed=SEED, seats=lobby_seats(4))
    for seat in (1, 2, 3):
        change_seat(store, lobby.record.id, join(seat, f"p{seat}"))
    dealt = [e.event for e in read_events(store, lobby.record.id) if not is_meta(e.event)]
    assert dealt == [e.event for e in held.events[1:]]
    assert load_head(store, lobby.record.id).state == held.state


def test_a_clocked_lobby_game_starts_its_clocks_at_the_deal(store: EventStore) -> None:
    control = TimeControl(turn_seconds=30)
    created = create_game(
        store,
        "spies-and-lies",
        2,
        seats=lobby_seats(2),
        clock=control,
        created_at=CREATED_AT,
    )
    game_id = created.record.id
    waiting = load_head(store, game_id)
    assert waiting.clock is not None and all(c.since_ms is None for c in waiting.clock.seats)
    assert waiting.due_at(GAMES["spies-and-lies"], CREATED_AT) is None  # no deadline
    assert verify_game(store, game_id).ok  # no clocks are due while it waits for its deal
    change_seat(store, game_id, join(1, "Grace"), clock=at(JOINED_AT))
    last = read_events(store, game_id)[-1]
    assert isinstance(last.event, ClocksUpdated) and last.recorded_at == JOINED_AT
    assert any(c.since_ms is not None for c in last.event.seats)
    head = load_head(store, game_id)
    assert head.due_at(GAMES["spies-and-lies"], JOINED_AT) is not None  # a deadline now
    assert verify_game(store, game_id).ok


def test_a_finished_lobby_game_exports_imports_replays_and_shows(
    store: EventStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    created = create_game(store, "deck-of-spies", 1, seats=lobby_seats(1))
    game_id = created.record.id
    change_seat(store, game_id, join(0, "Ada"))
    play_out(store, game_id, 5)
    assert store.get_game(game_id).status is GameStatus.FINISHED
    assert verify_game(store, game_id).ok
    lines = list(export_lines(store, game_id))
    with SQLiteEventStore(tmp_path / "other.db") as other:
        report = import_game(other, io.BytesIO(b"".join(lines)))
        assert report.ok, report.problem
        assert view_at(other, game_id, at=2, seat=0).view.dealt is False
        assert view_at(other, game_id, at=3, seat=0).view.dealt is True
    status = main(["--db", str(tmp_path / "spies.db"), "show", game_id, "--at", "2"])
    out = capsys.readouterr().out
    assert status == 0 and "nothing dealt yet" in out and "joined by Ada" in out


def test_a_rematch_with_unclaimed_seats_deals_at_once(store: EventStore) -> None:
    """Every seat of a rematch has a known holder (only the previous holder can compute its
    token), and a game has one rematch: its first caller cannot shop for deals."""
    first = create_game(store, "deck-of-spies", 1, seats=lobby_seats(1))
    change_seat(store, first.record.id, join(0, "Ada"))
    play_out(store, first.record.id, 5)
    holders = store.seat_states(first.record.id)
    rematch = create_game(
        store,
        "deck-of-spies",
        1,
        seats=holders,
        tokens={},
        rematch_of=first.record.id,
    )
    assert not rematch.deal_deferred and rematch.state != GAMES["deck-of-spies"].initial_state()


# -- forged logs -----------------------------------------------------------------------------


def forged(
    game: str, players: int, events: list[Any], *, joined_at: int
) -> tuple[GameRecord, list[EventRow]]:
    """A log of ``events`` for a new game (``joined_at``: the index of the first event recorded
    at the join's time), and its record."""
    game_id = "forged-lobby"
    created = events[0]
    log = chain_of(created.log)
    rows = seal(genesis_hash(game_id, log), 1, events[:joined_at], recorded_at=CREATED_AT, log=log)
    rows += seal(rows[-1].hash, len(rows) + 1, events[joined_at:], recorded_at=JOINED_AT, log=log)
    record = GameRecord(
        id=game_id,
        game=game,
        players=players,
        options={},
        status=GameStatus.ACTIVE,
        version=rows[-1].seq,
        head_hash=rows[-1].hash,
        seed_commitment=created.seed_commitment,
        seed_source=created.seed_source,
        rng=created.rng,
        outcome=None,
        created_at=CREATED_AT,
        updated_at=rows[-1].recorded_at,
    )
    return record, rows


def lobby_created(players: int, *, seats: list[SeatState] | None = None) -> GameCreated:
    return GameCreated(
        game="black-spy",
        players=players,
        options={},
        seed_commitment=seed_commitment(SEED.encode()),
        seed_source=SeedSource.CLIENT,
        rng=ALGORITHM,
        created_at=CREATED_AT,
        seats=lobby_seats(players) if seats is None else seats,
        deal_deferred=True,
    )


def setup_events() -> list[Any]:
    return list(setup(GAMES["black-spy"], 3, {}, FairRng(SEED.encode(), 0)).events)


def full_table() -> list[Any]:
    """The lobby game's creation and its two joins (the second takes the last open seat)."""
    return [lobby_created(3), SeatJoined(seat=1, name="a"), SeatJoined(seat=2, name="b")]


def problem_of(events: list[Any], joined_at: int, seed: bytes | None) -> tuple[str, int] | None:
    record, rows = forged("black-spy", 3, events, joined_at=joined_at)
    problem = verify_log(GAMES, record, rows, seed=seed).report.problem
    return None if problem is None or problem.seq is None else (problem.code, problem.seq)


def test_the_deferred_deal_after_the_last_join_verifies() -> None:
    assert problem_of([*full_table(), *setup_events()], 2, SEED.encode()) is None


@pytest.mark.parametrize("seed", [SEED.encode(), None], ids=["operator-seed", "no-seed"])
def test_verify_refuses_a_deal_before_the_last_join(seed: bytes | None) -> None:
    events = [lobby_created(3), *setup_events(), SeatJoined(seat=1, name="a")]
    assert problem_of(events, 1, seed) == ("misplaced-event", 2)


@pytest.mark.parametrize(
    ("events", "found"),
    [
        pytest.param(
            [*full_table(), SeatHandedToBot(seat=0, bot="random"), *setup_events()],
            ("rederivation-mismatch", 4),
            id="a-batch-after-the-last-join",
        ),
        pytest.param(
            [*full_table(), *setup_events(), *setup_events()],
            ("rederivation-mismatch", 6),
            id="dealt-twice",
        ),
        pytest.param(
            [lobby_created(3, seats=[SeatState(seat=s) for s in range(3)]), *setup_events()],
            ("header-mismatch", 1),
            id="deferred-with-no-open-seat",
        ),
    ],
)
def test_verify_refuses_a_forged_deferred_deal(events: list[Any], found: tuple[str, int]) -> None:
    assert problem_of(events, 2, SEED.encode()) == found


# -- open seats that expire ------------------------------------------------------------------

EXPIRES_AT = "2026-11-29T18:00:00.000000Z"


def abandon(store: EventStore, game_id: str, at: str) -> None:
    head = load_head(store, game_id)
    spec = get_game(head.game)
    detail = f"its open seats expired at {head.open_until}"
    store.append(
        prepare_abort(spec, head, reason="abandoned", detail=detail, recorded_at=at).append
    )


@pytest.mark.parametrize(
    "clock", [None, TimeControl(budget_seconds=300)], ids=["no-clock", "clock"]
)
def test_a_table_that_never_fills_is_abandoned_at_its_expiry(
    store: EventStore, tmp_path: Path, clock: TimeControl | None
) -> None:
    created = create_game(
        store,
        "black-spy",
        3,
        seats=lobby_seats(3),
        clock=clock,
        created_at=CREATED_AT,
        open_seat_ttl=3600,
    )
    game_id, spec = created.record.id, GAMES["black-spy"]
    first = read_events(store, game_id)[0].event
    assert isinstance(first, GameCreated) and first.open_until == EXPIRES_AT
    assert store.due_at(game_id) == EXPIRES_AT  # the scheduler's one mark until then
    change_seat(store, game_id, join(1, "Grace"), clock=at(JOINED_AT))
    head = load_head(store, game_id)
    assert head.waiting and head.due_at(spec, JOINED_AT) == EXPIRES_AT
    assert not head.expired(JOINED_AT) and head.expired(EXPIRES_AT)
    abandon(store, game_id, EXPIRES_AT)
    record = store.get_game(game_id)
    assert record.status is GameStatus.FINISHED
    assert record.outcome is not None and record.outcome.reason == "abandoned"
    assert record.outcome.winners == ()
    types = [e.type for e in read_events(store, game_id)]
    assert types[-1] == "seed_revealed" and "game_aborted" in types
    assert not any(t.startswith("black_spy") for t in types)  # never dealt
    assert verify_game(store, game_id).ok
    with SQLiteEventStore(tmp_path / "other.db") as other:
        report = import_game(other, io.BytesIO(b"".join(export_lines(store, game_id))))
        assert report.ok, report.problem


def test_a_full_table_does_not_expire(store: EventStore) -> None:
    created = create_game(
        store, "spies-and-lies", 2, seats=lobby_seats(2), created_at=CREATED_AT, open_seat_ttl=60
    )
    change_seat(store, created.record.id, join(1, "Grace"), clock=at(JOINED_AT))
    head = load_head(store, created.record.id)
    assert not head.waiting and not head.expired(EXPIRES_AT)
    assert head.due_at(GAMES["spies-and-lies"], EXPIRES_AT) is None  # people to move


def test_verify_refuses_an_abandonment_before_the_expiry_or_of_a_dealt_game(
    store: EventStore,
) -> None:
    early = create_game(
        store, "black-spy", 3, seats=lobby_seats(3), created_at=CREATED_AT, open_seat_ttl=3600
    )
    abandon(store, early.record.id, JOINED_AT)  # five minutes in, not an hour
    report = verify_game(store, early.record.id)
    assert report.problem is not None and report.problem.code == "abort-invalid"
    never = create_game(store, "black-spy", 3, seats=lobby_seats(3), created_at=CREATED_AT)
    abandon(store, never.record.id, EXPIRES_AT)  # its open seats never expire
    report = verify_game(store, never.record.id)
    assert report.problem is not None and report.problem.code == "abort-invalid"
