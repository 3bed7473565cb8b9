"""Full random games for every player count and option set, checked at every step the way
the conformance suite does: legal commands are accepted, probes outside them refused, seats
not to act have nothing, invariants hold (the 60 cards each in exactly one place), every
event survives JSON, and the fold of the log equals the incrementally evolved state."""

from __future__ import annotations

from random import Random
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from spies_core import fold
from spies_core.black_spy.commands import PlayCard
from spies_core.black_spy.state import Phase, State
from spies_core.errors import SpiesError
from spies_core.rng import FairRng
from tests.core.black_spy.helpers import SPEC, BlackSpy, position

ENCODER = msgspec.json.Encoder()
EVENTS = msgspec.json.Decoder(SPEC.event_type)
OPTION_SETS: dict[str, dict[str, Any]] = {
    "modern": {},
    "no-good-spies": {"no_good_spies": True},
    "classic": {"classic": True},
}


def check_step(state: State, rng: Random) -> list[tuple[int, Any]]:
    """Check one state as the conformance suite does; return the legal (seat, command)s."""
    SPEC.check_invariants(state)
    acting = SPEC.to_act(state)
    choices: list[tuple[int, Any]] = []
    for seat in range(state.players):
        legal = SPEC.legal_commands(state, seat)
        if seat not in acting:
            assert legal == []
            continue
        assert legal
        assert len(set(map(ENCODER.encode, legal))) == len(legal), "a legal command twice"
        sample = legal if state.phase is Phase.PLAYING else rng.sample(legal, 8)
        for command in sample:
            assert SPEC.decide(state, seat, command, Random(0))
        for probe in SPEC.probe_commands(state, seat):
            if probe not in legal:
                with pytest.raises(SpiesError):
                    SPEC.decide(state, seat, probe, Random(0))
        choices += [(seat, c) for c in legal]
    for seat in set(range(state.players)) - acting:
        with pytest.raises(SpiesError):
            SPEC.decide(state, seat, rng.choice(choices)[1], Random(0))
    return choices


def playout(players: int, seed: int, options: dict[str, Any]) -> tuple[State, list[Any]]:
    """A fully checked random game, with the server's fair RNG."""
    rng = Random(seed)
    key = seed.to_bytes(32, "big")
    game = BlackSpy.start(players, options, rng=FairRng(key, 0))
    while SPEC.outcome(game.state) is None:
        seat, command = rng.choice(check_step(game.state, rng))
        new = game.act(seat, command, FairRng(key, len(game.events)))
        for event in new:
            assert EVENTS.decode(ENCODER.encode(event)) == event
            for viewer in [*range(players), None]:
                redacted = SPEC.redact(event, viewer)
                assert redacted is not None
                assert EVENTS.decode(ENCODER.encode(redacted)) == redacted
        assert len(game.events) <= SPEC.max_events
    SPEC.check_invariants(game.state)
    assert fold(SPEC, game.events) == game.state
    return game.state, game.events


@pytest.mark.parametrize("options", list(OPTION_SETS.values()), ids=list(OPTION_SETS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_to_the_end(players: int, options: dict[str, Any]) -> None:
    """Full seeded games for 3-6 players end with a lowest-total winner (§7)."""
    for seed in range(2):
        state, events = playout(players, seed, options)
        assert state.phase is Phase.OVER
        outcome = SPEC.outcome(state)
        assert outcome is not None and outcome.reason == "threshold-reached"
        assert outcome.winners == tuple(
            s for s, t in enumerate(state.totals) if t == min(state.totals)
        )
        for seat in range(players):
            assert SPEC.legal_commands(state, seat) == []


def test_same_seed_same_game() -> None:
    """Chance enters only through the rng, so the same seed replays the same game."""
    first = playout(4, 12, {})[1]
    again = playout(4, 12, {})[1]
    assert first == again


def test_invariants_catch_a_lost_or_duplicated_card() -> None:
    """check_invariants is not vacuous: a card in two places is found."""
    game = BlackSpy.start(3, seed=1)
    broken = replace(
        game.state, hands=(game.state.hands[0] + (game.state.hands[1][0],), *game.state.hands[1:])
    )
    with pytest.raises(AssertionError):
        SPEC.check_invariants(broken)
    with pytest.raises(AssertionError):
        SPEC.check_invariants(replace(game.state, totals=(1, 0, 0)))


def test_legal_plays_list_each_black_7_once() -> None:
    """§1.7: several black 7s in hand are one legal command, ``play_card "black-7"``, which
    plays one of them; the trick records the play order for the tie rule (§5.5)."""
    game = BlackSpy.at(
        position(["black-3 blue-9", "black-7 black-7 black-7 blue-1", "blue-2 blue-3"])
    )
    game.act(0, PlayCard(card="black-3"))
    assert game.legal(1) == [PlayCard(card="black-7")]
    game.act(1, PlayCard(card="black-7"))
    assert game.state.hands[1] == ("blue-1", "black-7", "black-7")
    assert game.state.trick == ("black-3", "black-7")
