"""The conformance suite: generic checks run over every registered game (OpenSpiel style).

Seeded random playouts go to the end of the game. At every step they check that every
listed legal command is accepted by ``decide`` (a random ``ACCEPTED_PER_SEAT`` of them when a
seat has more: Black Spy's pass lists a thousand ways to pass three cards of twenty, each
through the same code), that a sample of unlisted probes is refused
with a rule error, that seats not to act have no legal command, that the rule invariants
hold, that views survive JSON and cannot tell the state apart from a scrambled one (hidden
orders and hands changed), and that every event survives an encode/decode round trip.
At the end, the fold of all events equals the incrementally evolved state.

``SPIES_CONFORMANCE_GAMES`` sets the playouts per game (default 200, split across the
game's seat counts).
"""

from __future__ import annotations

import os
from random import Random
from typing import Any

import msgspec
import pytest

from spies_core import GAMES, fold, start_game
from spies_core.decider import GameSpec
from spies_core.errors import GameNotStartedError, GameOverError, InvalidOptionsError, SpiesError
from spies_core.rng import FairRng
from spies_replay.meta import META_TYPES

GAMES_PER_SPEC = int(os.environ.get("SPIES_CONFORMANCE_GAMES", "200"))
PROBES_PER_STEP = 6
ACCEPTED_PER_SEAT = 64
"""At most this many of a seat's legal commands are decided at one step (a random sample of
a longer list; the command played is drawn from the whole list)."""
VIEW_CHECK_EVERY = 3
"""Scramble-and-compare the views at every third step (every step is checked for JSON)."""

_encoder = msgspec.json.Encoder()


