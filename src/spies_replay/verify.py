"""Verification of a game's log: the hash chain, the fold, and a re-run of every command and
every bot move. Verify re-derives what the log itself proves; it trusts no label.
``docs/protocol.md`` defines the checks, their order and every code for any verifier.

:func:`verify_log` checks one log, from the database or from an export file, and stops at the
first problem, which it names by seq and by a stable code. The hash chain is walked over the
whole log first, so an edit that breaks it is named at its own seq even when a later check
would read ahead (the revealed seed and deal sit in the last row); then one pass decodes,
re-derives and folds:

1. **Chain.** Seqs run 1, 2, 3, … with no gap (``missing-event``) and in order
   (``out-of-order``: a seq that exists but not in its place, or twice); every payload and
   command is JSON nested at most :data:`~spies_replay.codec.MAX_JSON_DEPTH` levels
   (``malformed-row``) with no key twice in one object (``duplicate-key``: readers differ
   on which counts); every row's hash chains from the previous one (``hash-mismatch``,
   see :mod:`spies_replay.codec`); the last hash and seq are the game's head hash and
   version (``head-mismatch``, ``missing-event``, ``unexpected-event``), and the last
   row's time is the game's ``updated_at`` (``header-mismatch``).
2. **Decode and fold.** Every payload decodes as the game's event (``undecodable-event``),
   its tag equals the ``type`` column (``type-mismatch``), seq 1 is ``game_created`` and
   agrees with the game's record, its creation time included (``header-mismatch``), seat
   events (``seat_joined``, ...) fit the seats as they stand (``seat-event-invalid``) and
   come between batches, ``seed_revealed`` comes last (``event-after-end``), a
   ``game_aborted`` ends a game in progress with a detail of printable text
   (``abort-invalid``; one with reason ``abandoned`` only while the game waits for players,
   at or after its ``open_until``) and only the clocks and the reveal follow it, every event
   folds (``fold-failed``), ``check_invariants`` holds after every batch
   (``invariant-broken``), and the final state's outcome matches the status, the stored
   outcome and the presence of ``seed_revealed``.
3. **Times.** The game's ``created_at`` and ``updated_at`` and every row's ``recorded_at``
   are RFC 3339 times in UTC as the engine writes them, ``2026-11-29T17:00:00.000000Z``
   (``invalid-timestamp``; :mod:`spies_replay.times`), and from the creation on they never
   run backwards (``time-backwards``, at the first row earlier than the one before it).
4. **Bot marks against the seats.** A command a bot chose carries its mark
   (:mod:`spies_replay.marks`, ``NAME@VERSION``; ``bot-mark-invalid`` when it is not one),
   and comes from a seat that bot plays at that version (``bot-mismatch``). A command with no
   mark from a seat a bot holds from creation is a bot's move passed off as a person's
   (``bot-mark-missing``): nobody holds a token to such a seat.
5. **Re-derivation.** The game is re-run with the pure step (:mod:`spies_core.step`) that
   the server takes: the setup, ``setup(spec, players, options, FairRng(seed, 0))``, must
   give exactly the logged setup events, and each stored command, stepped by its seat with
   ``FairRng(seed, nonce=seq_before)`` from the state the log folds to, exactly the logged
   batch (``rederivation-mismatch``, ``command-refused``). A game created with an open seat
   (``game_created.deal_deferred``, which needs one: ``header-mismatch``) has its setup
   events after the ``seat_joined`` that takes its last open seat, in that batch; a game
   event or command before it is ``misplaced-event``. This proves every shuffle and
   deal, and that every event followed from a legal command. The logged events themselves
   are folded one at a time (``apply_events``), so a fold that fails is named at its row.
   For a finished game it uses the seed revealed in the log (after checking it against the
   commitment: ``seed-mismatch``, and the revealed deal against its commitment:
   ``deal-mismatch``, both named at the reveal; a finished game without a reveal is
   ``seed-not-revealed`` at the seq where it should be): anyone can do this. For a game in
   progress it can only run on the server's own database, from the ``seeds`` table, as an
   operator audit; :attr:`VerifyReport.rederived` says which.
6. **Bot moves.** With the seed, each marked command is asked again of the bot it names, as
   the server asked it (``spies_api.table.bots``): the seat's view at the version before the
   command (``view_at``), its legal commands, and the generator
   ``bot_rng(seed, seat, version)``. Its answer must be the recorded command
   (``bot-move-mismatch``). The bots come from the caller (``bots``, a
   :class:`~spies_replay.marks.BotPolicies`): this package never imports them.
7. **The seed's source.** ``seed_source`` must agree with the log (``seed-source-mismatch``):
   a ``server`` seed is the 32 random bytes the server draws, so a revealed one of another
   length, or one that reads as text (``rigged``: a seed a person typed), is not one; a
   ``client`` seed is the UTF-8 text the client gave; ``deal`` labels a game exactly when
   ``game_created`` commits to an explicit deal (named at seq 1; a ``server`` or ``client``
   seed is checked at the reveal, or at seq 1 against the operator's seed).
8. **Clocks** (a game created with a time control): every clock is recomputed from the rows'
   times (:mod:`spies_replay.clock_audit`): each ``clocks_updated`` must be the clocks its
   batch leaves (``clocks-mismatch``, ``clocks-missing``, ``clocks-unexpected``), a seat's
   own command must be recorded before its deadline (``move-after-deadline``), a
   ``clock_expired`` at or after it (``clock-expired-early``), the forced move after it must
   be marked with the time control's bot (re-run like any bot move; ``forced-move-missing``,
   ``bot-mark-missing``, ``bot-mismatch``), an abandoned seat handed to it before that move
   (``seat-not-handed``), and a forfeit ends the game as the game's ``forfeit`` says.
9. **The published head** (``head``, optional): the log must end in the head hash its
   server published (``published-head-mismatch``; the message says when that hash is an
   earlier row's, a log that goes on past what was published).

**Caveats** (:class:`Caveat`, in :attr:`VerifyReport.caveats`) are what the log does not let
this build prove though nothing in it is wrong; the report stays ``ok``. Each stands for
every event it concerns, with their count and the first seq:

- ``bot-version-unknown``: marks without a version (a log written before bots had
  versions): the bot is known, not which version chose, so the moves are not re-derived.
- ``bot-not-in-build``, ``bot-version-not-in-build``: the mark names a bot, or a version of
  it, that this build lacks (a newer or an older server); not re-derived.
- ``bots-not-given``: verify was called without bots (the library's default; the console
  script passes its own); marks are checked against the seats, the moves not re-derived.
- ``unmarked-on-handed-seat``: commands without a mark from a seat its holder had handed to
  a bot. The server accepts a holder's own commands on a handed seat (the holder keeps the
  token), so such a command may be the holder's, or a bot's whose mark was stripped: the
  log cannot tell.
- ``seed-source-predates-deal``: ``game_created`` commits to an explicit deal but labels
  its seed ``server`` or ``client`` (written before the ``deal`` label): its hidden cards
  were laid out by its creator, not drawn from the seed.
- ``clocks-resumed``: the server resumed clocks that ran out while no server ran
  (``clocks_resumed``): that time was counted against no seat, and the log cannot prove
  that no server ran then.

What no verifier can see: an attacker who can write the file and recomputes every hash can
swap two simultaneous commands of different seats (another valid history), move a
``recorded_at`` within the times around it, or strip marks on a handed seat (a caveat, above);
the head hash a client saw (in every summary), given as ``head``, is the anchor for that.
``tests/attack/test_tampering.py`` tries every edit, deletion, insertion and swap, and
``tests/replay/test_forged_exports.py`` every forged label.

Snapshots are a cache, not part of the log: :func:`verify_game` compares them with the fold
and reports disagreements as warnings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

import msgspec

from spies_core.bot_names import FALLBACK_BOT
from spies_core.decider import AnySpec, Outcome
from spies_core.errors import SpiesError
from spies_core.rng import ALGORITHM, FairRng
from spies_core.step import Step, apply_events, setup, step, view_at
from spies_core.words import counted
from spies_replay.clock_audit import ClockAudit, ClockMismatchError
from spies_replay.clocks import to_ms
from spies_replay.codec import (
    MAX_JSON_DEPTH,
    GameCodec,
    canonical_bytes,
    canonical_json,
    chain_hash,
    codec_for,
    deal_commitment,
    duplicated_key,
    encode,
    event_tag,
    genesis_hash,
    json_depth,
)
from spies_replay.errors import GameNotFoundError
from spies_replay.marks import BotMark, BotPolicies, parse_bot_mark
from spies_replay.meta import (
    AbortReason,
    ClockExpired,
    ClocksResumed,
    ClocksUpdated,
    GameAborted,
    GameCreated,
    SeatEvent,
    SeatState,
    SeatType,
    SeedRevealed,
    SeedSource,
    aborted_outcome,
    apply_seat_event,
    check_abort_detail,
    initial_seats,
)
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameStatus
from spies_replay.times import Instant, parse_utc

__all__ = [
    "Caveat",
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


class Caveat(msgspec.Struct, frozen=True, kw_only=True):
    """Something a log does not let this build prove, though nothing in it is wrong: a bot
    move it cannot re-run, a label that predates what it labels. The log still verifies."""

    seq: int | None
    """The first seq it concerns."""
    code: str
    """Stable kebab-case code, e.g. ``bot-version-unknown`` (see the module docstring)."""
    message: str
    count: int = 1
    """How many events it concerns (one caveat stands for all of them)."""


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
    caveats: list[Caveat] = []
    """What the log does not let this build prove (it is ``ok`` all the same)."""
    bot_moves_rederived: int = 0
    """How many commands marked as a bot's were re-run with that bot and found to be its
    choice."""
    published_head: str | None = None
    """The head hash a server published that the log was checked against, if one was given."""

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


_ClockEvent = ClocksUpdated | ClockExpired | ClocksResumed


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
    bots: BotPolicies | None = None,
    head: str | None = None,
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
        bots: the bots to re-run marked commands with (the console layer passes the
            registry of ``spies_bots``); ``None``: marks are checked against the seats but
            no bot move is re-run (caveat ``bots-not-given``).
        head: the head hash a server published for this game: the log must end in it
            (``published-head-mismatch``).

    Returns:
        The report (``ok``, or the first problem by seq), and the final and captured states.
    """
    spec = games.get(record.game)
    verifier = _Verifier(
        record, None if spec is None else codec_for(spec), frozenset(capture), bots, head
    )
    try:
        if spec is None:
            verifier.walk_chain(rows)
            raise _fail(
                None, "unknown-game", f"game {record.game!r} is not registered: cannot decode"
            )
        verifier.run(rows, seed, deal)
    except _ProblemFoundError as stop:
        return VerifyResult(report=verifier.report(stop.problem))
    except ClockMismatchError as found:
        problem = Problem(seq=found.seq, code=found.code, message=found.message)
        return VerifyResult(report=verifier.report(problem))
    return VerifyResult(report=verifier.report(None), state=verifier.state, states=verifier.states)


