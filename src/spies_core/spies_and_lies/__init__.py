"""Stratego Spies & Lies (game id ``spies-and-lies``); rules in ``docs/rules/spies-and-lies.md``.

Rules in brief (§2-§12, §14): two sides, red and blue, each hold soldiers of rank 1-10. On
each of at most three days they secretly deploy four soldiers under missions 1-4 in
ascending order (the Sergeant, 4, anywhere), mark them with intel tokens according to the
day's intel card (the Sergeant may lie), then guess each other's soldiers in eight
alternating guess-turns. A correct guess scores 2 (4 with an active Scout) and sends the
card into retreat; a wrong one activates the soldier's ability. A marker reaching 10
infiltrates: the Double Agent moves toward the enemy fortress, and a move that starts in
front of the gate captures the flag and wins. After day 3 the Double Agent's territory, then
the markers, decide; equal markers draw.

Seats: 2 (0 red, 1 blue), or 4 for team play (§14: seats 0 and 2 red, 1 and 3 blue; the
first of each team plays missions 1-2, the second 3-4; hand, marker, tokens and exhausted
soldiers are shared). The 3-player variant of §14.5 is not offered (``invalid-players``).
Section 13 (tabletop errors) cannot arise: deployments and intel tokens are validated.

Commands: ``deploy {soldiers}``, ``mark_sergeant {token}``, ``confirm_intel``,
``deceive``, ``decline_deception``, ``guess {rank}``, ``choose_marshal {option}``,
``choose_captain {borrow}``.

Events: ``spies_and_lies_started``, ``soldiers_deployed``, ``intel_card_turned``,
``intel_marked``, ``intel_tokens_revealed``, ``deception_played``, ``deception_declined``,
``soldier_revealed``, ``infiltration_points_gained``, ``infiltration_points_lost``,
``deception_token_gained``, ``soldier_effect_started``, ``double_damage_earned``,
``marshal_chosen``, ``captain_chosen``, ``double_agent_moved``, ``flag_captured``,
``spies_and_lies_day_ended``, ``spies_and_lies_ended``.

Chance (recorded in events): the intel deck order, each side's first exhausted soldier and
the day-1 starter (``spies_and_lies_started``; ``options.deal`` may fix them), and each
end-of-day exhausted draw (``spies_and_lies_day_ended``).

Hidden information: the intel deck order (everyone); the day-1 starter until the mission
phase of day 1 begins (everyone; §5.3.1: the Starting Player card is flipped then, and it is
made public with ``intel_tokens_revealed``); a side's hand and face-down soldiers
(the other side and spectators); in team play see :mod:`spies_core.spies_and_lies.view`.
Every seat answers the intel phase (``mark_sergeant`` or ``confirm_intel``), so that the
seats asked never reveal who deployed a Sergeant.

Options (§16, recorded in the first event): ``board_length`` (G, default 3, [U-1]),
``intel_cards`` (default 2x {1-4}, 2x {4-7}, 2x {7-10}, [U-2]), ``deception_reserve``
(``shared`` or ``per-side``, [U-6]), ``deception_pays_on_forced_retreat`` (default true,
[I-5]) and ``deal`` (fixes the intel deck order, the first exhausted soldiers and the day-1
starter). Not offered: postponing abilities ([U-5]; they resolve immediately, [I-7]).

Interpretations (§15) are implemented where named: [I-3] gate rule per move
(``resolution.Resolution.move``), [I-4] Spy and Miner as round effects (``rules._decide_guess``),
[I-5] deception on a forced retreat (option ``deception_pays_on_forced_retreat``), [I-7]
abilities resolve immediately, [I-8] Captain borrows own exhausted soldiers, [I-9] shared
reserve, [I-10] Bomb, [I-11] blind double-damage draw, [I-13] Sergeant mark, [I-16]
deception +4 after the activation, [I-18] Marshal -5 floors at 0, [I-19] final tie-break,
[I-20] team play, [I-22] random day-1 starter.
"""

from __future__ import annotations

from typing import Any, Final

from spies_core.decider import GameSpec, assemble
from spies_core.spies_and_lies import (
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
from spies_core.spies_and_lies.options import SpiesAndLiesOptions
from spies_core.spies_and_lies.state import State
from spies_core.spies_and_lies.view import SpiesAndLiesView

__all__ = ["SPEC"]

SPEC: Final[GameSpec[State, Any, Any, SpiesAndLiesView, SpiesAndLiesOptions]] = assemble(
    name="spies-and-lies",
    title="Stratego Spies & Lies",
    seat_counts={2, 4},
    options_type=SpiesAndLiesOptions,
    view_type=SpiesAndLiesView,
    modules=(commands, events, evolve, fixtures, legal, rules, state, text, view),
    score_name="infiltration marker",
)
"""The registry entry of Spies & Lies."""
