"""Full random games with 2 and 4 seats, checked at every step (our own loop; the generic
conformance suite runs over the registry as well)."""

from __future__ import annotations

import random

import msgspec
import pytest

from spies_core.decider import fold
from spies_core.errors import RuleError
from spies_core.rng import FairRng
from spies_core.spies_and_lies import SPEC
from spies_core.spies_and_lies.events import Event
from spies_core.spies_and_lies.state import MAX_EVENTS, State
from spies_core.spies_and_lies.view import SpiesAndLiesView
from tests.core.spies_and_lies.helpers import SpiesAndLies

_encoder = msgspec.json.Encoder()
_events = msgspec.json.Decoder(Event)
_views = msgspec.json.Decoder(SpiesAndLiesView)


def _check(state: State, players: int, rng: random.Random) -> None:
    SPEC.check_invariants(state)
    for viewer in [*range(players), None]:
        seen = SPEC.view(state, viewer)
        assert _views.decode(_encoder.encode(seen)) == seen
        SPEC.render_view(seen)
        other = SPEC.scramble(state, viewer, rng)
        SPEC.check_invariants(other)
        assert SPEC.view(other, viewer) == seen
        if viewer is not None:
            assert SPEC.legal_commands(other, viewer) == SPEC.legal_commands(state, viewer)


def _playout(players: int, seed: int) -> State:
    rng = random.Random(seed)
    secret = seed.to_bytes(32, "big")
    game = SpiesAndLies.start(players, rng=FairRng(secret, 0))
    while SPEC.outcome(game.state) is None:
        state = game.state
        _check(state, players, rng)
        acting = SPEC.to_act(state)
        for seat in range(players):
            legal = SPEC.legal_commands(state, seat)
            assert bool(legal) == (seat in acting)
            for probe in SPEC.probe_commands(state, seat):
                if probe in legal:
                    continue
                with pytest.raises(RuleError):
                    SPEC.decide(state, seat, probe, FairRng(secret, len(game.events)))
        seat = rng.choice(sorted(acting))
        new = game.act(seat, rng.choice(game.legal(seat)), rng)
        for event in new:
            assert _events.decode(_encoder.encode(event)) == event
            SPEC.describe_event(event)
            for viewer in [*range(players), None]:
                seen = SPEC.redact(event, viewer)
                assert seen is not None and type(seen) is type(event)
                SPEC.describe_event(seen)
        assert len(game.events) <= MAX_EVENTS
    _check(game.state, players, rng)
    assert fold(SPEC, game.events) == game.state
    assert msgspec.json.decode(_encoder.encode(game.state), type=State) == game.state
    return game.state


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_run_to_the_end_with_every_check(players: int) -> None:
    reasons = set()
    for seed in range(60):
        result = SPEC.outcome(_playout(players, seed))
        assert result is not None
        reasons.add((result.reason, result.draw))
    assert {reason for reason, _ in reasons} == {"flag-captured", "territory", "infiltration"}


def test_max_events_is_an_upper_bound_with_room() -> None:
    """MAX_EVENTS counts the worst case per guess-turn; random games stay well below it."""
    longest = 0
    for seed in range(300):
        rng = random.Random(seed)
        game = SpiesAndLies.start(4, rng=rng, checked=False)
        while SPEC.outcome(game.state) is None:
            seat = rng.choice(sorted(SPEC.to_act(game.state)))
            game.act(seat, rng.choice(game.legal(seat)))
        longest = max(longest, len(game.events))
    assert longest <= MAX_EVENTS == SPEC.max_events == 251