def _cases() -> list[Any]:
    cases = []
    for spec in GAMES.values():
        counts = sorted(spec.seat_counts)
        per_count = max(1, GAMES_PER_SPEC // len(counts))
        for players in counts:
            cases.append(pytest.param(spec.name, players, per_count, id=f"{spec.name}-{players}p"))
    return cases


def _round_trip(spec: GameSpec[Any, Any, Any, Any, Any], events: list[Any]) -> None:
    decoder = msgspec.json.Decoder(spec.event_type)
    for event in events:
        assert decoder.decode(_encoder.encode(event)) == event, event


def _check_views(
    spec: GameSpec[Any, Any, Any, Any, Any], state: Any, players: int, rng: Random, deep: bool
) -> None:
    view_decoder = msgspec.json.Decoder(spec.view_type)
    for viewer in [*range(players), None]:
        seen = spec.view(state, viewer)
        assert view_decoder.decode(_encoder.encode(seen)) == seen
        assert seen.seat == viewer
        if not deep:
            continue
        other = spec.scramble(state, viewer, rng)
        assert spec.view(other, viewer) == seen, f"view of seat {viewer} leaks hidden state"
        if viewer is not None:
            assert spec.legal_commands(other, viewer) == spec.legal_commands(state, viewer), (
                f"legal commands of seat {viewer} depend on hidden state"
            )


def _check_step(
    spec: GameSpec[Any, Any, Any, Any, Any],
    state: Any,
    players: int,
    rng: Random,
    seed: bytes,
    version: int,
) -> list[tuple[int, Any]]:
    """Check one state; return every (seat, legal command)."""
    spec.check_invariants(state)
    acting = spec.to_act(state)
    choices: list[tuple[int, Any]] = []
    for seat in range(players):
        legal = spec.legal_commands(state, seat)
        if seat not in acting:
            assert legal == [], f"seat {seat} is not to act but has legal commands"
            continue
        assert legal, f"seat {seat} is to act but has no legal command"
        accepted = (
            legal if len(legal) <= ACCEPTED_PER_SEAT else rng.sample(legal, ACCEPTED_PER_SEAT)
        )
        for command in accepted:
            events = spec.decide(state, seat, command, FairRng(seed, version))
            assert events, f"{command} produced no event"
        known = set(legal)
        probes = [p for p in spec.probe_commands(state, seat) if p not in known]
        for probe in rng.sample(probes, min(PROBES_PER_STEP, len(probes))):
            with pytest.raises(SpiesError):
                spec.decide(state, seat, probe, FairRng(seed, version))
        choices += [(seat, command) for command in legal]
    for seat in set(range(players)) - acting:
        if choices:
            with pytest.raises(SpiesError):
                spec.decide(state, seat, rng.choice(choices)[1], FairRng(seed, version))
    return choices


def _playout(spec: GameSpec[Any, Any, Any, Any, Any], players: int, game_seed: int) -> None:
    rng = Random(game_seed)
    seed = game_seed.to_bytes(32, "big")
    events = start_game(spec, players, {}, FairRng(seed, 0))
    _round_trip(spec, events)
    state = fold(spec, events)
    steps = 0
    while spec.outcome(state) is None:
        choices = _check_step(spec, state, players, rng, seed, len(events))
        _check_views(spec, state, players, rng, deep=steps % VIEW_CHECK_EVERY == 0)
        seat, command = rng.choice(choices)
        new = spec.decide(state, seat, command, FairRng(seed, len(events)))
        _round_trip(spec, new)
        for event in new:
            for viewer in [*range(players), None]:
                redacted = spec.redact(event, viewer)
                if redacted is not None:
                    _encoder.encode(redacted)
            state = spec.evolve(state, event)
        events += new
        steps += 1
        assert len(events) <= spec.max_events, f"more than max_events={spec.max_events}"
    spec.check_invariants(state)
    assert fold(spec, events) == state, "fold of the log differs from the evolved state"
    assert spec.to_act(state) == frozenset()
    _check_views(spec, state, players, rng, deep=True)
    for seat in range(players):
        assert spec.legal_commands(state, seat) == []
        for probe in list(spec.probe_commands(state, seat))[:3]:
            with pytest.raises(GameOverError):
                spec.decide(state, seat, probe, FairRng(seed, len(events)))


@pytest.mark.parametrize(("name", "players", "games"), _cases())
def test_random_playouts(name: str, players: int, games: int) -> None:
    spec = GAMES[name]
    for game_seed in range(games):
        _playout(spec, players, game_seed)


@pytest.mark.parametrize("name", list(GAMES))
def test_command_tags_are_unique_within_the_game(name: str) -> None:
    """A command is decoded with its own game's union, so its tag need only be unique within
    that game: two card games may both have ``play_card``."""
    tags = [struct.__struct_config__.tag for struct in GAMES[name].command_type.__args__]
    assert len(tags) == len(set(tags)), f"the commands of {name} repeat a tag: {tags}"


def test_event_tags_are_unique_across_games_and_leave_the_logs_tags_alone() -> None:
    """The log's events of every game are one union, discriminated on ``type`` alone, beside
    the log's own events (``game_created``, the seat events, ``seed_revealed``)."""
    tags: dict[str, str] = dict.fromkeys(META_TYPES, "the log")
    for spec in GAMES.values():
        for struct in spec.event_type.__args__:
            tag = struct.__struct_config__.tag
            assert tag not in tags, f"event tag {tag!r} of {spec.name} also in {tags[tag]}"
            tags[tag] = spec.name


@pytest.mark.parametrize("name", list(GAMES))
def test_the_seat_counts_are_exactly_those_start_game_accepts(name: str) -> None:
    spec = GAMES[name]
    for players in range(spec.max_players + 3):
        if players in spec.seat_counts:
            assert start_game(spec, players, {}, Random(0)), players
            continue
        with pytest.raises(InvalidOptionsError) as refused:
            start_game(spec, players, {}, Random(0))
        assert refused.value.code == "invalid-players"
        assert f"{spec.name} is played by " in refused.value.message
        assert refused.value.message.endswith(f", not {players}")


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_never_started_refuses_every_command_with_one_error(name: str) -> None:
    spec = GAMES[name]
    started = fold(spec, start_game(spec, None, {}, Random(0)))
    probes = [
        probe
        for seat in range(spec.players(started))
        for probe in list(spec.probe_commands(started, seat))[:5]
    ]
    assert probes
    for seat in range(spec.max_players):
        for probe in probes:
            with pytest.raises(GameNotStartedError) as refused:
                spec.decide(spec.initial_state(), seat, probe, FairRng(b"0" * 32, 0))
            assert refused.value.code == "not-started"


def test_state_survives_a_json_round_trip() -> None:
    """States are snapshotted as JSON by the replay log."""
    for spec in GAMES.values():
        state = fold(spec, start_game(spec, None, {}, Random(1)))
        decoded = msgspec.json.decode(_encoder.encode(state), type=spec.state_type)
        assert decoded == state, spec.name
