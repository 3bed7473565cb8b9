"""Verification of a game's log: the hash chain, the fold, and a re-run of every command.

:func:`verify_log` checks one log, from the database or from an export file, and stops at the
first problem, which it names by seq and by a stable code. The hash chain is walked over the
whole log first, so an edit that breaks it is named at its own seq even when a later check
would read ahead (the revealed seed and deal sit in the last row); then one pass decodes,
re-derives and folds:

1. **Chain.** Seqs run 1, 2, 3, … with no gap (``missing-event``) and in order
   (``out-of-order``: a seq that exists but not in its place, or twice); every row's hash
   chains from the previous one (``hash-mismatch``, see :mod:`spies_replay.codec`); the
   last hash and seq are the game's head hash and version (``head-mismatch``,
   ``missing-event``, ``unexpected-event``).
2. **Decode and fold.** Every payload decodes as the game's event (``undecodable-event``),
   its tag equals the ``type`` column (``type-mismatch``), seq 1 is ``game_created`` and
   agrees with the game's record, its creation time included (``header-mismatch``), seat
   events (``seat_joined``, ...) fit the seats as they stand (``seat-event-invalid``) and
   come between batches, a command marked as a bot's comes from a seat that bot plays then
   (``bot-mismatch``),
   ``seed_revealed`` comes last (``event-after-end``), every event folds (``fold-failed``),
   ``check_invariants`` holds after every batch (``invariant-broken``), and the final state's
   outcome matches the status, the stored outcome and the presence of ``seed_revealed``.
3. **Re-derivation.** The game is re-run with the pure step (:mod:`spies_core.step`) that
   the server takes: the setup, ``setup(spec, players, options, FairRng(seed, 0))``, must
   give exactly the logged setup events, and each stored command, stepped by its seat with
   ``FairRng(seed, nonce=seq_before)`` from the state the log folds to, exactly the logged
   batch (``rederivation-mismatch``, ``command-refused``). This proves every shuffle and
   deal, and that every event followed from a legal command. The logged events themselves
   are folded one at a time (``apply_events``), so a fold that fails is named at its row.
   For a finished game it uses the seed revealed in the log (after checking it against the
   commitment: ``seed-mismatch``, and the revealed deal against its commitment:
   ``deal-mismatch``, both named at the reveal; a finished game without a reveal is
   ``seed-not-revealed`` at the seq where it should be): anyone can do this. For a game in
   progress it can only run on the server's own database, from the ``seeds`` table, as an
   operator audit; :attr:`VerifyReport.rederived` says which.

What no verifier can see: an attacker who can write the file and recomputes every hash
can swap two simultaneous commands of different seats (another valid history) or change
a ``recorded_at``; the head hash a client saw earlier (in every summary) is the anchor for
that. ``tests/attack/test_tampering.py`` tries every edit, deletion, insertion and swap.

Snapshots are a cache, not part of the log: :func:`verify_game` compares them with the fold
and reports disagreements as warnings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import msgspec

from spies_core.decider import AnySpec, Outcome
from spies_core.errors import SpiesError
from spies_core.rng import ALGORITHM, FairRng
from spies_core.step import Step, apply_events, setup, step
from spies_replay.codec import (
    GameCodec,
    canonical_bytes,
    canonical_json,
    chain_hash,
    codec_for,
    deal_commitment,
    encode,
    event_tag,
    genesis_hash,
)
from spies_replay.errors import GameNotFoundError
from spies_replay.meta import (
    GameCreated,
    SeatEvent,
    SeatState,
    SeedRevealed,
    apply_seat_event,
    initial_seats,
)
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameStatus

__all__ = [
    "Problem",
    "Rederivation",
    "VerifyReport",
    "VerifyResult",
    "verify_all",
    "verify_game",
    "verify_log",
]


class Rederivation(StrEnum):
    """How the shuffles and commands of a log were re-derived."""

    REVEALED_SEED = "revealed-seed"
    """A finished game, re-run from the seed revealed in its own log (anyone can)."""
    OPERATOR_SEED = "operator-seed"
    """A game in progress, re-run from the server's secret seed (an operator audit)."""
    NOT_CHECKED = "not-checked"
    """Not re-run: no seed available, or the log failed an earlier check."""


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """The first thing wrong with a log."""

    seq: int | None
    """The first bad seq, or ``None`` when the problem is not tied to one event."""
    code: str
    """Stable kebab-case code, e.g. ``hash-mismatch`` (see the module docstring)."""
    message: str


