"""Bot moves: each command's mark against the seat's holder, and each marked command asked
again of the bot it names.

A command a bot chose carries its mark (:mod:`spies_replay.marks`, ``NAME@VERSION``;
``bot-mark-invalid`` when it is not one), and comes from a seat that bot plays at that
version (``bot-mismatch``). A command with no mark from a seat a bot holds from creation is
a bot's move passed off as a person's (``bot-mark-missing``): nobody holds a token to such a
seat. A forced move, after the seat's clock ran out, is the time control's bot's (or the
fallback bot's).

With the seed, each marked command is asked again of the bot it names, as the server asked
it (``spies_api.table.bots``): the seat's view at the version before the command
(``view_at``), its legal commands, and the generator of the version the mark names
(``generator(seed, seat, version)``: CPython's Mersenne Twister at version 1, the protocol's
bot stream from version 2). Its answer must be the recorded command (``bot-move-mismatch``).
The bots come from the caller (a :class:`~spies_replay.marks.BotPolicies`): this package
never imports them.

Caveats, where the log does not let this build re-run a move:

- ``bot-version-unknown``: marks without a version (a log written before bots had
  versions): the bot is known, not which version chose.
- ``bot-not-in-build``, ``bot-version-not-in-build``: the mark names a bot, or a version of
  it, that this build lacks (a newer or an older server).
- ``bots-not-given``: verify was called without bots (the library's default; the console
  script passes its own); marks are checked against the seats, the moves not re-derived.
- ``unmarked-on-handed-seat``: commands without a mark from a seat its holder had handed to
  a bot. The server accepts a holder's own commands on a handed seat (the holder keeps the
  token), so such a command may be the holder's, or a bot's whose mark was stripped: the
  log cannot tell.
"""

from __future__ import annotations

from typing import Any

from spies_core.bot_names import FALLBACK_BOT
from spies_core.clock import TimeControl
from spies_core.decider import AnySpec
from spies_core.step import view_at
from spies_replay.codec import canonical_json, encode, event_tag
from spies_replay.marks import BotMark, BotPolicies, parse_bot_mark
from spies_replay.meta import SeatState, SeatType
from spies_replay.store.records import EventRow
from spies_replay.verify.report import CaveatTally, commands, fail

__all__ = ["BotMoves"]


