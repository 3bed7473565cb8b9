"""The ``greedy`` bot: the tuned one-ply greedy of §13.2, scored on the legal commands.

Every legal command gets a score and one with the highest score is played:

- 100 for recruiting a face card, the spy's value for recruiting another spy;
- 2 per Ace kept in hand (``w_ace``; ``w_keep``, the weight of the kept hand's value, is 0
  in the tuned setting, so that value does not count);
- 2 per retired card, but only ranks 2 to 10 and never below 8 owned cards afterwards (a
  recruited spy counts as owned); any other retire is never chosen.

Ties go to the command that uses the fewest cards, then the lowest cards (by value, then
suit), a counter before a recruit, then the one retiring the lowest cards. An assassination
removes the Ace of the suit with the fewest face cards, then the least total value, among the
spies still to come (ties to the first Ace listed).

The weights below are the greedy's one definition: :mod:`.fast_greedy` plays the same
greedy on the compact model for the ``expert``'s rollouts, from these same names.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final, assert_never

from spies_core.cards import ALL_CARDS, Card, is_ace, is_face, suit, value
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.view import DeckOfSpiesView

__all__ = [
    "ACE_WEIGHT",
    "FACE_RECRUIT",
    "MIN_OWNED",
    "NEVER",
    "RETIRE_VALUES",
    "RETIRE_WEIGHT",
    "assassination_key",
    "choose",
    "ranked",
    "recruit_score",
    "score",
]

FACE_RECRUIT: Final = 100
"""Score of recruiting a J, Q or K."""
ACE_WEIGHT: Final = 2
"""``w_ace``: score per Ace kept in hand."""
RETIRE_WEIGHT: Final = 2
"""Score per retired card of a value in :data:`RETIRE_VALUES`."""
RETIRE_VALUES: Final = frozenset(value(c) for c in ALL_CARDS if not is_ace(c) and not is_face(c))
"""The values the tuned greedy retires, 2 to 10: never an Ace nor a face card (§13.2)."""
MIN_OWNED: Final = 8
"""Retires never leave fewer owned cards than this."""
NEVER: Final = -1
"""Score of a retire the greedy never makes; below every other move's score."""


def _owned(view: DeckOfSpiesView) -> int:
    return view.hand_count + view.draw_deck_count + len(view.draw_discard)


def recruit_score(spy: Card) -> int:
    """What recruiting ``spy`` scores: :data:`FACE_RECRUIT` for a face card, else its value."""
    return FACE_RECRUIT if is_face(spy) else value(spy)


def score(view: DeckOfSpiesView, command: Counter | Recruit) -> int:
    """The greedy's score of a counter or recruit against the view's top spy."""
    spy = view.top_spy
    hand = view.hand or ()
    assert spy is not None
    total = 0
    recruit = isinstance(command, Recruit)
    if recruit:
        total = recruit_score(spy)
    kept = [c for c in hand if c not in command.cards and c not in command.retire]
    total += ACE_WEIGHT * sum(1 for c in kept if is_ace(c))
    if command.retire:
        owned_after = _owned(view) + recruit - len(command.retire)
        if owned_after < MIN_OWNED or not all(
            value(Card(c)) in RETIRE_VALUES for c in command.retire
        ):
            return NEVER
        total += RETIRE_WEIGHT * len(command.retire)
    return total


def assassination_key(view: DeckOfSpiesView, ace: str) -> tuple[int, int]:
    """Face cards, then total value, of the Ace's suit among the spies still to come."""
    ace_suit = suit(Card(ace))
    below = [c for c in view.unseen_spies if suit(c) == ace_suit]
    return sum(1 for c in below if is_face(c)), sum(value(c) for c in below)


def _low_first(card: Card) -> tuple[int, str]:
    return value(card), suit(card).value


def ranked(view: DeckOfSpiesView, legal: Sequence[Command]) -> list[int]:
    """Indices of ``legal`` from the greedy's best to its worst, ties broken as described."""
    place: dict[str, int] = {c: i for i, c in enumerate(sorted(view.hand or (), key=_low_first))}
    keys: list[tuple[object, ...]] = []
    for command in legal:
        match command:
            case Counter() | Recruit():
                used = sorted(place[c] for c in command.cards)
                retired = sorted(place[c] for c in command.retire)
                kind = isinstance(command, Recruit)
                keys.append((-score(view, command), len(used), used, kind, retired))
            case Assassinate(ace=ace):
                keys.append(assassination_key(view, ace))
            case _:
                assert_never(command)
    return sorted(range(len(legal)), key=keys.__getitem__)


def choose(view: DeckOfSpiesView, legal: Sequence[Command], rng: Random) -> Command:
    """The legal command with the best score; the rng is not used."""
    return legal[ranked(view, legal)[0]]