class VerifyReport(msgspec.Struct, frozen=True, kw_only=True):
    """The result of verifying one game."""

    game_id: str
    game: str | None
    status: str | None
    ok: bool
    events: int
    """How many rows were read."""
    head_hash: str | None
    rederived: Rederivation
    problem: Problem | None
    warnings: list[str] = []

    @property
    def first_bad_seq(self) -> int | None:
        """The seq of the problem, if any."""
        return None if self.problem is None else self.problem.seq


@dataclass
class VerifyResult:
    """:func:`verify_log`'s report, plus what import needs from the fold.

    Attributes:
        report: the report.
        state: the final folded state (``None`` when the fold did not complete).
        states: the states after the seqs asked for in ``capture``.
    """

    report: VerifyReport
    state: Any = None
    states: dict[int, Any] = field(default_factory=dict)


class _ProblemFoundError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _fail(seq: int | None, code: str, message: str) -> _ProblemFoundError:
    return _ProblemFoundError(Problem(seq=seq, code=code, message=message))


def verify_log(
    games: Mapping[str, AnySpec],
    record: GameRecord,
    rows: Sequence[EventRow],
    *,
    seed: bytes | None = None,
    deal: Any = None,
    capture: Collection[int] = (),
) -> VerifyResult:
    """Verify one game's log (see the module docstring for every check).

    Args:
        games: the games that can be decoded, by id.
        record: the game's record: from the ``games`` table, or an export's header.
        rows: every row of the game, in the order stored.
        seed: the server's seed, for an operator audit of a game in progress; a finished
            game is always re-derived from the seed revealed in its log.
        deal: the server's secret ``options.deal`` that goes with ``seed`` (if any).
        capture: seqs whose folded state to return (import keeps them as snapshots).

    Returns:
        The report (``ok``, or the first problem by seq), and the final and captured states.
    """
    spec = games.get(record.game)
    verifier = _Verifier(record, None if spec is None else codec_for(spec), frozenset(capture))
    try:
        if spec is None:
            verifier.walk_chain(rows)
            raise _fail(
                None, "unknown-game", f"game {record.game!r} is not registered: cannot decode"
            )
        verifier.run(rows, seed, deal)
    except _ProblemFoundError as stop:
        return VerifyResult(report=verifier.report(stop.problem))
    return VerifyResult(report=verifier.report(None), state=verifier.state, states=verifier.states)