class BotMoves:
    """The marks of a log's commands, and the bot moves re-run with the bots given."""

    def __init__(self, bots: BotPolicies | None, tally: CaveatTally) -> None:
        self.bots = bots
        self.tally = tally
        self.rederived = 0
        """How many marked commands were re-run and found to be their bot's choice."""

    def check_mark(self, row: EventRow, actor: int, holder: SeatState | None) -> BotMark | None:
        """The command's mark against the seat's holder: a marked command comes from a seat
        that bot plays; an unmarked one from a seat no bot holds from the start."""
        seq = row.seq
        if row.bot is None:
            if holder is None or holder.bot is None:
                return None
            bot = holder.bot
            if holder.type == SeatType.BOT:
                raise fail(
                    seq,
                    "bot-mark-missing",
                    f"seat {actor}'s command carries no bot mark, but bot {bot!r} holds the seat"
                    " from the start and nobody else can command it: a bot's move passed off"
                    " as a person's",
                )
            # The API accepts a holder's own commands on a seat it handed to a bot, so an
            # unmarked command there proves nothing either way: said, not failed.
            self.tally.caveat(
                seq,
                "unmarked-on-handed-seat",
                f"{actor}:{bot}",
                lambda count: (
                    f"{commands(count)} of seat {actor} carry no bot mark while"
                    f" bot {bot!r} played the seat (its holder had handed it over): the server"
                    " accepts a holder's own commands on a handed seat, so the log cannot tell"
                    f" them from {bot}'s moves with their marks stripped"
                ),
            )
            return None
        try:
            mark = parse_bot_mark(row.bot)
        except ValueError as exc:
            raise fail(seq, "bot-mark-invalid", str(exc)) from exc
        if holder is None or holder.bot is None:
            raise fail(
                seq,
                "bot-mismatch",
                f"a command marked as bot {row.bot!r}'s, but no bot plays seat {actor} here",
            )
        if holder.bot != mark.name and mark.name != FALLBACK_BOT:
            raise fail(
                seq,
                "bot-mismatch",
                f"a command marked as bot {row.bot!r}'s, but no such bot plays seat {actor} here",
            )
        return mark

    def check_forced_mark(self, row: EventRow, control: TimeControl) -> BotMark:
        """A forced move (after the seat's clock ran out) is the time control's bot's, or
        the fallback bot's when that one failed."""
        if row.bot is None:
            raise fail(
                row.seq,
                "bot-mark-missing",
                f"seat {row.actor}'s clock ran out and its move is played by"
                f" {control.timeout_bot!r}, but the command carries no bot mark",
            )
        try:
            mark = parse_bot_mark(row.bot)
        except ValueError as exc:
            raise fail(row.seq, "bot-mark-invalid", str(exc)) from exc
        if mark.name not in (control.timeout_bot, FALLBACK_BOT):
            raise fail(
                row.seq,
                "bot-mismatch",
                f"seat {row.actor}'s forced move is marked as {row.bot!r}'s, but the time"
                f" control's bot is {control.timeout_bot!r}",
            )
        return mark

    def rederive(
        self,
        spec: AnySpec,
        state: Any,
        row: EventRow,
        actor: int,
        mark: BotMark,
        command: Any,
        seed: bytes,
    ) -> None:
        """Ask the marked bot what the server asked it (the seat's view of ``state`` at the
        version before the command, its legal commands, the generator of the mark's version):
        its answer must be the recorded command."""
        assert row.bot is not None
        seq, text = row.seq, row.bot
        if self.bots is None:
            self.tally.caveat(
                seq,
                "bots-not-given",
                "",
                lambda count: (
                    f"{commands(count)} marked as a bot's were not re-derived:"
                    " verify was given no bots to re-run them with"
                ),
            )
            return
        if mark.version is None:
            self.tally.caveat(
                seq,
                "bot-version-unknown",
                text,
                lambda count: (
                    f"{commands(count)} marked {text!r}, with no bot version (a log"
                    " written before bots had versions): bot version unknown, not re-derived"
                ),
            )
            return
        found = self.bots.lookup(mark.name, spec.name)
        if found is None:
            self.tally.caveat(
                seq,
                "bot-not-in-build",
                text,
                lambda count: (
                    f"{commands(count)} marked {text!r}: this build has no bot"
                    f" {mark.name!r} for {spec.name}, so they were not re-derived"
                ),
            )
            return
        if mark.version not in found:
            kept = ", ".join(str(version) for version in sorted(found))
            self.tally.caveat(
                seq,
                "bot-version-not-in-build",
                text,
                lambda count: (
                    f"{commands(count)} marked {text!r}: this build has"
                    f" {mark.name} at version{'s' if len(found) > 1 else ''} {kept} only,"
                    " so they were not re-derived"
                ),
            )
            return
        policy, generator = found[mark.version]
        at = seq - 1
        view = view_at(spec, state, actor, at)
        legal = list(spec.legal_commands(state, actor))
        try:
            chosen = policy(view, legal, generator(seed, actor, at))
        except Exception as exc:  # noqa: BLE001  (a bot that fails here made no move here)
            raise fail(
                seq,
                "bot-move-mismatch",
                f"seat {actor}'s command is marked as {text}'s, but {text} fails here"
                f" ({type(exc).__name__}), so it chose no command",
            ) from exc
        if canonical_json(encode(chosen)) != canonical_json(row.command or "null"):
            raise fail(
                seq,
                "bot-move-mismatch",
                f"seat {actor}'s {event_tag(command)} is marked as {text}'s, but {text} asked"
                f" at version {at} chooses {encode(chosen)[:200]}",
            )
        self.rederived += 1
