"""Deck of Spies (James Newman, 2021): a solo deck builder for one standard 52-card deck.

Rules (``docs/rules/deck-of-spies.md``): 36 enemy spies come one per turn, 5-7 first, then 8-10,
then the face cards. Each turn the player counters the top spy (cards reaching its value,
each necessary, §4), recruits it (cards of its suit, or with the spy's Ace as double agent,
§5) and may retire two or more cards of one value (§7); a hand that cannot reach the spy's
value forces an assassination with an owned Ace (§6), and with no Ace left the game is lost
(§9.3). The hand is refilled to five, reshuffling the discard lazily (§8). After the last
spy the player wins with at least 7 of the 12 face cards owned (§9.2).

Chance: the four setup groups, the lazy reshuffles and the shuffle after an Ace is taken
from the draw deck. Hidden information: the order of both decks (everyone), the hand and
retired cards (spectators).

Commands: ``counter {cards, retire?}``, ``recruit {cards, retire?}``, ``assassinate {ace}``.
Events: ``deck_of_spies_started``, ``spy_revealed``, ``cards_drawn``, ``discard_reshuffled``,
``draw_deck_shuffled``, ``spy_countered``, ``spy_recruited``, ``cards_retired``,
``spy_assassinated``, ``deck_of_spies_ended``.
Options: ``strict_necessity``, ``ace_counts_in_necessity``, ``retire_multiple_ranks`` (§12)
and ``deal`` (an explicit position).
"""

from __future__ import annotations

from typing import Final

from spies_core.decider import GameSpec, assemble
from spies_core.deck_of_spies import (
    commands,
    events,
    evolve,
    fixtures,
    legal,
    rules,
    state,
    text,
    view,
)
from spies_core.deck_of_spies.commands import Command
from spies_core.deck_of_spies.events import Event
from spies_core.deck_of_spies.options import DeckOfSpiesOptions
from spies_core.deck_of_spies.state import State
from spies_core.deck_of_spies.view import DeckOfSpiesView

__all__ = ["SPEC"]

SPEC: Final[GameSpec[State, Command, Event, DeckOfSpiesView, DeckOfSpiesOptions]] = assemble(
    name="deck-of-spies",
    title="Deck of Spies",
    seat_counts={1},
    options_type=DeckOfSpiesOptions,
    view_type=DeckOfSpiesView,
    modules=(commands, events, evolve, fixtures, legal, rules, state, text, view),
    score_name="owned face cards",
)
"""The registry entry of Deck of Spies."""
