"""Creation options of Spies & Lies: the unverified facts of §16 and an optional fixed deal.

The defaults are the spec's: a board of G = 3 spaces per territory ([U-1], [I-2]), six intel
cards 2x {1-4}, 2x {4-7}, 2x {7-10} ([U-2], [I-1]) and the deception +4 paid on a force-retreated
card ([I-5]). The options are recorded in the game's first event, so a later change of default
never changes a recorded game.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

import msgspec

from spies_core.errors import InvalidOptionsError
from spies_core.spies_and_lies.soldiers import Rank

__all__ = [
    "DAYS",
    "DEFAULT_INTEL_CARDS",
    "MAX_BOARD_LENGTH",
    "MAX_INTEL_CARDS",
    "Deal",
    "ReserveRule",
    "SpiesAndLiesOptions",
    "validate_options",
]

DAYS: Final = 3
"""The game lasts at most three days (§5)."""

DEFAULT_INTEL_CARDS: Final[tuple[tuple[int, ...], ...]] = (
    (1, 2, 3, 4),
    (1, 2, 3, 4),
    (4, 5, 6, 7),
    (4, 5, 6, 7),
    (7, 8, 9, 10),
    (7, 8, 9, 10),
)
"""The assumed intel deck [I-1], [U-2]: two copies of each block of four ranks."""

MAX_BOARD_LENGTH: Final = 20
"""Sanity bound on ``board_length``."""

MAX_INTEL_CARDS: Final = 30
"""Sanity bound on the number of intel cards."""

_MIN_INTEL_CARDS: Final = 1 + DAYS  # the setup card of §4.8 and one card per day


class ReserveRule(StrEnum):
    """Who may take the two reserve deception tokens ([U-6], [I-9])."""

    SHARED = "shared"
    """One shared reserve of 2: one side's Spies may take both (the default)."""
    PER_SIDE = "per-side"
    """Each side has its own reserve token (S10's "each player's reserve token")."""


class Deal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Fixes what is otherwise drawn at random in the setup (puzzles, tests).

    Each field left ``None`` is drawn as usual.
    """

    intel: tuple[tuple[Rank, ...], ...] | None = None
    """The whole intel deck, top card first: a permutation of ``intel_cards``. The top card
    becomes the old intel of §4.8, the next ones are the intel of day 1, 2, 3."""
    exhausted: tuple[Rank, Rank] | None = None
    """The first exhausted soldier of red and of blue (§4.9)."""
    starting: int | None = None
    """The side that starts day 1: 0 red, 1 blue (§5.3.1, [I-22])."""


class SpiesAndLiesOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Options of a Spies & Lies game (§16), recorded in its first event."""

    board_length: int = 3
    """G, the Double Agent spaces from the centre to each gate, the last one in front of the
    gate ([U-1], [I-2])."""
    intel_cards: tuple[tuple[Rank, ...], ...] = DEFAULT_INTEL_CARDS
    """The faces of the intel cards, each a set of ranks ([U-2], [I-1])."""
    deception_pays_on_forced_retreat: bool = True
    """Whether a deception token on a wrongly guessed, force-retreated card still pays +4 [I-5]."""
    deception_reserve: ReserveRule = ReserveRule.SHARED
    """Whether the 2 reserve deception tokens are shared or one per side ([U-6], [I-9])."""
    deal: Deal | None = None
    """An explicit deal, fixing what is otherwise drawn at random in the setup (puzzles,
    tests); ``None`` or omitted: everything is drawn. Kept secret until the game is over."""


def _same_cards(a: tuple[tuple[int, ...], ...], b: tuple[tuple[int, ...], ...]) -> bool:
    return sorted(tuple(sorted(card)) for card in a) == sorted(tuple(sorted(card)) for card in b)


def validate_options(options: SpiesAndLiesOptions) -> None:
    """Check the options for sense.

    Raises:
        InvalidOptionsError: ``invalid-options`` for a bad board length or intel card set,
            ``invalid-deal`` for a deal that does not fit them.
    """
    if not 1 <= options.board_length <= MAX_BOARD_LENGTH:
        raise InvalidOptionsError(
            f"board_length must be 1 to {MAX_BOARD_LENGTH}, not {options.board_length}",
            code="invalid-options",
        )
    cards = options.intel_cards
    if not _MIN_INTEL_CARDS <= len(cards) <= MAX_INTEL_CARDS:
        raise InvalidOptionsError(
            f"intel_cards needs {_MIN_INTEL_CARDS} to {MAX_INTEL_CARDS} cards (one turned up at"
            f" setup and one per day), not {len(cards)}",
            code="invalid-options",
        )
    for card in cards:
        if not card or any(not 1 <= rank <= 10 for rank in card) or len(set(card)) != len(card):
            raise InvalidOptionsError(
                f"intel card {list(card)} must list distinct ranks 1 to 10", code="invalid-options"
            )
    deal = options.deal
    if deal is None:
        return
    if deal.intel is not None and not _same_cards(deal.intel, cards):
        raise InvalidOptionsError(
            f"deal.intel {[list(c) for c in deal.intel]} is not an order of the intel cards"
            f" {[list(c) for c in cards]}",
            code="invalid-deal",
        )
    if deal.exhausted is not None and any(not 1 <= rank <= 10 for rank in deal.exhausted):
        raise InvalidOptionsError(
            f"deal.exhausted {list(deal.exhausted)} must be two ranks 1 to 10", code="invalid-deal"
        )
    if deal.starting is not None and deal.starting not in (0, 1):
        raise InvalidOptionsError(
            f"deal.starting must be 0 (red) or 1 (blue), not {deal.starting}", code="invalid-deal"
        )
