"""Creation options of Black Spy (spec §8, Appendix A) and the explicit first deal.

Supported: ``no_good_spies`` (§8.1) and the ``classic`` preset (Appendix A, the 1981
rules). The five variants of §8.2-8.6 are known by name only: their rule text is not
available, so asking for one is refused at creation with ``unsupported-variant`` rather
than guessed (§10.15). ``deal`` fixes the first dealer and the first deal's hands.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

import msgspec

from spies_core.black_spy.cards import DECK, Card, CardInput, parse_card, sort_cards
from spies_core.errors import InvalidOptionsError, RuleError
from spies_core.words import counted

__all__ = [
    "CLASSIC_THRESHOLD",
    "MODERN_THRESHOLDS",
    "UNSUPPORTED_VARIANTS",
    "Deal",
    "BlackSpyFlags",
    "BlackSpyOptions",
    "deal_hands",
    "good_spies",
    "moon_applies",
    "threshold",
    "validate_options",
]

MODERN_THRESHOLDS: Final[dict[int, int]] = {3: 200, 4: 150, 5: 120, 6: 100}
"""Game end: any total reaching this value after a deal's scoring (§7.2, §10.11)."""

CLASSIC_THRESHOLD: Final[int] = 200
"""The 1981 threshold, the same for every player count (Appendix A)."""


class Deal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An explicit first deal, for puzzles, bug reports and tests.

    Later deals are shuffled as usual (§2.3, §2.4).
    """

    dealer: int
    """The first dealer, a seat (instead of the random draw of §2.2)."""
    hands: tuple[tuple[CardInput, ...], ...]
    """The hands of seats 0, 1, ...: together the 60 cards (``"black-7"`` six times), each
    hand 60 / players cards."""


class BlackSpyFlags(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rule flags that change play; recorded in the game's first event."""

    no_good_spies: bool = False
    """§8.1 "Ohne gute Spione": coloured 7s score 0, a deal is worth 80, and a moon pays
    the other players 80 each (§10.9)."""
    classic: bool = False
    """Appendix A, the 1981 rules: always pass left, the dealer's left leads the first
    trick, coloured 7s score 0 (80 per deal), the game ends at 200 for every player count,
    and there is no shooting the moon (it was only an optional 1981 variant whose details
    are unknown, so it is not applied). Trick 1 may not be led black unless the leader holds
    only black cards (Appendix A edge case)."""


class BlackSpyOptions(BlackSpyFlags, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything ``POST /games`` accepts in ``options`` for ``black-spy``.

    The five variant flags below name variants of the modern rulebook (pp. 5-6) whose text
    we do not have (§8.2-8.6, §10 Q1). They exist so a client asking for one gets a clear
    ``unsupported-variant`` error instead of ``unknown-option``; ``true`` is always refused.
    """

    capture_or_release: bool = False
    """§8.2 "Gefangen nehmen oder freilassen" (Capture or Release): unsupported."""
    mole: bool = False
    """§8.3 "Der Maulwurf" (The Mole, card selection by score standings): unsupported."""
    call_colour: bool = False
    """§8.4 "Farbe ansagen" (Call a Colour): unsupported."""
    follow_rank: bool = False
    """§8.5 "Dem Rang folgen" (Follow the Rank): unsupported."""
    reduce_points: bool = False
    """§8.6 "Punkte reduzieren" (Reduce Points on the exact end value): unsupported."""
    deal: Deal | None = None
    """Optional explicit first deal; without it the first dealer is drawn and the deck shuffled."""

    def flags(self) -> BlackSpyFlags:
        """The rule flags alone (what the first event records; the deal goes to its own
        events, where redaction hides the hands)."""
        return BlackSpyFlags(no_good_spies=self.no_good_spies, classic=self.classic)


UNSUPPORTED_VARIANTS: Final[dict[str, tuple[str, str]]] = {
    "capture_or_release": ("8.2", "Gefangen nehmen oder freilassen (Capture or Release)"),
    "mole": ("8.3", "Der Maulwurf (The Mole)"),
    "call_colour": ("8.4", "Farbe ansagen (Call a Colour)"),
    "follow_rank": ("8.5", "Dem Rang folgen (Follow the Rank)"),
    "reduce_points": ("8.6", "Punkte reduzieren (Reduce Points)"),
}
"""Option name -> (spec section, variant name) of the refused variants."""


def good_spies(flags: BlackSpyFlags) -> bool:
    """True when coloured 7s score -5 (§6.2); false under §8.1 and the classic preset."""
    return not (flags.no_good_spies or flags.classic)


def moon_applies(flags: BlackSpyFlags) -> bool:
    """True when shooting the moon (§6.4) is part of the rules: not in the classic preset."""
    return not flags.classic


def threshold(flags: BlackSpyFlags, players: int) -> int:
    """The total that ends the game (§7.2; Appendix A: 200 for every count)."""
    return CLASSIC_THRESHOLD if flags.classic else MODERN_THRESHOLDS[players]


def validate_options(options: BlackSpyOptions, players: int) -> tuple[tuple[Card, ...], ...] | None:
    """Refuse unsupported variants and check the explicit deal.

    Returns:
        The hands of ``options.deal`` in canonical form (sorted), or ``None`` without a deal.

    Raises:
        InvalidOptionsError: ``unsupported-variant`` for a variant of §8.2-8.6,
            ``invalid-deal`` for a deal that is not a legal first deal.
    """
    for name, (section, title) in UNSUPPORTED_VARIANTS.items():
        if getattr(options, name):
            raise InvalidOptionsError(
                f"option {name!r}, the variant {title!r} (§{section}), is not supported: its"
                " rule text is not available to us, and we do not invent rules",
                code="unsupported-variant",
            )
    if options.deal is None:
        return None
    return deal_hands(options.deal, players)


def deal_hands(deal: Deal, players: int) -> tuple[tuple[Card, ...], ...]:
    """Check an explicit deal and return its hands in canonical form.

    Raises:
        InvalidOptionsError: ``invalid-deal`` naming the first problem found.
    """
    if not 0 <= deal.dealer < players:
        raise _bad_deal(
            f"dealer {deal.dealer} is not a seat of a {players}-player game (0-{players - 1})"
        )
    if len(deal.hands) != players:
        raise _bad_deal(f"{counted(len(deal.hands), 'hand')} given for {players} players")
    size = len(DECK) // players
    hands: list[tuple[Card, ...]] = []
    for seat, raw_hand in enumerate(deal.hands):
        if len(raw_hand) != size:
            raise _bad_deal(
                f"hand {seat} has {counted(len(raw_hand), 'card')}; with {players} players"
                f" every hand has {size} (all 60 cards are dealt, §2.3)"
            )
        try:
            hands.append(sort_cards(parse_card(c) for c in raw_hand))
        except RuleError as exc:
            raise _bad_deal(f"hand {seat}: {exc.message}") from None
    have = Counter(c for hand in hands for c in hand)
    want = Counter(DECK)
    extra = sorted((have - want).elements())
    missing = sorted((want - have).elements())
    if extra or missing:
        raise _bad_deal(
            "the hands must hold the 60 cards, each once and 'black-7' six times;"
            f" too many: {extra}, missing: {missing}"
        )
    return tuple(hands)


def _bad_deal(problem: str) -> InvalidOptionsError:
    return InvalidOptionsError(
        f"invalid options.deal for black-spy: {problem}", code="invalid-deal"
    )