class _Verifier:
    """One pass over a log: chain, decode, re-derive and fold each row as it comes."""

    def __init__(self, record: GameRecord, codec: GameCodec | None, capture: frozenset[int]):
        self.record = record
        self.codec = codec
        self.capture = capture
        self.seqs: frozenset[int] = frozenset()
        self.previous = genesis_hash(record.id)
        self.rows = 0
        self.state: Any = None
        self.outcome: Outcome | None = None
        """The outcome of :attr:`state`: ``None`` while the logged game goes on."""
        self.states: dict[int, Any] = {}
        self.warnings: list[str] = []
        self.created: GameCreated | None = None
        self.seats: list[SeatState] = []
        """Each seat's holder as the seat events so far leave it."""
        self.revealed_at: int | None = None
        self.seed: bytes | None = None
        self.deal: Any = None
        self.deal_seq: int | None = None
        """The seq of the ``seed_revealed`` row the deal was read from (``None``: the
        operator's deal); a deal that does not match its commitment is reported there."""
        self.rederived = Rederivation.NOT_CHECKED
        self.batch: list[EventRow] = []
        """The rows of the current batch (the setup, or one command's events)."""
        self.derived: Step[Any, Any] | None = None
        """The re-derived step of the current batch (the setup, or the stored command
        stepped again), whose events the logged rows must equal; ``None`` when not
        re-deriving."""

    def report(self, problem: Problem | None) -> VerifyReport:
        return VerifyReport(
            game_id=self.record.id,
            game=self.record.game,
            status=str(self.record.status),
            ok=problem is None,
            events=self.rows,
            head_hash=self.record.head_hash,
            rederived=self.rederived if problem is None else Rederivation.NOT_CHECKED,
            problem=problem,
            warnings=self.warnings,
        )

    # -- the chain alone (for a game this registry cannot decode) ----------------------

    def walk_chain(self, rows: Sequence[EventRow]) -> None:
        self.seqs = frozenset(row.seq for row in rows)
        for index, row in enumerate(rows):
            self._chain(row, index + 1)
        self._check_head()

    def _chain(self, row: EventRow, expected_seq: int) -> None:
        if row.seq != expected_seq:
            if row.seq > expected_seq and expected_seq not in self.seqs:
                raise _fail(
                    expected_seq,
                    "missing-event",
                    f"seq {expected_seq} is missing: the next event is seq {row.seq}",
                )
            raise _fail(
                expected_seq,
                "out-of-order",
                f"expected seq {expected_seq} here but found seq {row.seq}",
            )
        try:
            canonical = canonical_bytes(
                seq=row.seq,
                type=row.type,
                actor=row.actor,
                command=row.command,
                payload=row.payload,
                recorded_at=row.recorded_at,
                bot=row.bot,
            )
        except msgspec.DecodeError as exc:
            raise _fail(row.seq, "malformed-row", f"payload or command is not JSON: {exc}") from exc
        digest = chain_hash(self.previous, canonical)
        if digest != row.hash:
            raise _fail(
                row.seq,
                "hash-mismatch",
                f"stored hash {row.hash[:16]}… is not sha256(previous hash || event):"
                f" expected {digest[:16]}…",
            )
        self.previous = digest
        self.rows = expected_seq

    def _check_head(self) -> None:
        last, record = self.rows, self.record
        if last == 0:
            raise _fail(1, "missing-event", "the log is empty")
        if record.version > last:
            raise _fail(
                last + 1,
                "missing-event",
                f"the game is at version {record.version} but its log ends at seq {last}",
            )
        if record.version < last:
            raise _fail(
                record.version + 1,
                "unexpected-event",
                f"the log goes on past the game's version {record.version} to seq {last}",
            )
        if record.head_hash != self.previous:
            raise _fail(
                last,
                "head-mismatch",
                f"the game's head hash {record.head_hash[:16]}… is not the last event's hash",
            )

    # -- the full pass ---------------------------------------------------------------------

    def run(
        self, rows: Sequence[EventRow], operator_seed: bytes | None, operator_deal: Any
    ) -> None:
        assert self.codec is not None
        spec = self.codec.spec
        start = apply_events(spec, spec.initial_state(), ())
        self.state, self.outcome = start.state, start.outcome
        self.seqs = frozenset(row.seq for row in rows)
        # The whole chain first: an edit that breaks it is named at its own seq, before any
        # check that reads ahead (the revealed seed and deal sit in the last row).
        for index, row in enumerate(rows):
            self._chain(row, index + 1)
        self._choose_seed(rows, operator_seed, operator_deal)
        for row in rows:
            self._row(row)
            if row.seq in self.capture:
                self.states[row.seq] = self.state
        self._end_batch(self.rows + 1)
        self._check_head()
        self._check_end()

    def _choose_seed(
        self, rows: Sequence[EventRow], operator_seed: bytes | None, operator_deal: Any
    ) -> None:
        """Pick the seed to re-derive with, before the pass (the reveal is the last row)."""
        assert self.codec is not None
        if not rows:
            return
        try:
            created = self.codec.event.decode(rows[0].payload)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return  # the pass reports it at seq 1
        if not isinstance(created, GameCreated):
            return
        last = rows[-1]
        if last.type == "seed_revealed":
            revealed = _revealed_seed(self.codec, last)
            if revealed is not None and _commits(revealed, created):
                self.seed, self.rederived = revealed, Rederivation.REVEALED_SEED
                self.deal = _revealed_deal(self.codec, last)
                self.deal_seq = last.seq
                if operator_seed is not None and operator_seed != revealed:
                    self.warnings.append("the seeds table disagrees with the revealed seed")
                return
        if operator_seed is not None:
            if not _commits(operator_seed, created):
                raise _fail(None, "seed-mismatch", "the stored seed does not match the commitment")
            self.seed, self.rederived = operator_seed, Rederivation.OPERATOR_SEED
            self.deal = operator_deal
            return
        self.warnings.append("no seed available: shuffles and commands were not re-derived")

    def _row(self, row: EventRow) -> None:
        assert self.codec is not None
        seq = row.seq
        if self.revealed_at is not None:
            raise _fail(seq, "event-after-end", "an event follows seed_revealed")
        try:
            event = self.codec.event.decode(row.payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise _fail(seq, "undecodable-event", f"{row.type}: {exc}") from exc
        if event_tag(event) != row.type:
            raise _fail(
                seq, "type-mismatch", f"type column {row.type!r} but payload {event_tag(event)!r}"
            )
        if seq == 1:
            self._created(row, event)
        elif isinstance(event, GameCreated):
            raise _fail(seq, "misplaced-meta-event", "game_created after seq 1")
        elif isinstance(event, SeedRevealed):
            self._revealed(row, event)
        elif isinstance(event, SeatEvent):
            self._seat_event(row, event)
        else:
            if row.command is not None:
                self._start_batch(row)
            self._game_event(row, event)

    def _created(self, row: EventRow, event: Any) -> None:
        assert self.codec is not None
        _check_created(self.record, event)
        if row.command is not None or row.actor is not None:
            raise _fail(1, "misplaced-command", "game_created carries a command")
        self.created = event
        self.seats = initial_seats(event)
        if len(self.seats) != event.players or any(
            seat.seat != index for index, seat in enumerate(self.seats)
        ):
            raise _fail(1, "header-mismatch", "game_created lists seats that are not the game's")
        if self.seed is None:
            return
        if event.rng != ALGORITHM:
            raise _fail(1, "unsupported-rng", f"unknown randomness algorithm {event.rng!r}")
        options = dict(event.options)
        if event.deal_commitment is not None or self.deal is not None:
            if self.deal is None or event.deal_commitment != deal_commitment(self.seed, self.deal):
                raise _fail(
                    self.deal_seq or 1,
                    "deal-mismatch",
                    "the revealed deal does not match the deal commitment",
                )
            options["deal"] = self.deal
        try:
            self.derived = setup(self.codec.spec, event.players, options, FairRng(self.seed, 0))
        except SpiesError as exc:
            raise _fail(1, "setup-refused", f"start refused the logged options: {exc}") from exc

    def _revealed(self, row: EventRow, event: SeedRevealed) -> None:
        assert self.created is not None and self.codec is not None
        seq = row.seq
        if row.command is not None or row.actor is not None:
            raise _fail(seq, "misplaced-command", "seed_revealed carries a command")
        self._end_batch(seq)
        seed = _revealed_seed(self.codec, row)
        if seed is None or not _commits(seed, self.created):
            raise _fail(seq, "seed-mismatch", "the revealed seed does not match the commitment")
        self.revealed_at = seq

    def _seat_event(self, row: EventRow, event: SeatEvent) -> None:
        assert self.codec is not None
        seq = row.seq
        if row.command is not None or row.actor is not None or row.bot is not None:
            raise _fail(seq, "misplaced-command", f"{row.type} carries a command")
        self._end_batch(seq)
        if self.outcome is not None:
            raise _fail(seq, "event-after-end", f"{row.type} follows the end of the game")
        try:
            self.seats = apply_seat_event(self.seats, event)
        except ValueError as exc:
            raise _fail(seq, "seat-event-invalid", str(exc)) from exc

    def _start_batch(self, row: EventRow) -> None:
        assert self.codec is not None and row.command is not None
        seq = row.seq
        self._end_batch(seq)
        if self.outcome is not None:
            raise _fail(seq, "event-after-end", "a command follows the end of the game")
        if row.actor is None:
            raise _fail(seq, "missing-actor", "a command without the seat that sent it")
        if row.bot is not None:
            holder = self.seats[row.actor] if 0 <= row.actor < len(self.seats) else None
            if holder is None or holder.bot != row.bot:
                raise _fail(
                    seq,
                    "bot-mismatch",
                    f"a command marked as bot {row.bot!r}'s, but no such bot plays seat"
                    f" {row.actor} here",
                )
        try:
            command = self.codec.command.decode(row.command)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise _fail(seq, "undecodable-command", f"stored command: {exc}") from exc
        if self.seed is None:
            return
        try:
            self.derived = step(
                self.codec.spec, self.state, row.actor, command, FairRng(self.seed, seq - 1)
            )
        except SpiesError as exc:
            raise _fail(
                seq,
                "command-refused",
                f"seat {row.actor}'s {event_tag(command)} is refused by the rules:"
                f" {exc.code}: {exc.message}",
            ) from exc

    def _game_event(self, row: EventRow, event: Any) -> None:
        assert self.codec is not None
        seq = row.seq
        if self.derived is not None:
            expected = self.derived.events
            index = len(self.batch)
            if index >= len(expected):
                raise _fail(
                    seq,
                    "rederivation-mismatch",
                    f"re-running the command gives {len(expected)} events; this one does not"
                    " follow from it",
                )
            derived = canonical_json(encode(expected[index]))
            if derived != canonical_json(row.payload):
                raise _fail(
                    seq,
                    "rederivation-mismatch",
                    f"logged {row.type} differs from the re-derived {event_tag(expected[index])}:"
                    f" {derived.decode()[:200]}",
                )
        # The logged event is folded, not the re-derived one: the log is what is verified,
        # and without a seed there is nothing else to fold.
        try:
            folded = apply_events(self.codec.spec, self.state, (event,))
        except Exception as exc:  # noqa: BLE001  (any failure of the fold is the finding)
            raise _fail(seq, "fold-failed", f"{row.type}: {exc!r}") from exc
        self.state, self.outcome = folded.state, folded.outcome
        self.batch.append(row)

    def _end_batch(self, next_seq: int) -> None:
        assert self.codec is not None
        if self.derived is not None and len(self.batch) < len(self.derived.events):
            raise _fail(
                next_seq,
                "rederivation-mismatch",
                f"re-running gives {len(self.derived.events)} events here but the log has"
                f" {len(self.batch)}",
            )
        if self.batch:
            try:
                self.codec.spec.check_invariants(self.state)
            except AssertionError as exc:
                raise _fail(
                    self.batch[-1].seq, "invariant-broken", f"invariant broken here: {exc}"
                ) from exc
        self.batch, self.derived = [], None

    def _check_end(self) -> None:
        record, last, outcome = self.record, self.rows, self.outcome
        if outcome is not None and self.revealed_at is None:
            raise _fail(
                last + 1,
                "seed-not-revealed",
                f"the game ended at seq {last} but no seed_revealed follows it",
            )
        if outcome is None and self.revealed_at is not None:
            raise _fail(self.revealed_at, "premature-reveal", "seed revealed before the end")
        finished = outcome is not None
        if (record.status == GameStatus.FINISHED) != finished:
            raise _fail(
                last,
                "status-mismatch",
                f"the game is marked {record.status} but its log says"
                f" {'finished' if finished else 'active'}",
            )
        if record.outcome != outcome:
            raise _fail(last, "outcome-mismatch", "the stored outcome is not the log's outcome")


def _revealed_seed(codec: GameCodec, row: EventRow) -> bytes | None:
    try:
        event = codec.event.decode(row.payload)
        return bytes.fromhex(event.seed) if isinstance(event, SeedRevealed) else None
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
        return None


def _revealed_deal(codec: GameCodec, row: EventRow) -> Any:
    event = codec.event.decode(row.payload)
    return event.deal if isinstance(event, SeedRevealed) else None


def _commits(seed: bytes, created: GameCreated) -> bool:
    return hashlib.sha256(seed).hexdigest() == created.seed_commitment


def _check_created(record: GameRecord, event: Any) -> None:
    if not isinstance(event, GameCreated):
        raise _fail(1, "missing-game-created", f"seq 1 is {event_tag(event)}, not game_created")
    options = (canonical_json(encode(event.options)), canonical_json(encode(record.options)))
    mismatched = [
        name
        for name, logged, stored in (
            ("game", event.game, record.game),
            ("players", event.players, record.players),
            ("seed_commitment", event.seed_commitment, record.seed_commitment),
            ("seed_source", str(event.seed_source), str(record.seed_source)),
            ("rng", event.rng, record.rng),
            ("created_at", event.created_at, record.created_at),
            ("options", *options),
        )
        if logged != stored
    ]
    if mismatched:
        raise _fail(
            1, "header-mismatch", f"game_created disagrees with the game's {', '.join(mismatched)}"
        )


def verify_game(store: EventStore, game_id: str) -> VerifyReport:
    """Verify one stored game, re-deriving it from the revealed or the stored seed.

    Raises:
        GameNotFoundError: no such game (and no orphaned events under that id).
    """
    try:
        record, rows, secrets = store.read_game(game_id)
    except GameNotFoundError:
        if game_id in store.orphan_game_ids():
            return _orphan_report(store, game_id)
        raise
    capture = {seq for seq, _ in store.snapshots(game_id)}
    seed, deal = (None, None) if secrets is None else (secrets.seed, secrets.deal)
    result = verify_log(store.games, record, rows, seed=seed, deal=deal, capture=capture)
    if result.report.ok:
        _check_snapshots(store, record, result)
    return result.report


def _check_snapshots(store: EventStore, record: GameRecord, result: VerifyResult) -> None:
    decode: Callable[[str], Any] = store.codec(record.game).state.decode
    for seq, text in store.snapshots(record.id):
        try:
            state = decode(text)
        except (msgspec.DecodeError, msgspec.ValidationError):
            result.report.warnings.append(f"snapshot at seq {seq} no longer decodes (ignored)")
            continue
        if seq not in result.states or state != result.states[seq]:
            result.report.warnings.append(f"snapshot at seq {seq} disagrees with the fold")


def _orphan_report(store: EventStore, game_id: str) -> VerifyReport:
    return VerifyReport(
        game_id=game_id,
        game=None,
        status=None,
        ok=False,
        events=len(store.read_rows(game_id)),
        head_hash=None,
        rederived=Rederivation.NOT_CHECKED,
        problem=Problem(
            seq=None, code="orphan-events", message="events without a games row (deleted?)"
        ),
    )


def verify_all(store: EventStore) -> list[VerifyReport]:
    """Verify every stored game, and report events whose game row is missing."""
    reports = [verify_game(store, game_id) for game_id in store.game_ids()]
    reports += [_orphan_report(store, game_id) for game_id in store.orphan_game_ids()]
    return reports
