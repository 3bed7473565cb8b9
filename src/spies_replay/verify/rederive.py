"""Re-derivation and the fold: the game re-run with the pure step (:mod:`spies_core.step`)
that the server takes, batch by batch, and the logged events folded one at a time.

With a seed, the set-up, ``setup(spec, players, options, FairRng(seed, 0))``, must give
exactly the logged set-up events (``setup-refused`` when the rules refuse the options), and
each stored command, stepped by its seat with ``FairRng(seed, nonce=seq_before)`` from the
state the log folds to, exactly the logged batch (``rederivation-mismatch``,
``command-refused``). This proves every shuffle and deal, and that every event followed from
a legal command. Without one, the logged events are still folded.

The logged events themselves are folded, not the re-derived ones (the log is what is
verified), one at a time (``apply_events``), so a fold that fails is named at its row
(``fold-failed``); ``check_invariants`` holds after every batch (``invariant-broken``).
"""

from __future__ import annotations

from typing import Any

from spies_core.decider import AnySpec, Outcome
from spies_core.errors import SpiesError
from spies_core.rng import FairRng
from spies_core.step import Step, apply_events, setup, step
from spies_core.words import counted
from spies_replay.codec import canonical_json, encode, event_tag
from spies_replay.store.records import EventRow
from spies_replay.verify.report import fail

__all__ = ["Batches"]


class Batches:
    """The game's state as the log folds it, and the batch being read: its rows, and the
    events re-running it gives."""

    def __init__(self, spec: AnySpec) -> None:
        self.spec = spec
        start = apply_events(spec, spec.initial_state(), ())
        self.state: Any = start.state
        self.outcome: Outcome | None = start.outcome
        """The outcome of :attr:`state`: ``None`` while the logged game goes on."""
        self.closed = False
        """Whether the current batch's ``clocks_updated`` has come: no event of it follows."""
        self.setup_outcome: Outcome | None = None
        """The outcome the re-derived set-up leaves (a game over at set-up)."""
        self._rows: list[EventRow] = []
        """The rows of the current batch (the set-up, or one command's events)."""
        self._derived: Step[Any, Any] | None = None
        """The re-derived step of the current batch, whose events the logged rows must
        equal; ``None`` when not re-deriving."""
        self._deferred: Step[Any, Any] | None = None
        """The re-derived set-up of a deferred deal, due after the join that takes the last
        open seat (``None`` without a seed)."""

    def set_up(self, players: int, options: dict[str, Any], seed: bytes, deferred: bool) -> None:
        """Re-run the set-up: the events of this batch, or of the batch that deals
        (``deferred``)."""
        try:
            started = setup(self.spec, players, options, FairRng(seed, 0))
        except SpiesError as exc:
            raise fail(1, "setup-refused", f"start refused the logged options: {exc}") from exc
        self.setup_outcome = started.outcome
        if deferred:
            self._deferred = started
        else:
            self._derived = started

    def deal(self) -> None:
        """The last open seat is taken: the deferred set-up follows in this batch."""
        self.closed = False
        self._derived, self._deferred = self._deferred, None

    def command(self, row: EventRow, actor: int, command: Any, seed: bytes) -> None:
        """Re-run a stored command: its events are this batch's."""
        try:
            self._derived = step(self.spec, self.state, actor, command, FairRng(seed, row.seq - 1))
        except SpiesError as exc:
            raise fail(
                row.seq,
                "command-refused",
                f"seat {actor}'s {event_tag(command)} is refused by the rules:"
                f" {exc.code}: {exc.message}",
            ) from exc

    def event(self, row: EventRow, event: Any) -> None:
        """A game event of the batch: the next re-derived one, if re-deriving; folded."""
        seq = row.seq
        if self._derived is not None:
            expected = self._derived.events
            index = len(self._rows)
            if index >= len(expected):
                raise fail(
                    seq,
                    "rederivation-mismatch",
                    f"re-running the command gives {counted(len(expected), 'event')}; this one"
                    " does not follow from it",
                )
            derived = canonical_json(encode(expected[index]))
            if derived != canonical_json(row.payload):
                raise fail(
                    seq,
                    "rederivation-mismatch",
                    f"logged {row.type} differs from the re-derived {event_tag(expected[index])}:"
                    f" {derived.decode()[:200]}",
                )
        # The logged event is folded, not the re-derived one: the log is what is verified,
        # and without a seed there is nothing else to fold.
        try:
            folded = apply_events(self.spec, self.state, (event,))
        except Exception as exc:  # noqa: BLE001  (any failure of the fold is the finding)
            raise fail(seq, "fold-failed", f"{row.type}: {exc!r}") from exc
        self.state, self.outcome = folded.state, folded.outcome
        self._rows.append(row)

    def end(self, next_seq: int) -> None:
        """The batch ends (a command, a meta event or the log's end comes at ``next_seq``):
        it had every re-derived event, and the invariants hold."""
        derived = self._derived
        if derived is not None and len(self._rows) < len(derived.events):
            raise fail(
                next_seq,
                "rederivation-mismatch",
                f"re-running gives {counted(len(derived.events), 'event')} here but the log"
                f" has {len(self._rows)}",
            )
        if self._rows:
            try:
                self.spec.check_invariants(self.state)
            except AssertionError as exc:
                raise fail(
                    self._rows[-1].seq, "invariant-broken", f"invariant broken here: {exc}"
                ) from exc
        self._rows, self._derived = [], None
