"""Verify's verdict: the report, its first problem and its caveats, and how a check stops
the pass at the first problem (:func:`fail`).

**Caveats** (:class:`Caveat`, in :attr:`VerifyReport.caveats`) are what the log does not let
this build prove though nothing in it is wrong; the report stays ``ok``. Each stands for
every event it concerns, with their count and the first seq (:class:`CaveatTally`). The
check that meets one says what it means: the bot moves it cannot re-run
(:mod:`~spies_replay.verify.bots`), a label older than what it labels
(:mod:`~spies_replay.verify.seed`), clocks resumed after no server ran
(:mod:`~spies_replay.verify.clocks`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import msgspec

__all__ = [
    "Caveat",
    "CaveatTally",
    "Problem",
    "ProblemFoundError",
    "Rederivation",
    "VerifyReport",
    "VerifyResult",
    "commands",
    "fail",
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
    """Stable kebab-case code, e.g. ``hash-mismatch`` (``docs/protocol.md`` lists them)."""
    message: str


class Caveat(msgspec.Struct, frozen=True, kw_only=True):
    """Something a log does not let this build prove, though nothing in it is wrong: a bot
    move it cannot re-run, a label that predates what it labels. The log still verifies."""

    seq: int | None
    """The first seq it concerns."""
    code: str
    """Stable kebab-case code, e.g. ``bot-version-unknown`` (``docs/protocol.md`` lists
    them)."""
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
    """:func:`~spies_replay.verify.verify_log`'s report, plus what import needs from the fold.

    Attributes:
        report: the report.
        state: the final folded state (``None`` when the fold did not complete).
        states: the states after the seqs asked for in ``capture``.
    """

    report: VerifyReport
    state: Any = None
    states: dict[int, Any] = field(default_factory=dict)


class ProblemFoundError(Exception):
    """The first problem of a log: a check raises it, and the pass stops there."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def fail(seq: int | None, code: str, message: str) -> ProblemFoundError:
    """The error that stops the pass at ``seq`` with ``code`` (for the caller to raise)."""
    return ProblemFoundError(Problem(seq=seq, code=code, message=message))


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


class CaveatTally:
    """The caveats of one pass, by code and what they concern, in the order first met."""

    def __init__(self) -> None:
        self._tallies: dict[tuple[str, str], _Tally] = {}

    def caveat(self, seq: int, code: str, about: str, describe: Callable[[int], str]) -> None:
        """Count one more event under the caveat ``(code, about)``; ``describe(count)`` says
        it in words once all are counted."""
        tally = self._tallies.get((code, about))
        if tally is None:
            self._tallies[(code, about)] = _Tally(seq, code, describe)
        else:
            tally.count += 1

    def caveats(self) -> list[Caveat]:
        """Every caveat counted so far, each with its count."""
        return [tally.caveat() for tally in self._tallies.values()]


def commands(count: int) -> str:
    """``1 command``, ``2 commands``: how many events a caveat stands for."""
    return "1 command" if count == 1 else f"{count} commands"
