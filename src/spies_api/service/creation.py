"""Creating a game: its seats as the request asks, the game in the log, its tokens once.

Who holds each seat is checked before anything is written: one entry per seat, a creator
seat's display name, a bot that exists and plays the game. The new game's head goes into the
cache and its tokens are remembered as verified, so its first commands read nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec
import structlog

from spies_api.game import create_game
from spies_api.problems.errors import (
    InvalidClockError,
    InvalidEntropyError,
    InvalidNameError,
    InvalidSeatsError,
    UnfairDealError,
    UnknownCommitmentError,
)
from spies_api.schemas import (
    NAME_MAX,
    AnySeatRequest,
    BotSeatRequest,
    CreateGameRequest,
    CreatorSeatRequest,
    GameCreatedResponse,
    SeatToken,
    from_record,
)
from spies_api.service.commitments import SeedCommitments, parse_entropy
from spies_api.service.effects import WriteEffects
from spies_api.service.keys import ReceiptKeys
from spies_bots import policy_for
from spies_core.bot_names import TIMEOUT_BOT
from spies_core.clock import CLOCK_LIMITS, OnTimeout, TimeControl
from spies_core.decider import AnySpec
from spies_core.registry import get_game
from spies_core.words import counted
from spies_replay.errors import EntropyNotAcceptedError
from spies_replay.meta import SeatState, SeatType
from spies_replay.receipts import Receipt
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Clock, SeatOwner, utc_now

__all__ = [
    "GameCreator",
    "bot_plays_timeouts",
    "check_fair",
    "check_name",
    "holders",
    "time_control",
]


def check_name(name: str) -> str:
    """A display name as given, if it is 1 to 40 printable characters.

    Raises:
        InvalidNameError: empty, too long, or with a control character.
    """
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable() or not name.strip():
        shown = name if len(name) <= NAME_MAX else name[:NAME_MAX] + "…"
        raise InvalidNameError(
            f"a name is 1 to {NAME_MAX} printable characters and not blank; {shown!r}"
            f" ({len(name)} characters) is not"
        )
    return name


def holders(
    store: EventStore, game: str, players: int | None, requested: Sequence[AnySeatRequest] | None
) -> list[SeatState] | None:
    """The seats a create request asks for (``None``: every seat the creator's).

    Raises:
        UnknownGameError: not a registered game.
        InvalidSeatsError: not one entry per seat.
        UnknownBotError: a bot that does not exist or does not play the game.
        InvalidNameError: a creator seat's name that is not 1 to 40 printable characters.
    """
    if requested is None:
        return None
    spec = get_game(game)
    count = spec.min_players if players is None else players
    if len(requested) != count:
        raise InvalidSeatsError(
            f"seats lists {counted(len(requested), 'entry', 'entries')}, but the game has"
            f" {counted(count, 'seat')}: give one entry per seat"
        )
    seats: list[SeatState] = []
    for seat, wanted in enumerate(requested):
        if isinstance(wanted, CreatorSeatRequest):
            name = None if wanted.name is None else check_name(wanted.name)
            seats.append(SeatState(seat=seat, type=SeatType.CREATOR, name=name))
        elif isinstance(wanted, BotSeatRequest):
            policy_for(wanted.bot, spec.name)
            seats.append(SeatState(seat=seat, type=SeatType.BOT, bot=wanted.bot))
        else:
            seats.append(SeatState(seat=seat, type=SeatType.OPEN))
    return seats


_CLOCK_FIELDS: Final = frozenset(TimeControl.__struct_fields__)
_DEFAULT_ON_TIMEOUT: Final = TimeControl().on_timeout


def _seconds(raw: dict[str, Any], name: str, minimum: float) -> float | None:
    """``clock.<name>``: a number of seconds from ``minimum`` to a week, or ``None``."""
    value = raw.get(name)
    if value is None:
        return None
    longest = CLOCK_LIMITS.max_seconds
    allowed = (
        f"at least {minimum:g} seconds" if minimum else "0 seconds or more"
    ) + f" and at most {longest:g} (a week)"
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidClockError(f"clock.{name} is a number of seconds, {allowed}; not {value!r}")
    if not minimum <= value <= longest:
        raise InvalidClockError(f"clock.{name} must be {allowed}; not {value}")
    return float(value)


def bot_plays_timeouts(clock: object) -> bool:
    """Whether a clock has a bot play a timed-out seat's moves: such a game plays on with
    nobody at the table, as a game with bot seats does (the bot-game quota counts both).

    Args:
        clock: a game's :class:`TimeControl`, or a create request's ``clock`` as given
            (unchecked: a bad one is refused when the game is created).
    """
    if isinstance(clock, TimeControl):
        return clock.on_timeout is OnTimeout.BOT
    return isinstance(clock, dict) and clock.get("on_timeout", _DEFAULT_ON_TIMEOUT) == OnTimeout.BOT


def time_control(spec: AnySpec, raw: object) -> TimeControl | None:
    """The time control a create request asks for (``None``: no clock).

    Raises:
        InvalidClockError: not a time control this game can run (the message says what is
            allowed).
        UnknownBotError: a ``timeout_bot`` that does not exist or does not play the game.
    """
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidClockError(
            f'clock must be an object such as {{"turn_seconds": 30}}, not {raw!r}'
        )
    unknown = sorted(set(raw) - _CLOCK_FIELDS)
    if unknown:
        raise InvalidClockError(
            f"clock has no field {unknown[0]!r}; its fields are {', '.join(sorted(_CLOCK_FIELDS))}"
        )
    turn = _seconds(raw, "turn_seconds", CLOCK_LIMITS.min_turn_seconds)
    budget = _seconds(raw, "budget_seconds", CLOCK_LIMITS.min_budget_seconds)
    increment = _seconds(raw, "increment_seconds", 0.0) or 0.0
    if turn is None and budget is None:
        raise InvalidClockError(
            "clock needs turn_seconds (a per-move timer), budget_seconds (a chess clock) or both"
        )
    if increment and budget is None:
        raise InvalidClockError("clock.increment_seconds is added to a budget: give budget_seconds")
    on_timeout = raw.get("on_timeout", _DEFAULT_ON_TIMEOUT)
    if on_timeout not in (OnTimeout.BOT, OnTimeout.FORFEIT):
        raise InvalidClockError(f"clock.on_timeout is 'bot' or 'forfeit', not {on_timeout!r}")
    if on_timeout == OnTimeout.FORFEIT and spec.forfeit is None:
        raise InvalidClockError(
            f"clock.on_timeout 'forfeit' is refused for {spec.title}: no seat's leaving decides"
            " the game; use 'bot'"
        )
    bot = raw.get("timeout_bot", TIMEOUT_BOT)
    if not isinstance(bot, str):
        raise InvalidClockError(f"clock.timeout_bot is a bot's name (GET /bots), not {bot!r}")
    policy_for(bot, spec.name)
    abandon = raw.get("abandon_after")
    if abandon is not None:
        if isinstance(abandon, bool) or not isinstance(abandon, int) or abandon < 1:
            raise InvalidClockError(
                f"clock.abandon_after is a whole number of timeouts, at least 1; not {abandon!r}"
            )
        if on_timeout != OnTimeout.BOT:
            raise InvalidClockError("clock.abandon_after hands a seat to its bot: on_timeout 'bot'")
    return TimeControl(
        turn_seconds=turn,
        budget_seconds=budget,
        increment_seconds=increment,
        on_timeout=OnTimeout(on_timeout),
        timeout_bot=bot,
        abandon_after=abandon,
    )


def _chosen_by_creator(request: CreateGameRequest) -> list[str]:
    """What in the request chooses the cards alone: ``seed``, ``options.deal``."""
    return [
        name
        for name, given in (
            ("seed", request.seed is not None),
            ("options.deal", "deal" in (request.options or {})),
        )
        if given
    ]


def check_fair(request: CreateGameRequest, seats: Sequence[SeatState] | None) -> None:
    """Refuse a deal the creator chose in a game that seats someone else.

    A client ``seed`` makes every shuffle known to whoever knows the seed, and
    ``options.deal`` lays the cards out: both are for games whose every person seat the
    creator holds (puzzles, bug reports, tests; bot seats allowed). A game with an open seat
    deals from a server seed that nobody knows.

    Raises:
        UnfairDealError: a ``seed`` or a ``deal`` with an open seat.
    """
    chosen = _chosen_by_creator(request)
    open_seats = [s.seat for s in seats or () if s.type == SeatType.OPEN]
    if chosen and open_seats:
        raise UnfairDealError(
            f"{' and '.join(chosen)} cannot be given for a game with an open seat (seat"
            f" {open_seats[0]}): whoever chose them would know what a joiner is dealt; leave"
            " them out (the server deals from a secret seed), or hold every person seat"
        )


def check_entropy_request(request: CreateGameRequest) -> bytes | None:
    """The creator's entropy, when the request gives it with a ``commitment_id``.

    Raises:
        InvalidEntropyError: not 16 to 64 bytes of hex, or one of the two without the other.
        EntropyNotAcceptedError: with a ``seed`` or an ``options.deal``.
    """
    if request.entropy is None and request.commitment_id is None:
        return None
    if request.entropy is None or request.commitment_id is None:
        raise InvalidEntropyError(
            "entropy and commitment_id go together: ask POST /commitments for a commitment,"
            " then send its commitment_id with your entropy"
        )
    chosen = _chosen_by_creator(request)
    if chosen:
        raise EntropyNotAcceptedError(
            f"entropy goes into a seed the server committed to; {' and '.join(chosen)} would"
            " choose the cards alone: give one or the other"
        )
    return parse_entropy(request.entropy)


@dataclass(eq=False)
class GameCreator:
    """Creates games (blocking: run it on a worker thread).

    Args:
        store: the replay log.
        effects: what a creation changes in this process (the new head, its tokens).
        clock: where the time of creation is read.
        open_seat_ttl: how many seconds a new game's open seats stay open (``None``: for
            ever).
        receipts: signs the receipt each answer carries (none without it).
    """

    store: EventStore
    effects: WriteEffects
    clock: Clock = utc_now
    open_seat_ttl: float | None = None
    receipts: ReceiptKeys | None = None  # receipts
    commitments: SeedCommitments | None = None
    """The seed commitments a game with players' entropy is created from (none: such a
    request is refused as an unknown commitment)."""
    log: Any = field(init=False, repr=False)
    """Bound once, with the logging configuration in force when the app starts."""

    def __post_init__(self) -> None:
        self.log = structlog.get_logger("spies_api").bind()

    def create(
        self,
        request: CreateGameRequest,
        token_for: Callable[[int], tuple[str, SeatOwner]] | None = None,
    ) -> GameCreatedResponse:
        """Create a game and return its seat tokens (once).

        Args:
            request: the request.
            token_for: makes the token of each creator seat and names the player who owns
                it, recorded with the game (a player's: see
                :mod:`spies_api.service.players`); default a new random token each, no owner.

        Raises:
            UnknownGameError: not a registered game.
            InvalidOptionsError: bad ``players``, ``options`` or ``seed``.
            InvalidSeatsError, UnknownBotError, InvalidNameError: bad ``seats``.
            InvalidClockError: a bad ``clock``.
            InvalidEntropyError: ``entropy`` that is not 16 to 64 bytes of hex, or without
                its ``commitment_id`` (or the other way round).
            EntropyNotAcceptedError: ``entropy`` with a ``seed`` or an ``options.deal``.
            UnknownCommitmentError, CommitmentUsedError, CommitmentExpiredError: a
                ``commitment_id`` that cannot be used.
        """
        entropy = check_entropy_request(request)
        seats = holders(self.store, request.game, request.players, request.seats)
        check_fair(request, seats)
        spec = get_game(request.game)
        clock = time_control(spec, request.clock)
        tokens = owners = None
        count = spec.min_players if request.players is None else request.players
        if token_for is not None and spec.min_players <= count <= spec.max_players:
            mine = [s.seat for s in seats if s.type == SeatType.CREATOR] if seats else range(count)
            made = {seat: token_for(seat) for seat in mine}
            tokens = {seat: token for seat, (token, _) in made.items()}
            owners = {seat: owner for seat, (_, owner) in made.items()}
        server_seed = None
        if request.commitment_id is not None:  # last: using a commitment spends it
            if self.commitments is None:
                raise UnknownCommitmentError("this server keeps no seed commitments")
            server_seed = self.commitments.use(request.commitment_id)
        created = create_game(
            self.store,
            request.game,
            request.players,
            request.options,
            request.seed,
            seats=seats,
            tokens=tokens,
            owners=owners,
            clock=clock,
            created_at=self.clock(),
            open_seat_ttl=self.open_seat_ttl,
            entropy=entropy,
            server_seed=server_seed,
        )
        self.effects.created(created)
        record = created.record
        self.log.info("game_created", game_id=record.id, game=record.game, players=record.players)
        return from_record(
            GameCreatedResponse,
            record,
            seats=[
                SeatToken(
                    seat=held.seat,
                    type=held.type,
                    name=held.name,
                    bot=held.bot,
                    token=msgspec.UNSET if token is None else token,
                )
                for held, token in zip(created.seats, created.tokens, strict=True)
            ],
            receipt=self.receipt(record.id, record.version, record.head_hash),
        )

    def receipt(self, game_id: str, seq: int, head_hash: str) -> Receipt | None:
        """The signed receipt of a game at a version, for an answer (receipts)."""
        receipts = self.receipts
        return None if receipts is None else receipts.receipt(game_id, seq, head_hash)
