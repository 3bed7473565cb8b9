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

from spies_core.decider import GameSpec
from spies_core.deck_of_spies import rules, text, view
from spies_core.deck_of_spies.commands import Command
from spies_core.deck_of_spies.events import Event
from spies_core.deck_of_spies.options import DeckOfSpiesOptions
from spies_core.deck_of_spies.state import State, check_invariants

__all__ = ["SPEC"]

MAX_EVENTS = 36 * 8 + 4
"""An upper bound on the events of one game (292), explicit deals included.

Setup writes at most 5 events before the first turn (started, draw, reshuffle, draw,
spy); a turn at most 5 (action, draw, reshuffle, draw, next spy) plus one retire or one
draw-deck shuffle (§6.3); the game one end. A retire sends at least 2 of the 52 cards to
the spy discard for good, so there are at most 26 retires, and at most 4 draw-deck
shuffles (one per Ace). An explicit deal may hold more than 36 spies, but at most 51 can
be faced (a hand card lies outside the spy deck), so a game has at most
``5 + 5 * 51 + 26 + 4 + 1 = 291`` events; 292 (the bound first derived from 36 turns of at
most 8 events) remains a true bound.
"""

SPEC: GameSpec[State, Command, Event, view.DeckOfSpiesView, DeckOfSpiesOptions] = GameSpec(
    name="deck-of-spies",
    title="Deck of Spies",
    min_players=1,
    max_players=1,
    max_events=MAX_EVENTS,
    options_type=DeckOfSpiesOptions,
    command_type=Command,
    event_type=Event,
    view_type=view.DeckOfSpiesView,
    state_type=State,
    initial_state=rules.initial_state,
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    legal_commands=rules.legal_commands,
    view=view.view,
    redact=view.redact,
    to_act=rules.to_act,
    outcome=rules.outcome,
    players=rules.players,
    check_invariants=check_invariants,
    probe_commands=rules.probe_commands,
    scramble=view.scramble,
    describe_event=text.describe_event,
    render_view=text.render_view,
)
