"""Clocks in a log, verified: every ``clocks_updated`` is recomputed from the rows' times,
a timeout must come at or after its deadline, a seat's own move before it, and a forced move
must be the time control's bot's. Forged logs (hash chain recomputed) are refused at the row
that gives them away.

The game (solo Deck of Spies) is played through the engine as the server plays it, at chosen
times: the player moves after a second, except that its clock runs out twice (its forced
moves by the time control's bot), or three times (the third abandons the seat: handed to the
bot, then its forced move, in one batch). Logs written before every timeout moved the game
on (an abandoned seat handed over without its move) still verify.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import msgspec
import pytest

from spies_api.game import (
    Head,
    create_game,
    load_head,
    plan_timeout,
    prepare_command,
    prepare_timeout,
)
from spies_bots import bot_stream, policy_for
from spies_core.clock import ClockState, TimeControl, deadline_ms, expire, run
from spies_core.registry import GAMES
from spies_core.step import view_at
from spies_replay.clocks import clocks_event, from_ms, to_ms
from spies_replay.codec import seal
from spies_replay.meta import ClockExpired, SeatHandedToBot
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.verify import VerifyReport, verify_game, verify_log
from tests.support.botgames import REGISTERED, edit_payload, rechain

GAME = "deck-of-spies"
CONTROL = TimeControl(
    turn_seconds=10, budget_seconds=60, increment_seconds=2, timeout_bot="random", abandon_after=3
)
START = to_ms("2026-12-01T12:00:00.000000Z")


@dataclass
class Played:
    game_id: str
    seed: bytes
    record: GameRecord
    rows: list[EventRow]


def play(store: EventStore, *, timeouts: int = 2, moves: int = 6) -> Played:
    """Seat 0 moves after a second each time, except that its first ``timeouts`` turns run
    out (played by the time control's bot)."""
    spec = GAMES[GAME]
    created = create_game(store, GAME, 1, clock=CONTROL, created_at=from_ms(START))
    game_id, seed = created.record.id, created.secrets.seed
    now, timed_out = START, 0
    for _ in range(moves):
        head = load_head(store, game_id)
        seat = min(spec.to_act(head.state))
        assert head.clock is not None
        if timed_out < timeouts:
            deadline = deadline_ms(head.clock, seat)
            assert deadline is not None
            now = deadline + 250  # the server saw it pass a little late
            version = plan_timeout(head, seat).forced_at
            assert version is not None
            legal = list(spec.legal_commands(head.state, seat))
            view = view_at(spec, head.state, seat, version)
            forced = policy_for("random", GAME)(view, legal, bot_stream(seed, seat, version))
            prepared = prepare_timeout(
                spec, head, seat, forced=forced, bot="random@2", recorded_at=from_ms(now)
            )
            timed_out += 1
        else:
            now += 1000
            command = next(iter(spec.legal_commands(head.state, seat)))
            prepared = prepare_command(spec, head, seat, command, recorded_at=from_ms(now))
        store.append(prepared.append)
    record = store.get_game(game_id)
    return Played(game_id, seed, record, list(store.read_rows(game_id, after=0)))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    with SQLiteEventStore(tmp_path / "clocks.db") as opened:
        yield opened


def check(played: Played, rows: list[EventRow]) -> VerifyReport:
    """Verify forged ``rows`` (rechained) with the operator's seed and the bots."""
    record, chained = rechain(played.record, rows)
    return verify_log(GAMES, record, chained, seed=played.seed, bots=REGISTERED).report


def problem(played: Played, rows: list[EventRow]) -> tuple[int | None, str]:
    report = check(played, rows)
    assert report.problem is not None, "the forgery passed"
    return report.problem.seq, report.problem.code


def retimed(rows: list[EventRow], seqs: range, at_ms: int) -> list[EventRow]:
    """The rows with those seqs recorded at ``at_ms``."""
    moment = from_ms(at_ms)
    return [
        msgspec.structs.replace(row, recorded_at=moment) if row.seq in seqs else row for row in rows
    ]


def seqs_of(rows: list[EventRow], kind: str) -> list[int]:
    return [row.seq for row in rows if row.type == kind]


def batch_at(rows: list[EventRow], seq: int) -> range:
    """The seqs of the batch whose first row is ``seq`` (up to its clocks_updated)."""
    end = next(row.seq for row in rows[seq - 1 :] if row.type == "clocks_updated")
    return range(seq, end + 1)


# -- the honest log ----------------------------------------------------------------------------


def test_an_honest_clocked_log_verifies_every_clock_and_forced_move(store: EventStore) -> None:
    played = play(store)
    expired = seqs_of(played.rows, "clock_expired")
    assert len(expired) == 2
    report = verify_game(store, played.game_id, bots=REGISTERED)
    assert report.ok, report.problem
    assert report.bot_moves_rederived == 2  # the two forced moves, asked of the bot again
    assert check(played, played.rows).ok


# -- forgeries ---------------------------------------------------------------------------------


def test_a_timeout_recorded_before_its_deadline_is_caught(store: EventStore) -> None:
    played = play(store)
    first = seqs_of(played.rows, "clock_expired")[0]
    head = played.rows[first - 2]  # the row before: the deadline ran from it or earlier
    early = retimed(played.rows, batch_at(played.rows, first), to_ms(head.recorded_at) + 1)
    assert problem(played, early) == (first, "clock-expired-early")


def test_a_persons_move_after_its_deadline_is_caught(store: EventStore) -> None:
    """A late move the server would have refused (409 deadline-passed) slipped into a log."""
    played = play(store, timeouts=0, moves=3)
    last = [row.seq for row in played.rows if row.command is not None][-1]
    late = retimed(played.rows, batch_at(played.rows, last), START + 3_600_000)
    assert problem(played, late) == (last, "move-after-deadline")


def test_a_clock_given_back_time_is_caught(store: EventStore) -> None:
    played = play(store)
    updated = seqs_of(played.rows, "clocks_updated")[3]  # after the seat's own move
    event = msgspec.json.decode(played.rows[updated - 1].payload)
    assert event["used_ms"] == 1000
    forged = edit_payload(played.rows, updated, used_ms=0)  # it took no time, says the forger
    assert problem(played, forged) == (updated, "clocks-mismatch")
    seats = [{**seat, "remaining_ms": seat["remaining_ms"] + 5000} for seat in event["seats"]]
    forged = edit_payload(played.rows, updated, seats=seats)
    assert problem(played, forged) == (updated, "clocks-mismatch")


def test_a_batch_without_its_clocks_is_caught(store: EventStore) -> None:
    played = play(store)
    updated = seqs_of(played.rows, "clocks_updated")[1]
    forged = [row for row in played.rows if row.seq != updated]
    assert problem(played, forged) == (updated, "clocks-missing")


def test_a_forced_move_must_be_the_time_controls_bots(store: EventStore) -> None:
    played = play(store)
    forced = seqs_of(played.rows, "clock_expired")[0] + 1
    stripped = [
        msgspec.structs.replace(row, bot=None) if row.seq == forced else row for row in played.rows
    ]
    assert problem(played, stripped) == (forced, "bot-mark-missing")
    other = [
        msgspec.structs.replace(row, bot="greedy@1") if row.seq == forced else row
        for row in played.rows
    ]
    assert problem(played, other) == (forced, "bot-mismatch")


def test_a_timeout_left_out_makes_the_forced_move_a_late_one(store: EventStore) -> None:
    played = play(store)
    first = seqs_of(played.rows, "clock_expired")[0]
    forged = [row for row in played.rows if row.seq != first]
    assert problem(played, forged) == (first, "move-after-deadline")


def test_clock_events_in_a_game_without_a_clock_are_caught(store: EventStore) -> None:
    played = play(store)
    created = msgspec.json.decode(played.rows[0].payload)
    forged = edit_payload(played.rows, 1, **{**created, "clock": None})
    first = seqs_of(played.rows, "clocks_updated")[0]
    assert problem(played, forged) == (first, "misplaced-meta-event")


# -- abandoned seats -------------------------------------------------------------------------


def test_an_abandoned_seat_is_handed_over_and_plays_its_forced_move_in_one_batch(
    store: EventStore,
) -> None:
    played = play(store, timeouts=3)  # abandon_after 3: the third timeout abandons the seat
    third = seqs_of(played.rows, "clock_expired")[2]
    handed, forced = played.rows[third], played.rows[third + 1]  # the rows after it
    assert handed.type == "seat_handed_to_bot" and handed.recorded_at == forced.recorded_at
    assert forced.actor == 0 and forced.command is not None and forced.bot == "random@2"
    report = verify_game(store, played.game_id, bots=REGISTERED)
    assert report.ok, report.problem
    assert report.bot_moves_rederived == 3  # the forced move after the hand-over too


def test_an_abandoned_seats_forced_move_without_its_hand_over_is_caught(
    store: EventStore,
) -> None:
    played = play(store, timeouts=3)
    handed = seqs_of(played.rows, "seat_handed_to_bot")[0]
    forged = [row for row in played.rows if row.seq != handed]
    assert problem(played, forged) == (handed, "seat-not-handed")


def legacy_abandonment(head: Head, at_ms: int) -> tuple[list[msgspec.Struct], ClockState]:
    """The batch an older server wrote when a timeout abandoned seat 0: the hand-over, then
    the clocks, without the forced move; and the clocks after it."""
    assert head.clock is not None
    deadline = deadline_ms(head.clock, 0)
    assert deadline is not None
    clocks = expire(head.clock, 0)
    expired = ClockExpired(seat=0, deadline=from_ms(deadline), timeouts=clocks.seats[0].timeouts)
    clocks = run(clocks, at_ms, GAMES[GAME].to_act(head.state))
    return [expired, SeatHandedToBot(seat=0, bot="random"), clocks_event(clocks)], clocks


def test_a_log_from_before_forced_moves_on_abandonment_still_verifies(
    store: EventStore,
) -> None:
    """Before every timeout moved the game on, an abandoned seat was handed over without its
    move, and a seat its bot played that timed out again was handed over again."""
    played = play(store, timeouts=2, moves=2)
    head = load_head(store, played.game_id)
    rows = list(played.rows)
    for _ in range(2):  # the abandonment (3 timeouts in a row), then the same seat again
        assert head.clock is not None
        at_ms = (deadline_ms(head.clock, 0) or 0) + 250
        batch, clocks = legacy_abandonment(head, at_ms)
        rows += seal(
            rows[-1].hash, rows[-1].seq + 1, batch, recorded_at=from_ms(at_ms), log=head.log
        )
        head = replace(head, version=rows[-1].seq, head_hash=rows[-1].hash, clock=clocks)
    assert [row.type for row in rows].count("seat_handed_to_bot") == 2
    report = check(played, rows)
    assert report.ok, report.problem
