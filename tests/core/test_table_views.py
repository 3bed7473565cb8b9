"""A table's views before its deal and after its end, generic over the registry.

- Before the deal (``dealt: false``) a view says only true things: the view of
  :func:`~spies_core.step.before_deal` agrees with the first dealt view of every seed on
  every field the deal does not decide (the seats, the options and what they fix), and
  whatever the deal decides is empty (no card, no seat to act). The setup applied to that
  state gives the same state as applied to the initial one, so a fold may start from either.
- Once the game is over nothing is secret: ``scramble`` changes nothing for any viewer, and
  every seat's view shows what the spectator's does, except the fields about the viewer
  itself (``null`` for a spectator all game long: ``seat``, a seat's own hand or side).
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

import msgspec
import pytest

from spies_core import GAMES, start_game
from spies_core.decider import GameSpec
from spies_core.rng import FairRng
from spies_core.step import Table, apply_events, before_deal, view_at

SEEDS = 8
"""Deals compared with each table's undealt view."""
GAMES_TO_END = 6
"""Random games played to their end per seat count."""
TABLE_FIELDS = ("players", "flags", "threshold", "board_length", "intel_cards", "totals")
"""Fields the issue found empty before the deal although the table decides them: where a
view has one, it must be filled in (``players: 0`` is empty, but not true)."""


def _cases() -> list[Any]:
    return [
        pytest.param(spec.name, players, id=f"{spec.name}-{players}p")
        for spec in GAMES.values()
        for players in sorted(spec.seat_counts)
    ]


def _json(view: Any) -> Any:
    """A view as a client reads it (lists, objects)."""
    return msgspec.json.decode(msgspec.json.encode(view))


def _empty(value: Any) -> bool:
    """Nothing in it: ``null``, 0, ``false``, ``""``, or a list or object of empties."""
    if isinstance(value, list):
        return all(_empty(item) for item in value)
    if isinstance(value, dict):
        return all(_empty(item) for item in value.values())
    return value in (None, 0, False, "")


def _disagreements(undealt: Any, dealt: list[Any], path: str = "") -> Iterator[str]:
    """Paths where every dealt view agrees on a value the undealt view neither has nor
    leaves empty, and where the undealt view fills in what the deals do not agree on."""
    first = dealt[0]
    if all(d == first for d in dealt):
        if undealt != first and not _empty(undealt):
            yield f"{path}: {undealt!r} before the deal, {first!r} after every deal"
        return
    if isinstance(undealt, dict) and all(isinstance(d, dict) for d in dealt):
        for key, value in undealt.items():
            yield from _disagreements(value, [d.get(key) for d in dealt], f"{path}.{key}")
    elif isinstance(undealt, list) and all(
        isinstance(d, list) and len(d) == len(undealt) for d in dealt
    ):
        for i, value in enumerate(undealt):
            yield from _disagreements(value, [d[i] for d in dealt], f"{path}[{i}]")
    elif not _empty(undealt):
        yield f"{path}: {undealt!r} before the deal, which decides it"


@pytest.mark.parametrize(("name", "players"), _cases())
def test_an_undealt_view_says_only_what_the_table_decides(name: str, players: int) -> None:
    spec = GAMES[name]
    table = Table(players, {})
    configured = before_deal(spec, table)
    assert spec.players(configured) == players
    assert not spec.to_act(configured) and spec.outcome(configured) is None
    starts = [start_game(spec, players, {}, FairRng(bytes([n]) * 32, 0)) for n in range(SEEDS)]
    for events in starts:
        dealt = apply_events(spec, spec.initial_state(), events).state
        assert apply_events(spec, configured, events).state == dealt, "the deal reads the table"
    for viewer in [*range(players), None]:
        undealt = view_at(spec, spec.initial_state(), viewer, 1, None, table)
        assert undealt.dealt is False and undealt.to_act == ()
        seen = _json(undealt)
        after = [
            _json(view_at(spec, apply_events(spec, configured, e).state, viewer, 1)) for e in starts
        ]
        ignored = {"dealt", "phase", "to_act"}  # what says "not dealt yet" itself
        wrong = [
            line
            for key in seen.keys() - ignored
            for line in _disagreements(seen[key], [a[key] for a in after], key)
        ]
        assert not wrong, f"viewer {viewer}: " + "; ".join(wrong)
        for key in seen.keys() & set(TABLE_FIELDS):
            assert seen[key] == after[0][key], f"{key} is the table's"
        if "sides" in seen:
            assert [side["seats"] for side in seen["sides"]] == [
                side["seats"] for side in after[0]["sides"]
            ], "the sides are the table's"


def _played_to_end(
    spec: GameSpec[Any, Any, Any, Any, Any], players: int, game: int
) -> tuple[Any, list[Any]]:
    """A random game's final state, and every state on the way."""
    rng = Random(game)
    seed = (game + 7000).to_bytes(32, "big")
    events = start_game(spec, players, {}, FairRng(seed, 0))
    state = apply_events(spec, spec.initial_state(), events).state
    states = [state]
    while spec.outcome(state) is None:
        seat = rng.choice(sorted(spec.to_act(state)))
        command = rng.choice(spec.legal_commands(state, seat))
        new = spec.decide(state, seat, command, FairRng(seed, len(events)))
        state = apply_events(spec, state, new).state
        states.append(state)
        events += new
    return state, states


@pytest.mark.parametrize(("name", "players"), _cases())
def test_once_over_every_viewer_sees_every_seats_cards(name: str, players: int) -> None:
    spec = GAMES[name]
    for game in range(GAMES_TO_END):
        final, states = _played_to_end(spec, players, game)
        for viewer in [*range(players), None]:
            for k in range(3):
                assert spec.scramble(final, viewer, Random(k)) == final, f"{viewer} misses a secret"
        watching = [_json(spec.view(state, None)) for state in states]
        about_viewer = {key for key in watching[0] if all(w[key] is None for w in watching)}
        spectator = watching[-1]
        for seat in range(players):
            seen = _json(spec.view(final, seat))
            differ = {key for key in seen if seen[key] != spectator[key]}
            unlike = sorted(differ - about_viewer)
            assert not unlike, f"seat {seat} sees {unlike} unlike the spectator"
