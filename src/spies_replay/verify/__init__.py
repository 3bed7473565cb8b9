"""Verification of a game's log: the hash chain, the fold, and a re-run of every command and
every bot move. Verify re-derives what the log itself proves; it trusts no label.
``docs/protocol.md`` defines the checks, their order and every code for any verifier.

:func:`verify_log` checks one log, from the database or from an export file, and stops at the
first problem, which it names by seq and by a stable code (:class:`Problem`); what the log
does not let this build prove, though nothing in it is wrong, is a :class:`Caveat` and the
report stays ``ok``. :func:`verify_game` and :func:`verify_all` verify stored games.

One module per thing checked, and one pass (:mod:`~spies_replay.verify.walk`) that walks the
chain over the whole log first, then hands each row to the checks of its kind:

- :mod:`~spies_replay.verify.chain`: seqs, rows that canonicalise, the hash chain, the head
  a server published;
- :mod:`~spies_replay.verify.header`: the game's record (an export's header) against the log;
- :mod:`~spies_replay.verify.times`: every time a log time, never running backwards;
- :mod:`~spies_replay.verify.seed`: which seed re-derives the log, the commitments, the
  revealed seed and deal, the seed's source against its label;
- :mod:`~spies_replay.verify.seats`: the seat table, each seat event, a deferred deal;
- :mod:`~spies_replay.verify.rederive`: the set-up and every command re-run with the pure
  step, the logged events folded, the invariants;
- :mod:`~spies_replay.verify.bots`: marks against the seats, bot moves re-run with the bots
  given (this package never imports them);
- :mod:`~spies_replay.verify.clocks`: every clock recomputed from the rows' times;
- :mod:`~spies_replay.verify.ending`: an abort, the reveal exactly when the game is over,
  the header's status and outcome;
- :mod:`~spies_replay.verify.report`: the report, its problem and caveats;
- :mod:`~spies_replay.verify.stored`: a stored game or all of them, snapshots against the
  fold, orphaned events.

What no verifier can see: an attacker who can write the file and recomputes every hash can
swap two simultaneous commands of different seats (another valid history), move a
``recorded_at`` within the times around it, or strip marks on a handed seat (a caveat); the
head hash a client saw (in every summary), given as ``head``, is the anchor for that.
``tests/attack/test_tampering.py`` tries every edit, deletion, insertion and swap, and
``tests/replay/test_forged_exports.py`` every forged label.
"""

from __future__ import annotations

from spies_replay.verify.report import (
    Caveat,
    Problem,
    Rederivation,
    VerifyReport,
    VerifyResult,
)
from spies_replay.verify.stored import verify_all, verify_game
from spies_replay.verify.walk import verify_log

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
