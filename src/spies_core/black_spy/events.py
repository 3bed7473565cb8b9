"""Events of Black Spy: recorded facts, past tense, tags prefixed ``black_spy_``.

Fields a viewer may not see are ``X | None`` (or hold ``None`` per seat); ``redact`` in
:mod:`spies_core.black_spy.view` sets them to ``None``. Counts and seats stay public.

One deal is: ``black_spy_dealt``, one ``black_spy_cards_passed`` per seat, one
``black_spy_cards_exchanged``, then per trick one ``black_spy_card_played`` per seat and a
``black_spy_trick_won``, then ``black_spy_deal_scored``, followed either by the next
``black_spy_dealt`` or by ``black_spy_game_ended``.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from spies_core.black_spy.cards import CardNotation
from spies_core.black_spy.options import BlackSpyFlags

__all__ = [
    "BlackSpyCardPlayed",
    "BlackSpyCardsExchanged",
    "BlackSpyCardsPassed",
    "BlackSpyDealScored",
    "BlackSpyDealt",
    "BlackSpyGameEnded",
    "BlackSpyStarted",
    "BlackSpyTrickWon",
    "Event",
    "PassDirection",
]


class PassDirection(StrEnum):
    """Where a deal's passed cards go (§2.1, §3.3)."""

    LEFT = "left"
    """To the left neighbour, seat ``(i + 1) mod n`` (clockwise, §10.4)."""
    RIGHT = "right"
    """To the right neighbour, seat ``(i - 1) mod n``."""
    ACROSS = "across"
    """Four players only: to seat ``(i + 2) mod 4``."""

    @property
    def offset(self) -> int:
        """Seats to count clockwise from the passer to the receiver."""
        return _OFFSETS[self]


_OFFSETS = {PassDirection.LEFT: 1, PassDirection.RIGHT: -1, PassDirection.ACROSS: 2}


class BaseEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the Black Spy events."""


class BlackSpyStarted(BaseEvent, frozen=True, kw_only=True, tag="black_spy_started"):
    """Seats were taken and the first dealer chosen (§2.2: drawn at random, or given by
    ``options.deal``). The rule flags are recorded here; the hands of an explicit deal are
    recorded in the first ``black_spy_dealt``, where redaction hides them."""

    players: int
    """The number of seats, 3 to 6."""
    flags: BlackSpyFlags
    """The rule flags this game is played with (§8.1, Appendix A)."""
    dealer: int
    """The first dealer."""
    fixed_deal: bool = False
    """True when the first deal's hands came from ``options.deal`` rather than a shuffle."""


class BlackSpyDealt(BaseEvent, frozen=True, kw_only=True, tag="black_spy_dealt"):
    """A deal began: all 60 cards were dealt (§2.3) and its pass direction set (§3.3).

    A shuffled deal is ``shuffled(rng, DECK)`` dealt one card at a time, the first to the
    dealer's left and on clockwise, so the seed re-derives the hands.
    """

    deal: int
    """1 for the first deal of the game."""
    dealer: int
    """The seat that dealt."""
    direction: PassDirection
    """Where this deal's passed cards go (§3.3)."""
    hand_size: int
    """Cards in each hand: 60 divided by the number of players (§2.3)."""
    hands: tuple[tuple[CardNotation, ...] | None, ...]
    """Every seat's hand, sorted; a viewer sees only its own (the others are ``None``)."""


class BlackSpyCardsPassed(BaseEvent, frozen=True, kw_only=True, tag="black_spy_cards_passed"):
    """A seat set three cards aside, face down, for ``to_seat`` (§3.1, §3.4)."""

    seat: int
    """The seat that passed."""
    to_seat: int
    """The seat that receives the three cards, once every seat has passed."""
    cards: tuple[CardNotation, ...] | None
    """The cards, sorted; only the passer sees them here (the receiver learns them from
    ``black_spy_cards_exchanged``, after every seat has passed)."""


class BlackSpyCardsExchanged(BaseEvent, frozen=True, kw_only=True, tag="black_spy_cards_exchanged"):
    """Every seat had passed, so all passes were handed over at once (§3.4, §10.14)."""

    received: tuple[tuple[CardNotation, ...] | None, ...]
    """The cards each seat received, sorted; a viewer sees only its own."""
    leader: int
    """Who leads the first trick: the holder of the red 1 (§4.1), or in the classic preset
    the dealer's left neighbour (Appendix A). Public: the whole table sees who leads."""


class BlackSpyCardPlayed(BaseEvent, frozen=True, kw_only=True, tag="black_spy_card_played"):
    """A card was played face up to the current trick (§5.1)."""

    seat: int
    """The seat that played the card."""
    card: CardNotation
    """The card played, e.g. ``"green-11"``."""


class BlackSpyTrickWon(BaseEvent, frozen=True, kw_only=True, tag="black_spy_trick_won"):
    """The trick was complete; its winner took it face down and leads next (§5.4-5.6)."""

    trick: int
    """1 for the first trick of the deal."""
    winner: int
    """The seat that took the trick and leads the next one."""
    cards: tuple[CardNotation, ...]
    """The trick in play order, led card first."""
    points: int
    """The trick's penalty points under this game's rules (§6.2, before any moon, §6.4)."""


class BlackSpyDealScored(BaseEvent, frozen=True, kw_only=True, tag="black_spy_deal_scored"):
    """The deal was over and scored (§6); totals may be negative (§6.3)."""

    deal: int
    """The deal scored, 1 for the first."""
    scores: tuple[int, ...]
    """This deal's score per seat."""
    totals: tuple[int, ...]
    """Running totals per seat after this deal (§6.6)."""
    moon: int | None = None
    """The seat that took all 16 black cards and shot the moon (§6.4), if any."""


class BlackSpyGameEnded(BaseEvent, frozen=True, kw_only=True, tag="black_spy_game_ended"):
    """A total reached the threshold after a deal's scoring (§7.1, §7.2): lowest total wins."""

    winners: tuple[int, ...]
    """The seats with the lowest total; several share the win on a tie (§7.4)."""
    totals: tuple[int, ...]
    """The final totals, by seat (§6.6)."""
    threshold: int
    """The total that ended the game (§7.2)."""


Event = (
    BlackSpyStarted
    | BlackSpyDealt
    | BlackSpyCardsPassed
    | BlackSpyCardsExchanged
    | BlackSpyCardPlayed
    | BlackSpyTrickWon
    | BlackSpyDealScored
    | BlackSpyGameEnded
)
"""Every Black Spy event, tagged by ``type``."""
