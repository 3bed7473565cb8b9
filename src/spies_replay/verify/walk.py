"""One pass over a log: the chain first, then each row decoded and handed to the checks of
its kind, in the order ``docs/protocol.md`` gives them.

Every payload decodes as the game's event (``undecodable-event``) whose tag is the ``type``
column (``type-mismatch``). Seq 1 is the creation; ``game_created`` anywhere else is
``misplaced-meta-event``. A meta event carries no command, actor or mark
(``misplaced-command``) and ends the batch before it; a seat event, ``clock_expired``,
``clocks_resumed`` or a command after the game's end, and anything after ``seed_revealed``,
is ``event-after-end``. A game event's row with a command starts a batch: it names its seat
(``missing-actor``) and decodes as the game's command (``undecodable-command``). A game
event's row without a command names no actor and carries no mark (``misplaced-actor``: the
chain covers them, so a forger could otherwise say who played what); it belongs to the
batch before it and may not follow its ``clocks_updated`` (``misplaced-event``). No game
event follows ``game_aborted`` (``event-after-end``) or comes before a deferred deal
(``misplaced-event``). A player's ``entropy_added`` belongs to a ``mixed`` game
(``seed-source-mismatch``; a ``mixed`` game has its creator's at seq 2), sits right after
``game_created`` (the creator's) or right after its seat's ``seat_joined``, in that batch
(``misplaced-meta-event``), and is 16 to 64 bytes of lower-case hex (``entropy-invalid``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

import msgspec

from spies_core.decider import AnySpec
from spies_core.words import counted
from spies_replay.clocks import to_ms
from spies_replay.codec import GameCodec, codec_for, event_tag
from spies_replay.formats import log_of
from spies_replay.marks import BotMark, BotPolicies
from spies_replay.meta import (
    ClockExpired,
    ClocksResumed,
    ClocksUpdated,
    EntropyAdded,
    GameAborted,
    GameCreated,
    SeatEvent,
    SeatJoined,
    SeedRevealed,
    SeedSource,
    aborted_outcome,
    check_entropy,
)
from spies_replay.receipts import KeyList, Receipt
from spies_replay.store.records import EventRow, GameRecord
from spies_replay.verify import header
from spies_replay.verify.bots import BotMoves
from spies_replay.verify.chain import Chain
from spies_replay.verify.clocks import ClockAudit, ClockMismatchError
from spies_replay.verify.ending import check_abort, check_end
from spies_replay.verify.receipts import check_receipts
from spies_replay.verify.rederive import Batches
from spies_replay.verify.report import (
    CaveatTally,
    Problem,
    ProblemFoundError,
    Rederivation,
    VerifyReport,
    VerifyResult,
    fail,
)
from spies_replay.verify.seats import Seats
from spies_replay.verify.seed import (
    ChosenSeed,
    check_deal_label,
    check_revealed,
    choose_seed,
    seeded_options,
)
from spies_replay.verify.times import Timeline

__all__ = ["verify_log"]


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
    receipts: Sequence[Receipt] = (),
    keys: KeyList | None = None,
) -> VerifyResult:
    """Verify one game's log (``docs/protocol.md`` lists every check, in order).

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
        receipts: receipts the server signed for this game: the log must hold each one's
            head at its seq (``receipt-mismatch``).
        keys: the server's keys (``GET /keys``): each receipt's signature is checked too
            (``receipt-key-unknown``, ``receipt-signature-invalid``).

    Returns:
        The report (``ok``, or the first problem by seq), and the final and captured states.
    """
    spec = games.get(record.game)
    tally = CaveatTally()
    log = log_of(record, rows)
    chain = Chain(record.id, head, log)
    bot_moves = BotMoves(bots, tally)
    chosen = ChosenSeed()
    state: Any = None
    states: dict[int, Any] = {}
    try:
        chain.walk(rows)
        if spec is None:
            header.check_head(record, chain.rows, chain.previous)
            raise fail(
                None, "unknown-game", f"game {record.game!r} is not registered: cannot decode"
            )
        codec = codec_for(spec)
        # The whole chain first (above): an edit that breaks it is named at its own seq,
        # before any check that reads ahead (the revealed seed and deal sit in the last row).
        chosen = choose_seed(codec, rows, seed, deal)
        walk = _Walk(record, codec, chosen, tally, bot_moves, log)
        captured = walk.run(rows, frozenset(capture))
        header.check_head(record, chain.rows, chain.previous)
        header.check_updated_at(record, rows)
        check_end(record, chain.rows, walk.batches.outcome, walk.revealed_at)
        chain.check_published()
        check_receipts(record.id, rows, receipts, keys)  # receipts
        state, states = walk.batches.state, captured
    except ProblemFoundError as stop:
        problem: Problem | None = stop.problem
    except ClockMismatchError as found:
        problem = Problem(seq=found.seq, code=found.code, message=found.message)
    else:
        problem = None
    report = VerifyReport(
        game_id=record.id,
        game=record.game,
        status=str(record.status),
        ok=problem is None,
        events=chain.rows,
        head_hash=record.head_hash,
        rederived=chosen.rederived if problem is None else Rederivation.NOT_CHECKED,
        problem=problem,
        warnings=[] if chosen.warning is None else [chosen.warning],
        caveats=tally.caveats(),
        bot_moves_rederived=bot_moves.rederived,
        published_head=head,
    )
    return VerifyResult(report=report, state=state, states=states)


class _Walk:
    """The pass over the rows of a chained log: each row to the checks of its kind."""

    def __init__(
        self,
        record: GameRecord,
        codec: GameCodec,
        chosen: ChosenSeed,
        tally: CaveatTally,
        bot_moves: BotMoves,
        log: str,
    ) -> None:
        self.record = record
        self.log = log
        """The chain the log was walked in: ``game_created`` must say the same."""
        self.codec = codec
        self.chosen = chosen
        self.seed = chosen.play
        """The seed the game draws from (the revealed one, or the mix of a ``mixed`` game)."""
        self.previous: Any = None
        """The event of the row before the current one."""
        self.tally = tally
        self.bot_moves = bot_moves
        self.times = Timeline()
        self.batches = Batches(codec.spec)
        self.seats = Seats()
        self.clocks = ClockAudit(None, record.players)
        """The game's clocks, checked as the rows come."""
        self.created: GameCreated | None = None
        self.aborted = False
        """Whether ``game_aborted`` ended the game: no game event may follow."""
        self.revealed_at: int | None = None

    def run(self, rows: Sequence[EventRow], capture: frozenset[int]) -> dict[int, Any]:
        """Every row, then the last batch's end and the clocks'; the states captured."""
        states: dict[int, Any] = {}
        for row in rows:
            self._row(row)
            if row.seq in capture:
                states[row.seq] = self.batches.state
        end = len(rows) + 1
        self.batches.end(end)
        if self.revealed_at is None:
            self.clocks.end(
                end,
                finished_at_setup=self.batches.setup_outcome is not None,
                waiting=self.seats.waiting,
            )
        self._resumes_caveat()
        return states

    def _row(self, row: EventRow) -> None:
        seq = row.seq
        if self.revealed_at is not None:
            raise fail(seq, "event-after-end", "an event follows seed_revealed")
        if seq > 1:  # seq 1's time is read after the creation's (it must not be earlier)
            self.times.read(seq, "recorded_at", row.recorded_at)
        try:
            event = self.codec.event.decode(row.payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise fail(seq, "undecodable-event", f"{row.type}: {exc}") from exc
        if event_tag(event) != row.type:
            raise fail(
                seq, "type-mismatch", f"type column {row.type!r} but payload {event_tag(event)!r}"
            )
        if seq == 2:
            self._creator_entropy(event)
        if seq == 1:
            self._created(row, event)
        elif isinstance(event, EntropyAdded):
            self._entropy(row, event)
        elif isinstance(event, GameCreated):
            raise fail(seq, "misplaced-meta-event", "game_created after seq 1")
        elif isinstance(event, SeedRevealed):
            self._revealed(row)
        elif isinstance(event, SeatEvent):
            self._between_batches(row)
            self.clocks.seat_event(seq, event)
            if self.seats.seat_event(seq, event):
                self.batches.deal()
        elif isinstance(event, ClocksUpdated | ClockExpired | ClocksResumed):
            self._clock_event(row, event)
        elif isinstance(event, GameAborted):
            self._aborted(row, event)
        else:
            self._game_row(row, event)
        self.previous = event

    def _creator_entropy(self, event: Any) -> None:
        """A ``mixed`` game's seq 2 is its creator's contribution."""
        created = self.created
        if created is None or created.seed_source is not SeedSource.MIXED:
            return
        if not isinstance(event, EntropyAdded) or event.seat is not None:
            raise fail(
                2,
                "seed-source-mismatch",
                "game_created labels its seed 'mixed' but seq 2 is not the creator's entropy_added",
            )

    def _entropy(self, row: EventRow, event: EntropyAdded) -> None:
        """A player's contribution: in a ``mixed`` game, in its place, of 16 to 64 bytes."""
        seq = row.seq
        _no_command(row)
        assert self.created is not None
        if self.created.seed_source is not SeedSource.MIXED:
            raise fail(
                seq,
                "seed-source-mismatch",
                f"entropy_added in a game whose seed is labelled"
                f" {str(self.created.seed_source)!r}, not 'mixed'",
            )
        if event.seat is None:
            placed = seq == 2
            where = "the creator's entropy_added must be seq 2, right after game_created"
        else:
            previous = self.previous
            placed = isinstance(previous, SeatJoined) and previous.seat == event.seat
            where = (
                f"seat {event.seat}'s entropy_added must come right after its seat_joined,"
                " in that batch"
            )
        if not placed:
            raise fail(seq, "misplaced-meta-event", where)
        try:
            check_entropy(event.entropy)
        except ValueError as exc:
            raise fail(seq, "entropy-invalid", str(exc)) from exc

    def _created(self, row: EventRow, event: Any) -> None:
        header.check_created(self.record, event, self.log)
        _no_command(row)
        if event.created_at is not None:
            self.times.read(1, "created_at", event.created_at)
        self.times.read(1, "recorded_at", row.recorded_at)
        header.check_updated_at_is_a_time(self.record)
        self.created = event
        self.clocks = ClockAudit(event.clock, event.players)
        self.seats.created(event)
        check_deal_label(event, self.tally)
        self.seats.check_lobby(event)
        if self.seed is not None:
            options = seeded_options(event, self.chosen)
            self.batches.set_up(event.players, options, self.seed, deferred=self.seats.waiting)

    def _revealed(self, row: EventRow) -> None:
        assert self.created is not None
        _no_command(row)
        self.batches.end(row.seq)
        self.clocks.end(row.seq, finished_at_setup=self.batches.setup_outcome is not None)
        check_revealed(self.codec, row, self.created)
        self.revealed_at = row.seq

    def _between_batches(self, row: EventRow) -> None:
        """A meta event that ends the batch before it, in a game still in progress."""
        _no_command(row)
        self.batches.end(row.seq)
        if self.batches.outcome is not None:
            raise fail(row.seq, "event-after-end", f"{row.type} follows the end of the game")

    def _aborted(self, row: EventRow, event: GameAborted) -> None:
        """``game_aborted``: the end of a game in progress, nobody winning; the clocks stop."""
        self._between_batches(row)
        until = None if self.created is None else self.created.open_until
        check_abort(row, event, waiting=self.seats.waiting, open_until=until)
        self.clocks.aborted(row.seq)
        self.batches.closed = False
        self.aborted = True
        self.batches.outcome = aborted_outcome(event)

    def _clock_event(
        self, row: EventRow, event: ClocksUpdated | ClockExpired | ClocksResumed
    ) -> None:
        """``clock_expired`` and ``clocks_resumed`` open a batch, ``clocks_updated`` closes
        the game events of one."""
        seq, at, batches = row.seq, to_ms(row.recorded_at), self.batches
        _no_command(row)
        batches.end(seq)
        if isinstance(event, ClocksUpdated):
            finished = batches.outcome is not None
            to_act = () if finished else self.codec.spec.to_act(batches.state)
            self.clocks.updated(
                seq, at, event, to_act=to_act, finished=finished, seats=self.seats.table
            )
            batches.closed = True
            return
        if batches.outcome is not None:
            raise fail(seq, "event-after-end", f"{row.type} follows the end of the game")
        batches.closed = False
        if isinstance(event, ClocksResumed):
            self.clocks.resumed(seq, at, event)
            return
        forfeit = self.codec.spec.forfeit
        self.clocks.expired(seq, at, event, forfeitable=forfeit is not None, seats=self.seats.table)
        if event.forfeit and forfeit is not None:
            batches.outcome = forfeit(batches.state, event.seat)

    def _game_row(self, row: EventRow, event: Any) -> None:
        """A row of the game's own: a command's first event, or a later event of a batch."""
        seq = row.seq
        if self.aborted:
            raise fail(seq, "event-after-end", f"{row.type} follows game_aborted")
        if self.seats.waiting:
            raise fail(
                seq,
                "misplaced-event",
                f"{row.type} before the game is dealt: a game created with an open seat"
                " deals in the batch of the join that takes its last open seat",
            )
        if row.command is not None:
            self._command(row)
        elif row.actor is not None or row.bot is not None:
            # hashed, so a rewrite keeps them: they say who played only on a command's row
            raise fail(
                seq,
                "misplaced-actor",
                f"{row.type} carries no command but names a seat or a bot: only a command's"
                " first row has an actor and a mark",
            )
        elif self.batches.closed:
            raise fail(
                seq,
                "misplaced-event",
                f"{row.type} follows its batch's clocks_updated: the clocks end a batch",
            )
        self.batches.event(row, event)

    def _command(self, row: EventRow) -> None:
        """A command's first row: a new batch, checked and, with the seed, re-run."""
        assert row.command is not None
        seq, batches = row.seq, self.batches
        batches.end(seq)
        if batches.outcome is not None:
            raise fail(seq, "event-after-end", "a command follows the end of the game")
        actor = row.actor
        if actor is None:
            raise fail(seq, "missing-actor", "a command without the seat that sent it")
        batches.closed = False
        mark: BotMark | None
        if self.clocks.command(seq, to_ms(row.recorded_at), actor):
            assert self.clocks.control is not None
            mark = self.bot_moves.check_forced_mark(row, self.clocks.control)
        else:
            mark = self.bot_moves.check_mark(row, actor, self.seats.holder(actor))
        try:
            command = self.codec.command.decode(row.command)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise fail(seq, "undecodable-command", f"stored command: {exc}") from exc
        if self.seed is None:
            return
        state = batches.state
        batches.command(row, actor, command, self.seed)
        if mark is not None:
            self.bot_moves.rederive(self.codec.spec, state, row, actor, mark, command, self.seed)

    def _resumes_caveat(self) -> None:
        resumes = self.clocks.resumes
        if resumes:
            self.tally.caveat(
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


def _no_command(row: EventRow) -> None:
    """A meta event carries no command, actor or mark."""
    if row.command is not None or row.actor is not None or row.bot is not None:
        raise fail(row.seq, "misplaced-command", f"{row.type} carries a command")