class _Verifier:
    """One pass over a log: chain, decode, re-derive and fold each row as it comes."""

    def __init__(
        self,
        record: GameRecord,
        codec: GameCodec | None,
        capture: frozenset[int],
        bots: BotPolicies | None,
        head: str | None,
    ):
        self.record = record
        self.codec = codec
        self.capture = capture
        self.bots = bots
        self.published = head
        self.hashes: dict[str, int] = {}
        """Each row's hash to its seq (kept only to name a published head's seq)."""
        self.caveats: dict[tuple[str, str], _Tally] = {}
        """The caveats so far, by code and what they concern, in the order first met."""
        self.bot_moves = 0
        self.last_time: tuple[Instant, str] | None = None
        """The latest time read so far (the creation's, then each row's), and its text."""
        self.seqs: frozenset[int] = frozenset()
        self.previous = genesis_hash(record.id)
        self.rows = 0
        self.state: Any = None
        self.outcome: Outcome | None = None
        """The outcome of :attr:`state`: ``None`` while the logged game goes on."""
        self.states: dict[int, Any] = {}
        self.warnings: list[str] = []
        self.created: GameCreated | None = None
        self.clocks = ClockAudit(None, record.players)
        """The game's clocks, checked as the rows come."""
        self.closed = False
        """Whether the current batch's ``clocks_updated`` has come: no event of it follows."""
        self.setup_outcome: Outcome | None = None
        self.waiting = False
        """Whether the game waits for its deferred deal (``game_created.deal_deferred``
        with a seat still open): no game event or command may come yet."""
        self.deferred: Step[Any, Any] | None = None
        """The re-derived setup of a deferred deal, due after the join that takes the last
        open seat (``None`` without a seed)."""
        self.seats: list[SeatState] = []
        """Each seat's holder as the seat events so far leave it."""
        self.revealed_at: int | None = None
        self.aborted = False
        """Whether ``game_aborted`` ended the game: no game event may follow."""
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
            caveats=[tally.caveat() for tally in self.caveats.values()],
            bot_moves_rederived=self.bot_moves,
            published_head=self.published,
        )

    def caveat(self, seq: int, code: str, about: str, describe: Callable[[int], str]) -> None:
        """Count one more event under the caveat ``(code, about)``; ``describe(count)`` says
        it in words once all are counted."""
        tally = self.caveats.get((code, about))
        if tally is None:
            self.caveats[(code, about)] = _Tally(seq, code, describe)
        else:
            tally.count += 1

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
        for name, text in (("payload", row.payload), ("command", row.command or "")):
            if json_depth(text) > MAX_JSON_DEPTH:
                raise _fail(
                    row.seq,
                    "malformed-row",
                    f"payload or command nested deeper than {MAX_JSON_DEPTH} levels",
                )
            key = duplicated_key(text)
            if key is not None:
                raise _fail(
                    row.seq,
                    "duplicate-key",
                    f"the {name} has the key {key[:80]!r} twice in one object: JSON readers"
                    " differ on which one counts, so the row has no one meaning",
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
        if self.published is not None:
            self.hashes.setdefault(row.hash, row.seq)
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

    def _check_updated_at(self, rows: Sequence[EventRow]) -> None:
        """The game's ``updated_at`` is its last event's time, as the store writes it (the
        one field of a record that neither the chain nor ``game_created`` holds)."""
        last = rows[-1]
        if self.record.updated_at != last.recorded_at:
            raise _fail(
                last.seq,
                "header-mismatch",
                f"the game's updated_at {self.record.updated_at[:40]!r} is not the time of its"
                f" last event, {last.recorded_at[:40]!r} (seq {last.seq})",
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
        if self.revealed_at is None:
            self.clocks.end(self.rows + 1, finished_at_setup=self.setup_outcome is not None)
        self._check_resumes()
        self._check_head()
        self._check_updated_at(rows)
        self._check_end()
        self._check_published_head()

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

    def _check_published_head(self) -> None:
        """The log must end in the head a server published (an anchor no rewrite can
        forge: the server's, not the file's)."""
        published = self.published
        if published is None or published.lower() == self.previous:
            return
        where = self.hashes.get(published.lower())
        found = (
            f": that is the hash at seq {where}, so this log goes on past the game the server"
            f" published at version {where}"
            if where is not None
            else ", nor the hash of any of its events"
        )
        raise _fail(
            self.rows,
            "published-head-mismatch",
            f"the log ends in head {self.previous[:16]}… (seq {self.rows}), not in the head"
            f" {published[:16]}… the server published{found}",
        )

    def _time(self, seq: int, name: str, text: str) -> None:
        """``text`` must be an RFC 3339 UTC time, and no earlier than any time before it."""
        instant = parse_utc(text)
        if instant is None:
            raise _fail(
                seq,
                "invalid-timestamp",
                f"{name} {text!r} is not an RFC 3339 time in UTC as the log writes it"
                " (e.g. 2026-11-29T17:00:00.000000Z)",
            )
        if self.last_time is not None and instant < self.last_time[0]:
            raise _fail(
                seq,
                "time-backwards",
                f"{name} {text} is earlier than {self.last_time[1]}, the time before it:"
                " the log's times never run backwards",
            )
        self.last_time = instant, text

    def _row(self, row: EventRow) -> None:
        assert self.codec is not None
        seq = row.seq
        if self.revealed_at is not None:
            raise _fail(seq, "event-after-end", "an event follows seed_revealed")
        if seq > 1:  # seq 1's time is read after the creation's (it must not be earlier)
            self._time(seq, "recorded_at", row.recorded_at)
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
        elif isinstance(event, ClocksUpdated | ClockExpired | ClocksResumed):
            self._clock_event(row, event)
        elif isinstance(event, GameAborted):
            self._aborted(row, event)
        else:
            self._game_row(row, event)

    def _game_row(self, row: EventRow, event: Any) -> None:
        """A row of the game's own: a command's first event, or a later event of a batch."""
        seq = row.seq
        if self.aborted:
            raise _fail(seq, "event-after-end", f"{row.type} follows game_aborted")
        if self.waiting:
            raise _fail(
                seq,
                "misplaced-event",
                f"{row.type} before the game is dealt: a game created with an open seat"
                " deals in the batch of the join that takes its last open seat",
            )
        if row.command is not None:
            self._start_batch(row)
        elif self.closed:
            raise _fail(
                seq,
                "misplaced-event",
                f"{row.type} follows its batch's clocks_updated: the clocks end a batch",
            )
        self._game_event(row, event)

    def _created(self, row: EventRow, event: Any) -> None:
        assert self.codec is not None
        _check_created(self.record, event)
        if row.command is not None or row.actor is not None:
            raise _fail(1, "misplaced-command", "game_created carries a command")
        if event.created_at is not None:
            self._time(1, "created_at", event.created_at)
        self._time(1, "recorded_at", row.recorded_at)
        if parse_utc(self.record.updated_at) is None:
            raise _fail(
                1,
                "invalid-timestamp",
                f"the game's updated_at {self.record.updated_at!r} is not an RFC 3339 time in"
                " UTC as the log writes it",
            )
        self.created = event
        self.clocks = ClockAudit(event.clock, event.players)
        self.seats = initial_seats(event)
        if len(self.seats) != event.players or any(
            seat.seat != index for index, seat in enumerate(self.seats)
        ):
            raise _fail(1, "header-mismatch", "game_created lists seats that are not the game's")
        self._check_deal_label(event)
        self._check_lobby(event)
        if self.seed is None:
            return
        if self.rederived is Rederivation.OPERATOR_SEED:
            _check_seed_source(1, event.seed_source, self.seed, "the server's stored seed")
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
            started = setup(self.codec.spec, event.players, options, FairRng(self.seed, 0))
        except SpiesError as exc:
            raise _fail(1, "setup-refused", f"start refused the logged options: {exc}") from exc
        self.setup_outcome = started.outcome
        if self.waiting:
            self.deferred = started
        else:
            self.derived = started

    def _check_lobby(self, created: GameCreated) -> None:
        """A deal deferred to the last join needs an open seat; open seats' expiry is a time."""
        if created.deal_deferred:
            if not any(seat.type == SeatType.OPEN for seat in self.seats):
                raise _fail(
                    1,
                    "header-mismatch",
                    "game_created defers its deal to the last join but has no open seat",
                )
            self.waiting = True
        if created.open_until is not None and parse_utc(created.open_until) is None:
            raise _fail(
                1,
                "invalid-timestamp",
                f"open_until {created.open_until[:40]!r} is not an RFC 3339 time in UTC as the"
                " log writes it",
            )

    def _revealed(self, row: EventRow, event: SeedRevealed) -> None:
        assert self.created is not None and self.codec is not None
        seq = row.seq
        if row.command is not None or row.actor is not None:
            raise _fail(seq, "misplaced-command", "seed_revealed carries a command")
        self._end_batch(seq)
        self.clocks.end(seq, finished_at_setup=self.setup_outcome is not None)
        seed = _revealed_seed(self.codec, row)
        if seed is None or not _commits(seed, self.created):
            raise _fail(seq, "seed-mismatch", "the revealed seed does not match the commitment")
        _check_seed_source(seq, self.created.seed_source, seed, "the revealed seed")
        self.revealed_at = seq

    def _check_deal_label(self, created: GameCreated) -> None:
        """A ``deal`` source exactly when game_created commits to an explicit deal."""
        source = created.seed_source
        if source is SeedSource.DEAL and created.deal_commitment is None:
            raise _fail(
                1,
                "seed-source-mismatch",
                "game_created labels its seed source 'deal' but commits to no explicit deal",
            )
        if source is not SeedSource.DEAL and created.deal_commitment is not None:
            self.caveat(
                1,
                "seed-source-predates-deal",
                "",
                lambda _: (
                    f"game_created commits to an explicit deal but labels its seed"
                    f" {str(source)!r} (a log written before the 'deal' source): the hidden cards"
                    " were laid out by the game's creator, not drawn from the seed"
                ),
            )

    def _between_batches(self, row: EventRow) -> None:
        """A meta event that ends the batch before it, in a game still in progress."""
        seq = row.seq
        if row.command is not None or row.actor is not None or row.bot is not None:
            raise _fail(seq, "misplaced-command", f"{row.type} carries a command")
        self._end_batch(seq)
        if self.outcome is not None:
            raise _fail(seq, "event-after-end", f"{row.type} follows the end of the game")

    def _seat_event(self, row: EventRow, event: SeatEvent) -> None:
        seq = row.seq
        self._between_batches(row)
        self.clocks.seat_event(seq, event)
        try:
            self.seats = apply_seat_event(self.seats, event)
        except ValueError as exc:
            raise _fail(seq, "seat-event-invalid", str(exc)) from exc
        if self.waiting and not any(seat.type == SeatType.OPEN for seat in self.seats):
            # the last open seat is taken: the deferred deal follows in this batch
            self.waiting, self.closed = False, False
            self.derived, self.deferred = self.deferred, None

    def _aborted(self, row: EventRow, event: GameAborted) -> None:
        """``game_aborted``: the end of a game in progress, nobody winning; the clocks stop."""
        seq = row.seq
        self._between_batches(row)
        try:
            check_abort_detail(event.detail)
        except ValueError as exc:
            raise _fail(seq, "abort-invalid", str(exc)) from exc
        if event.reason == AbortReason.ABANDONED:
            self._check_abandoned(row)
        self.clocks.aborted(seq)
        self.closed = False
        self.aborted = True
        self.outcome = aborted_outcome(event)

    def _check_abandoned(self, row: EventRow) -> None:
        """The server abandons a game only while it waits for players, once its open seats
        expired (``game_created.open_until``)."""
        until = None if self.created is None else self.created.open_until
        if not self.waiting or until is None or to_ms(row.recorded_at) < to_ms(until):
            expiry = "no expiry" if until is None else f"open seats expiring at {until}"
            raise _fail(
                row.seq,
                "abort-invalid",
                f"game_aborted says abandoned at {row.recorded_at}, but the game"
                f" {'waits for players' if self.waiting else 'is dealt'} with {expiry}:"
                " the server abandons only a table whose open seats expired",
            )

    def _start_batch(self, row: EventRow) -> None:
        assert self.codec is not None and row.command is not None
        seq = row.seq
        self._end_batch(seq)
        if self.outcome is not None:
            raise _fail(seq, "event-after-end", "a command follows the end of the game")
        if row.actor is None:
            raise _fail(seq, "missing-actor", "a command without the seat that sent it")
        self.closed = False
        forced = self.clocks.command(seq, to_ms(row.recorded_at), row.actor)
        mark = self._check_forced_mark(row) if forced else self._check_mark(row, row.actor)
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
        if mark is not None:
            self._rederive_bot_move(row, row.actor, mark, command, self.seed)

    def _check_mark(self, row: EventRow, actor: int) -> BotMark | None:
        """The command's mark against the seat's holder: a marked command comes from a seat
        that bot plays; an unmarked one from a seat no bot holds from the start."""
        seq = row.seq
        holder = self.seats[actor] if 0 <= actor < len(self.seats) else None
        if row.bot is None:
            if holder is None or holder.bot is None:
                return None
            bot = holder.bot
            if holder.type == SeatType.BOT:
                raise _fail(
                    seq,
                    "bot-mark-missing",
                    f"seat {actor}'s command carries no bot mark, but bot {bot!r} holds the seat"
                    " from the start and nobody else can command it: a bot's move passed off"
                    " as a person's",
                )
            # The API accepts a holder's own commands on a seat it handed to a bot, so an
            # unmarked command there proves nothing either way: said, not failed.
            self.caveat(
                seq,
                "unmarked-on-handed-seat",
                f"{actor}:{bot}",
                lambda count: (
                    f"{_commands(count)} of seat {actor} carry no bot mark while"
                    f" bot {bot!r} played the seat (its holder had handed it over): the server"
                    " accepts a holder's own commands on a handed seat, so the log cannot tell"
                    f" them from {bot}'s moves with their marks stripped"
                ),
            )
            return None
        try:
            mark = parse_bot_mark(row.bot)
        except ValueError as exc:
            raise _fail(seq, "bot-mark-invalid", str(exc)) from exc
        if holder is None or holder.bot is None:
            raise _fail(
                seq,
                "bot-mismatch",
                f"a command marked as bot {row.bot!r}'s, but no bot plays seat {actor} here",
            )
        if holder.bot != mark.name and mark.name != FALLBACK_BOT:
            raise _fail(
                seq,
                "bot-mismatch",
                f"a command marked as bot {row.bot!r}'s, but no such bot plays seat {actor} here",
            )
        return mark

    def _check_forced_mark(self, row: EventRow) -> BotMark:
        """A forced move (after the seat's clock ran out) is the time control's bot's, or
        the fallback bot's when that one failed."""
        control = self.clocks.control
        assert control is not None
        if row.bot is None:
            raise _fail(
                row.seq,
                "bot-mark-missing",
                f"seat {row.actor}'s clock ran out and its move is played by"
                f" {control.timeout_bot!r}, but the command carries no bot mark",
            )
        try:
            mark = parse_bot_mark(row.bot)
        except ValueError as exc:
            raise _fail(row.seq, "bot-mark-invalid", str(exc)) from exc
        if mark.name not in (control.timeout_bot, FALLBACK_BOT):
            raise _fail(
                row.seq,
                "bot-mismatch",
                f"seat {row.actor}'s forced move is marked as {row.bot!r}'s, but the time"
                f" control's bot is {control.timeout_bot!r}",
            )
        return mark

    def _clock_event(
        self, row: EventRow, event: ClocksUpdated | ClockExpired | ClocksResumed
    ) -> None:
        """A clock event: ``clock_expired`` and ``clocks_resumed`` open a batch,
        ``clocks_updated`` closes the game events of one."""
        assert self.codec is not None
        seq, at = row.seq, to_ms(row.recorded_at)
        if row.command is not None or row.actor is not None or row.bot is not None:
            raise _fail(seq, "misplaced-command", f"{row.type} carries a command")
        self._end_batch(seq)
        if isinstance(event, ClocksUpdated):
            spec = self.codec.spec
            finished = self.outcome is not None
            self.clocks.updated(
                seq,
                at,
                event,
                to_act=() if finished else spec.to_act(self.state),
                finished=finished,
                seats=self.seats,
            )
            self.closed = True
            return
        if self.outcome is not None:
            raise _fail(seq, "event-after-end", f"{row.type} follows the end of the game")
        self.closed = False
        if isinstance(event, ClocksResumed):
            self.clocks.resumed(seq, at, event)
            return
        forfeit = self.codec.spec.forfeit
        self.clocks.expired(seq, at, event, forfeitable=forfeit is not None, seats=self.seats)
        if event.forfeit and forfeit is not None:
            self.outcome = forfeit(self.state, event.seat)

    def _check_resumes(self) -> None:
        resumes = self.clocks.resumes
        if resumes:
            self.caveat(
                resumes[0],
                "clocks-resumed",
                "",
                lambda _: (
                    f"the clocks were resumed {counted(len(resumes), 'time')} (clocks_resumed):"
                    " the time"
                    " between the last event before each and its clocks_resumed was counted"
                    " against no seat, as no server ran then; the log cannot prove that none"
                    " did"
                ),
            )

    def _rederive_bot_move(
        self, row: EventRow, actor: int, mark: BotMark, command: Any, seed: bytes
    ) -> None:
        """Ask the marked bot what the server asked it (the seat's view at the version
        before the command, its legal commands, ``bot_rng(seed, seat, version)``): its
        answer must be the recorded command."""
        assert self.codec is not None and row.bot is not None
        spec, seq, text = self.codec.spec, row.seq, row.bot
        if self.bots is None:
            self.caveat(
                seq,
                "bots-not-given",
                "",
                lambda count: (
                    f"{_commands(count)} marked as a bot's were not re-derived:"
                    " verify was given no bots to re-run them with"
                ),
            )
            return
        if mark.version is None:
            self.caveat(
                seq,
                "bot-version-unknown",
                text,
                lambda count: (
                    f"{_commands(count)} marked {text!r}, with no bot version (a log"
                    " written before bots had versions): bot version unknown, not re-derived"
                ),
            )
            return
        found = self.bots.lookup(mark.name, spec.name)
        if found is None:
            self.caveat(
                seq,
                "bot-not-in-build",
                text,
                lambda count: (
                    f"{_commands(count)} marked {text!r}: this build has no bot"
                    f" {mark.name!r} for {spec.name}, so they were not re-derived"
                ),
            )
            return
        version, policy = found
        if version != mark.version:
            self.caveat(
                seq,
                "bot-version-not-in-build",
                text,
                lambda count: (
                    f"{_commands(count)} marked {text!r}: this build has"
                    f" {mark.name} at version {version}, so they were not re-derived"
                ),
            )
            return
        at = seq - 1
        view = view_at(spec, self.state, actor, at)
        legal = list(spec.legal_commands(self.state, actor))
        try:
            chosen = policy(view, legal, self.bots.rng(seed, actor, at))
        except Exception as exc:  # noqa: BLE001  (a bot that fails here made no move here)
            raise _fail(
                seq,
                "bot-move-mismatch",
                f"seat {actor}'s command is marked as {text}'s, but {text} fails here"
                f" ({type(exc).__name__}), so it chose no command",
            ) from exc
        if canonical_json(encode(chosen)) != canonical_json(row.command or "null"):
            raise _fail(
                seq,
                "bot-move-mismatch",
                f"seat {actor}'s {event_tag(command)} is marked as {text}'s, but {text} asked"
                f" at version {at} chooses {encode(chosen)[:200]}",
            )
        self.bot_moves += 1

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
                    f"re-running the command gives {counted(len(expected), 'event')}; this one"
                    " does not follow from it",
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
                f"re-running gives {counted(len(self.derived.events), 'event')} here but the log"
                f" has {len(self.batch)}",
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


@dataclass
class _Tally:
    """One caveat being counted."""

    seq: int
    code: str
    describe: Callable[[int], str]
    count: int = 1

    def caveat(self) -> Caveat:
        return Caveat(
            seq=self.seq, code=self.code, message=self.describe(self.count), count=self.count
        )


def _commands(count: int) -> str:
    return "1 command" if count == 1 else f"{count} commands"


SERVER_SEED_BYTES: Final = 32
"""A server seed is ``secrets.token_bytes(32)``."""


def _check_seed_source(seq: int, source: SeedSource, seed: bytes, which: str) -> None:
    """The seed must be one its label allows: a ``server`` seed 32 bytes that do not read as
    text, a ``client`` seed UTF-8 text (what the client gave).

    A person types text, and 32 random bytes read as text (UTF-8 whose every character is
    printable or white space: ``rigged\\n`` read from a file is text too) by a chance of
    about five in a hundred billion. A client seed chosen with a control character in it,
    later relabelled ``server``, would pass: the head hash the server published is the
    anchor for that.
    """
    problem = None
    text = _as_text(seed)
    if source is SeedSource.SERVER:
        if text is not None:
            problem = (
                f"the text {text[:40]!r} ({len(seed)} bytes): a seed a person typed, not the"
                f" {SERVER_SEED_BYTES} random bytes the server draws"
            )
        elif len(seed) != SERVER_SEED_BYTES:
            problem = (
                f"{len(seed)} bytes, not the {SERVER_SEED_BYTES} random bytes the server draws"
            )
    elif source is SeedSource.CLIENT and not _is_utf8(seed):
        problem = "not the UTF-8 text a client gives"
    if problem is not None:
        raise _fail(
            seq,
            "seed-source-mismatch",
            f"game_created labels the seed {str(source)!r}, but {which} is {problem}",
        )


def _is_utf8(seed: bytes) -> bool:
    try:
        seed.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return bool(seed)


def _as_text(seed: bytes) -> str | None:
    """The seed as the text it reads as (every character printable or white space), or
    ``None`` when it does not read as text."""
    try:
        text = seed.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if all(char.isprintable() or char.isspace() for char in text) else None


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


def verify_game(
    store: EventStore,
    game_id: str,
    *,
    bots: BotPolicies | None = None,
    head: str | None = None,
) -> VerifyReport:
    """Verify one stored game, re-deriving it from the revealed or the stored seed.

    Args:
        store: the store.
        game_id: the game.
        bots: the bots to re-run marked commands with (see :func:`verify_log`).
        head: the head hash a server published for the game (see :func:`verify_log`).

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
    result = verify_log(
        store.games, record, rows, seed=seed, deal=deal, capture=capture, bots=bots, head=head
    )
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


def verify_all(store: EventStore, *, bots: BotPolicies | None = None) -> list[VerifyReport]:
    """Verify every stored game, and report events whose game row is missing.

    Args:
        store: the store.
        bots: the bots to re-run marked commands with (see :func:`verify_log`).
    """
    reports = [verify_game(store, game_id, bots=bots) for game_id in store.game_ids()]
    reports += [_orphan_report(store, game_id) for game_id in store.orphan_game_ids()]
    return reports
