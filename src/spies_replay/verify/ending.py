"""The end of a game: how it may end, and that the log and its header agree it did.

A ``game_aborted`` ends a game in progress with a detail of printable text
(``abort-invalid``); one with reason ``abandoned`` only while the game waits for players,
at or after its ``open_until``. After it only the clocks and the reveal may follow
(``event-after-end``, :mod:`~spies_replay.verify.walk`). At the log's end the final state's
outcome must match the presence of ``seed_revealed`` (``seed-not-revealed``: a finished game
without its reveal, named at the seq where it should be; ``premature-reveal``), the header's
status (``status-mismatch``) and its stored outcome (``outcome-mismatch``).
"""

from __future__ import annotations

from spies_core.decider import Outcome
from spies_replay.clocks import to_ms
from spies_replay.meta import AbortReason, GameAborted, check_abort_detail
from spies_replay.store.records import EventRow, GameRecord, GameStatus
from spies_replay.verify.report import fail

__all__ = ["check_abort", "check_end"]


def check_abort(
    row: EventRow, event: GameAborted, *, waiting: bool, open_until: str | None
) -> None:
    """A ``game_aborted`` says why in printable text, and the server abandons a game only
    while it waits for players, once its open seats expired (``game_created.open_until``)."""
    try:
        check_abort_detail(event.detail)
    except ValueError as exc:
        raise fail(row.seq, "abort-invalid", str(exc)) from exc
    if event.reason != AbortReason.ABANDONED:
        return
    if not waiting or open_until is None or to_ms(row.recorded_at) < to_ms(open_until):
        expiry = "no expiry" if open_until is None else f"open seats expiring at {open_until}"
        raise fail(
            row.seq,
            "abort-invalid",
            f"game_aborted says abandoned at {row.recorded_at}, but the game"
            f" {'waits for players' if waiting else 'is dealt'} with {expiry}:"
            " the server abandons only a table whose open seats expired",
        )


def check_end(
    record: GameRecord, last: int, outcome: Outcome | None, revealed_at: int | None
) -> None:
    """The log of ``last`` rows ends as its outcome says, revealed exactly when over, and
    as its header says."""
    if outcome is not None and revealed_at is None:
        raise fail(
            last + 1,
            "seed-not-revealed",
            f"the game ended at seq {last} but no seed_revealed follows it",
        )
    if outcome is None and revealed_at is not None:
        raise fail(revealed_at, "premature-reveal", "seed revealed before the end")
    finished = outcome is not None
    if (record.status == GameStatus.FINISHED) != finished:
        raise fail(
            last,
            "status-mismatch",
            f"the game is marked {record.status} but its log says"
            f" {'finished' if finished else 'active'}",
        )
    if record.outcome != outcome:
        raise fail(last, "outcome-mismatch", "the stored outcome is not the log's outcome")
