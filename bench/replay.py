"""Replay-log speed: fold a 10,000-event game from the store, and show any step of it.

Builds a synthetic game of about 10,000 events in a temporary database through the store
(``create_game`` and ``submit_command``, one transaction per command, snapshots on), then
prints:

- events/s folded from the database (read the rows, decode the payloads, evolve), from the
  start, without snapshots; target 150,000/s. As a baseline measured in the same run: the
  same fold decoding row by row, and the bare read of the rows;
- the time to show an arbitrary seq (the state from the nearest snapshot plus the tail,
  the viewer's view, the event at that seq, rendered as text), median and worst over many
  random seqs, warm and on a freshly opened store; target under 50 ms;
- the same fold rate over random playouts of every registered game (real game events),
  since the fold's speed depends on the game's ``evolve``;
- the CPU time ``spies-replay verify`` spends per event (``verify_log`` over rows already
  read: every check, the re-derivation with the seed included), on the synthetic game
  (re-derived from the operator's seed) and on each game's playouts (from the revealed seed).

``--verify-only`` builds the games and prints only the last measurement.

``--db`` runs it all on another database (a SQLite file or a ``postgresql://`` URL; default a
fresh temporary SQLite file): on PostgreSQL the fold includes the round trips that fetch the
rows, and "a freshly opened store" includes connecting.

It prints and never asserts. Usage::

    python bench/replay.py [--events N] [--shows N] [--games N] [--db DB] [--verify-only]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from random import Random
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from spies_api.game import create_game, submit_command
from spies_core.decider import AnySpec, GameSpec, GameView, Outcome, Rng, shuffled, start_game
from spies_core.errors import InvalidOptionsError
from spies_core.registry import GAMES, get_game
from spies_replay.codec import codec_for
from spies_replay.meta import META_TYPES
from spies_replay.reading import load_state, read_events, view_at
from spies_replay.store.backends import open_store
from spies_replay.store.locations import redact
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import SNAPSHOT_EVERY
from spies_replay.verify import verify_log

FOLD_TARGET = 150_000
EVENTSOURCING_FOLD = 41_000
SHOW_TARGET_MS = 50.0

# -- a synthetic game: each turn plays the top card of a 52-card deck onto a tally ---------


class TallyOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class TallyCommand(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Play(TallyCommand, frozen=True, tag="tally_play"):
    pass


class TallyEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class DeckShuffled(TallyEvent, frozen=True, kw_only=True, tag="tally_deck_shuffled"):
    order: tuple[str, ...]


class CardPlayed(TallyEvent, frozen=True, kw_only=True, tag="tally_card_played"):
    seat: int
    card: str
    total: int


class TurnPassed(TallyEvent, frozen=True, kw_only=True, tag="tally_turn_passed"):
    seat: int
    next_seat: int


TallyEvents = DeckShuffled | CardPlayed | TurnPassed

CARDS = tuple(f"{rank}{suit}" for suit in "CDHS" for rank in (*"A23456789", "10", *"JQK"))
VALUES = {card: 1 + index % 13 for index, card in enumerate(CARDS)}


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    deck: tuple[str, ...] = ()
    played: int = 0
    total: int = 0
    turn: int = 0
    last: str | None = None


class TallyView(GameView, frozen=True, kw_only=True, tag_field="game", tag="tally"):
    total: int
    turn: int
    last: str | None


def _start(options: TallyOptions, players: int, rng: Rng) -> list[TallyEvents]:
    return [DeckShuffled(order=shuffled(rng, CARDS))]


def _decide(state: Tally, seat: int, command: Play, rng: Rng) -> list[TallyEvents]:
    card = state.deck[state.played % len(state.deck)]
    events: list[TallyEvents] = [
        CardPlayed(seat=seat, card=card, total=state.total + VALUES[card]),
        TurnPassed(seat=seat, next_seat=(seat + 1) % 2),
    ]
    if (state.played + 1) % 52 == 0:
        events.append(DeckShuffled(order=shuffled(rng, state.deck)))
    return events


def _evolve(state: Tally, event: TallyEvents) -> Tally:
    if isinstance(event, CardPlayed):
        return replace(state, played=state.played + 1, total=event.total, last=event.card)
    if isinstance(event, TurnPassed):
        return replace(state, turn=event.next_seat)
    return replace(state, deck=event.order)


def _view(state: Tally, seat: int | None) -> TallyView:
    return TallyView(seat=seat, total=state.total, turn=state.turn, last=state.last)


def _never(*_: Any) -> Any:
    raise NotImplementedError


TALLY: GameSpec[Tally, Play, TallyEvents, TallyView, TallyOptions] = GameSpec(
    name="tally",
    title="Tally (benchmark)",
    seat_counts=frozenset({2}),
    max_events=10**9,
    options_type=TallyOptions,
    command_type=Play,
    event_type=TallyEvents,
    view_type=TallyView,
    state_type=Tally,
    initial_state=Tally,
    start=_start,
    decide=_decide,
    evolve=_evolve,
    legal_commands=lambda state, seat: [Play()],
    view=_view,
    redact=lambda event, seat: (
        replace(event, order=()) if isinstance(event, DeckShuffled) else event
    ),
    to_act=lambda state: frozenset({state.turn}),
    outcome=lambda state: None if state.played < 10**9 else Outcome(winners=(), reason="never"),
    players=lambda state: 2,
    check_invariants=lambda state: None,
    probe_commands=_never,
    scramble=_never,
    describe_event=lambda event: repr(event),
    render_view=lambda view: f"total {view.total}, last {view.last}, seat {view.turn} to act",
)

BENCH_GAMES: Final = {**GAMES, "tally": TALLY}
"""The registered games and the synthetic one (never registered: passed where looked up)."""


# -- measurements -----------------------------------------------------------------------------


def build(store: EventStore, events: int) -> str:
    """A synthetic game of at least ``events`` events, one command per transaction."""
    created = create_game(store, "tally", seed="bench", games=BENCH_GAMES)
    game_id, state, version = created.record.id, created.state, created.record.version
    while version < events:
        result = submit_command(
            store, game_id, state.turn, Play(), state=state, version=version, games=BENCH_GAMES
        )
        state, version = result.state, result.version
    return game_id


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def fold_from_db(store: EventStore, game_id: str) -> Any:
    """What ``load_state`` does with no snapshot: one query, one decode call, the fold."""
    version = store.get_game(game_id).version
    codec = codec_for(get_game(store.get_game(game_id).game, BENCH_GAMES))
    rows = store.read_payloads(game_id, after=0, upto=version, skip=META_TYPES)
    state = codec.spec.initial_state()
    evolve = codec.spec.evolve
    for event in codec.decode_game_events([row[1] for row in rows]):
        state = evolve(state, event)
    return state


def fold_all(store: EventStore, game_ids: list[str]) -> list[Any]:
    """Fold several games from the database."""
    return [fold_from_db(store, game_id) for game_id in game_ids]


def fold_row_by_row(store: EventStore, game_id: str) -> Any:
    """Baseline: the same fold decoding each row on its own (the straightforward loop)."""
    record = store.get_game(game_id)
    spec = get_game(record.game, BENCH_GAMES)
    decode = msgspec.json.Decoder(spec.event_type).decode
    state = spec.initial_state()
    for row in store.read_rows(game_id):
        if row.type not in ("game_created", "seed_revealed"):
            state = spec.evolve(state, decode(row.payload))
    return state


def read_only(store: EventStore, game_id: str) -> int:
    """Baseline: only read the rows."""
    version = store.get_game(game_id).version
    return len(store.read_payloads(game_id, after=0, upto=version, skip=META_TYPES))


def show(store: EventStore, game_id: str, seq: int) -> str:
    """What ``spies-replay show GAME --at SEQ`` computes, without printing."""
    shown = view_at(store, game_id, at=seq, games=BENCH_GAMES)
    spec = get_game(shown.record.game, BENCH_GAMES)
    event = read_events(store, game_id, after=seq - 1, limit=1, games=BENCH_GAMES)[0].event
    return f"{event!r}\n{spec.render_view(shown.view)}"


def verify_cpu_us(store: EventStore, games: dict[str, AnySpec], game_ids: list[str]) -> float:
    """CPU microseconds per event that ``verify_log`` takes over the games' rows, read once
    beforehand (the checks alone, not the database), best of 5 runs."""
    logs = [store.read_game(game_id) for game_id in game_ids]
    events = sum(len(rows) for _, rows, _ in logs)

    def run() -> None:
        for record, rows, secrets in logs:
            seed, deal = (None, None) if secrets is None else (secrets.seed, secrets.deal)
            report = verify_log(games, record, rows, seed=seed, deal=deal).report
            if not report.ok:
                raise SystemExit(f"verify failed on {record.id}: {report.problem}")

    cpu = []
    for _ in range(5):
        start = time.process_time()
        run()
        cpu.append(time.process_time() - start)
    return min(cpu) / events * 1e6


def timings_ms(run: Callable[[int], object], seqs: list[int]) -> list[float]:
    result = []
    for seq in seqs:
        start = time.perf_counter()
        run(seq)
        result.append((time.perf_counter() - start) * 1000)
    return result


def playouts(store: EventStore, spec: AnySpec, games: int) -> list[str]:
    ids = []
    for number in range(games):
        players = spec.min_players
        try:
            start_game(spec, players, {}, Random(0))
        except InvalidOptionsError:
            players = spec.max_players
        rng = Random(number)
        created = create_game(store, spec.name, players, None, seed=f"bench-{number}")
        game_id, state, version = created.record.id, created.state, created.record.version
        while spec.outcome(state) is None:
            seat = rng.choice(sorted(spec.to_act(state)))
            command = rng.choice(spec.legal_commands(state, seat))
            result = submit_command(store, game_id, seat, command, state=state, version=version)
            state, version = result.state, result.version
        ids.append(game_id)
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000, help="size of the synthetic game")
    parser.add_argument("--shows", type=int, default=500, help="random seqs to show")
    parser.add_argument("--games", type=int, default=20, help="playouts per registered game")
    parser.add_argument("--db", metavar="DB", help="a SQLite file or a postgresql:// URL")
    parser.add_argument(
        "--verify-only", action="store_true", help="print only verify's CPU time per event"
    )
    args = parser.parse_args()
    games = BENCH_GAMES
    verified: list[tuple[str, int, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        path: Path | str = args.db or Path(tmp) / "bench.db"
        print(f"database: {redact(path)}")
        with open_store(path) as store:
            start = time.perf_counter()
            game_id = build(store, args.events)
            built = time.perf_counter() - start
            version = store.get_game(game_id).version
            print(
                f"synthetic game: {version} events in {built:.1f} s through submit_command"
                f" ({version / built:,.0f} events/s appended, one transaction per command)"
            )
            verified.append(("tally", version, verify_cpu_us(store, games, [game_id])))
            if not args.verify_only:
                report_fold(store, game_id, version)
                report_show(store, path, game_id, version, args.shows)

        if not args.verify_only:
            print(f"\nfold of real game events ({args.games} random playouts per registered game):")
        real_db = args.db or Path(tmp) / "games.db"
        with open_store(real_db, snapshot_every=10**9) as real:
            for spec in GAMES.values():
                ids = playouts(real, spec, args.games)
                total = sum(real.get_game(i).version - 2 for i in ids)
                verified.append((spec.name, total + 2 * len(ids), verify_cpu_us(real, games, ids)))
                if args.verify_only:
                    continue
                seconds = best_of(3, partial(fold_all, real, ids))
                print(
                    f"  {spec.name:<16} {total / seconds:>10,.0f} events/s"
                    f"  ({total} events, {total / len(ids):.0f} per game;"
                    f" {total / seconds / FOLD_TARGET:.2f} x target)"
                )
    print("\nverify (verify_log over rows already read), CPU time per event, best of 5:")
    for name, events, micros in verified:
        print(f"  {name:<16} {micros:>8.1f} us/event  ({events} events)")


def report_fold(store: EventStore, game_id: str, version: int) -> None:
    """The fold from the database, against its baselines."""
    folded = version - 2  # game_created and no seed_revealed are left out of the fold
    if fold_from_db(store, game_id) != load_state(store, game_id, games=BENCH_GAMES).state:
        print("WARNING: the measured fold disagrees with load_state")
    fold_s = best_of(7, lambda: fold_from_db(store, game_id))
    naive_s = best_of(7, lambda: fold_row_by_row(store, game_id))
    read_s = best_of(7, lambda: read_only(store, game_id))
    rate = folded / fold_s
    print("\nfold from the database, from seq 0 (read + decode + evolve), best of 7:")
    print(f"  {rate:>12,.0f} events/s  ({fold_s * 1000:.1f} ms for {folded} events)")
    print(f"  {rate / FOLD_TARGET:>12.2f} x the target of {FOLD_TARGET:,}/s")
    print(f"  {rate / EVENTSOURCING_FOLD:>12.2f} x eventsourcing's {EVENTSOURCING_FOLD:,}/s")
    print(
        f"  baseline, same run: row-by-row decode {folded / naive_s:,.0f} events/s"
        f" ({naive_s / fold_s:.2f} x slower); reading the rows alone"
        f" {folded / read_s:,.0f} rows/s"
    )


def report_show(
    store: EventStore,
    path: Path | str,
    game_id: str,
    version: int,
    shows: int,
) -> None:
    """Showing arbitrary seqs, on the open store and on a freshly opened one."""
    seqs = [random.Random(7).randint(1, version) for _ in range(shows)]
    warm = timings_ms(lambda seq: show(store, game_id, seq), seqs)
    print(
        f"\nshow an arbitrary seq (snapshot every {SNAPSHOT_EVERY} events + tail + view"
        f" + text), {len(seqs)} random seqs:"
    )
    print(
        f"  warm store:  median {statistics.median(warm):.2f} ms,"
        f" worst {max(warm):.2f} ms  (target < {SHOW_TARGET_MS:.0f} ms:"
        f" {SHOW_TARGET_MS / max(warm):.1f} x headroom on the worst)"
    )

    def cold(seq: int) -> object:
        with open_store(path) as fresh:
            return show(fresh, game_id, seq)

    cold_ms = timings_ms(cold, seqs[:50])
    print(
        f"  fresh store: median {statistics.median(cold_ms):.2f} ms,"
        f" worst {max(cold_ms):.2f} ms  (opening the file each time, as the CLI does;"
        " Python start-up not included)"
    )


if __name__ == "__main__":
    main()
