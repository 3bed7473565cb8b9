"""Black Spy (Alan R. Moon, 1981; modern edition Z-Man 2012 / ABACUSSPIELE 2016), as
specified in ``docs/rules/black-spy.md``: a trick-taking game for 3-6 players where the lowest
total wins.

Rules summary (modern edition, §1-7):

- 60 cards (§1): blue, yellow, red, green 1-11 and black 1-11 plus five extra black 7s.
  The first dealer is drawn at random (§2.2); the deal rotates clockwise (§2.4) and all 60
  cards are dealt (§2.3: 20/15/12/10 each for 3/4/5/6 players).
- Each deal every seat passes 3 cards at once (§3): 3, 5 and 6 players alternate left,
  right; 4 players cycle left, right, across. Nobody sees what they receive, nor what
  others passed, until every seat has passed.
- The red 1's holder leads the first trick with any non-black card (§4). Players follow
  the led card's colour or rank, free choice between them, anything when holding neither
  (§5.2). The highest card of the led colour wins; of several black 7s the first played
  (§5.5). There are no trumps.
- Scoring (§6): black 1-6 one point, black 7 ten, black 8-11 two to five, coloured 7s -5
  (60 per deal). Taking all 16 black cards shoots the moon: 0 for them, 60 to every other
  seat, coloured 7s still count. Totals may go negative.
- After a deal's scoring, a total of 200/150/120/100 (3/4/5/6 players) or more ends the
  game; the lowest total wins and ties share the win (§7).

Options: ``no_good_spies`` (§8.1), ``classic`` (Appendix A), ``deal`` (explicit first
deal); the variants of §8.2-8.6 are refused with ``unsupported-variant``.

Commands: ``pass_cards {cards}``, ``play_card {card}``.

Events: ``black_spy_started``, ``black_spy_dealt``, ``black_spy_cards_passed``,
``black_spy_cards_exchanged``, ``black_spy_card_played``, ``black_spy_trick_won``,
``black_spy_deal_scored``, ``black_spy_game_ended``.

Chance: the first dealer (``rng.randrange``) and each deal's shuffle
(``shuffled(rng, DECK)``), recorded as the dealt hands. A deal after the first is dealt by
the command that ends the previous deal's last trick.

Hidden information: hands, passes and received cards are private to their seat; played
cards, taken tricks, pile sizes and points and scores are public.

Rule errors (codes): ``unknown-card``, ``card-not-in-hand``, ``not-your-turn``,
``must-follow``, ``black-lead-first-trick``, ``wrong-pass-count``, ``already-passed``,
``passing-not-over``, ``game-over``; at creation ``unsupported-variant``, ``invalid-deal``.
"""

from __future__ import annotations

from typing import Final

from spies_core.black_spy import (
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
from spies_core.black_spy.commands import Command
from spies_core.black_spy.events import Event
from spies_core.black_spy.options import BlackSpyOptions
from spies_core.black_spy.state import State
from spies_core.black_spy.view import BlackSpyView
from spies_core.decider import GameSpec, assemble

__all__ = ["SPEC"]

SPEC: Final[GameSpec[State, Command, Event, BlackSpyView, BlackSpyOptions]] = assemble(
    name="black-spy",
    title="Black Spy",
    seat_counts={3, 4, 5, 6},
    options_type=BlackSpyOptions,
    view_type=BlackSpyView,
    modules=(commands, events, evolve, fixtures, legal, rules, state, text, view),
    score_name="penalty points",
)
"""The registry entry of Black Spy."""
