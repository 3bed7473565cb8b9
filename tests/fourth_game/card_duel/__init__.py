"""Card Duel: a two-seat hidden-card game of a few moves, registered only under test.

It proves that adding a game is one package and one registry line: the generic suites run
it with no edit of theirs (``tests/fourth_game/test_fourth_game.py``). It has the shape of
every game package of ``spies_core``.

Rules: fourteen cards, 1 to 14; each seat is dealt six, two are set aside unseen. Both seats
bid in secret how many of the six rounds they will win; the bids turn up together. Seat 0
leads the first round; the higher card wins a round and its seat leads the next. A seat
scores its rounds won, plus 2 for an exact bid; the highest score wins, a tie shares the win.

Commands: ``bid {rounds}``, ``play_card {card}`` (a tag Black Spy also uses).
Events: ``card_duel_started``, ``card_duel_bid_made``, ``card_duel_bids_revealed``,
``card_duel_card_played``, ``card_duel_round_won``, ``card_duel_ended``.
Options: ``deal`` (an explicit deal).
"""

from __future__ import annotations

from typing import Final

from spies_core.decider import GameSpec, assemble
from tests.fourth_game.card_duel import (
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
from tests.fourth_game.card_duel.commands import Command
from tests.fourth_game.card_duel.events import Event
from tests.fourth_game.card_duel.options import CardDuelOptions
from tests.fourth_game.card_duel.state import State
from tests.fourth_game.card_duel.view import CardDuelView

__all__ = ["SPEC"]

SPEC: Final[GameSpec[State, Command, Event, CardDuelView, CardDuelOptions]] = assemble(
    name="card-duel",
    title="Card Duel (test game)",
    seat_counts={2},
    options_type=CardDuelOptions,
    view_type=CardDuelView,
    modules=(commands, events, evolve, fixtures, legal, rules, state, text, view),
    score_name="points",
)
"""The registry entry of Card Duel (registered by ``tests/fourth_game/plugin.py``)."""
