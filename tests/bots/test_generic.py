"""Every registered bot in every game it plays, generically over the bot and game registries.

- Over seeded playouts of each seat count the game allows (the bot under test at one seat,
  the others played by ``random``), at every decision of the bot under test: the command it
  returns is one of its legal commands, and it returns the same command when the state is
  scrambled in everything its seat cannot see (``spec.scramble``), given the scrambled
  state's view and legal commands and an rng in the same state. A bot that read anything but
  its view (another hand, the deck order) would answer differently in some scrambled world:
  this is what proves that bots do not cheat.
- A bot plays the same game, command for command, from the same seed.
- The registry's shape: names, descriptions, ``random`` everywhere, and a rule-based and a
  strong bot for every game.

``SPIES_BOT_TEST_GAMES`` sets the playouts per bot and game (default 2), spread over the
game's seat counts (at least one each), the seat under test changing from game to game.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import zlib
from random import Random
from typing import Any

import msgspec
import pytest

from spies_bots import BOTS, UnknownBotError, get_bot, policy_for
from spies_bots.base import Policy
from spies_bots.match import IllegalBotCommandError, play_match
from spies_core import GAMES, fold, start_game
from spies_core.decider import AnySpec
from spies_core.rng import FairRng

GAMES_PER_BOT = int(os.environ.get("SPIES_BOT_TEST_GAMES", "2"))

STANDARD_BOTS = ("random", "greedy", "expert")
"""Every game has at least these: random, a fast rule-based bot and a strong one."""


def _seat_counts(spec: AnySpec) -> list[int]:
    return sorted(spec.seat_counts)


FAST_BOTS = ("random", "greedy")
"""Bots that decide in microseconds; the others search and take seconds per game."""


def _marks(bot: str) -> list[pytest.MarkDecorator]:
    return [] if bot in FAST_BOTS else [pytest.mark.slow]


def _cases() -> list[Any]:
    return [
        pytest.param(
            bot.name, game, players, id=f"{bot.name}-{game}-{players}p", marks=_marks(bot.name)
        )
        for bot in BOTS.values()
        for game in bot.games
        for players in _seat_counts(GAMES[game])
    ]


def _pairs() -> list[Any]:
    return [
        pytest.param(bot.name, game, id=f"{bot.name}-{game}", marks=_marks(bot.name))
        for bot in BOTS.values()
        for game in bot.games
    ]


def _playout(spec: AnySpec, players: int, policy: Policy, under_test: int, game: int) -> int:
    """Play one seeded game, checking every decision of seat ``under_test``.

    Returns the number of decisions checked.
    """
    others = policy_for("random", spec.name)
    seed = f"bots:{spec.name}:{players}:{game}".encode()
    setup = start_game(spec, players, {}, FairRng(seed, 0))
    state = fold(spec, setup)
    version = 1 + len(setup)
    rngs = [Random(f"{game}:{seat}") for seat in range(players)]
    scrambler = Random(game)
    checked = 0
    while spec.outcome(state) is None:
        seat = min(spec.to_act(state))
        legal = spec.legal_commands(state, seat)
        rng = rngs[seat]
        if seat != under_test:
            command = others(spec.view(state, seat), legal, rng)
        else:
            before = rng.getstate()
            command = policy(spec.view(state, seat), legal, rng)
            assert command in legal, f"seat {seat} chose {command!r}, which is not legal"
            world = spec.scramble(state, seat, scrambler)
            twin = Random()
            twin.setstate(before)
            again = policy(spec.view(world, seat), spec.legal_commands(world, seat), twin)
            assert again == command, (
                f"seat {seat} chose {command!r} in the real world and {again!r} in a world"
                " that differs only in what it cannot see"
            )
            assert twin.getstate() == rng.getstate(), "the rng was drawn differently"
            checked += 1
        for event in (new := spec.decide(state, seat, command, FairRng(seed, version))):
            state = spec.evolve(state, event)
        version += len(new)
    return checked


@pytest.mark.parametrize(("bot", "game", "players"), _cases())
def test_bots_choose_legal_commands_from_their_view_alone(
    bot: str, game: str, players: int
) -> None:
    spec = GAMES[game]
    policy = policy_for(bot, game)
    counts = _seat_counts(spec)
    first = counts.index(players)  # each seat count starts at another seat
    checked = sum(
        _playout(spec, players, policy, under_test=(first + index) % players, game=index)
        for index in range(max(1, -(-GAMES_PER_BOT // len(counts))))
    )
    assert checked > 0


@pytest.mark.parametrize(("bot", "game"), _pairs())
def test_the_same_seed_plays_the_same_game(bot: str, game: str) -> None:
    spec = GAMES[game]
    players = _seat_counts(spec)[0]
    policies = [policy_for(bot, game), *[policy_for("random", game)] * (players - 1)]

    def play(seed: str) -> Any:
        rngs = [Random(f"{seed}:{seat}") for seat in range(players)]
        return play_match(spec, policies, seed=seed.encode(), rngs=rngs)

    first, second = play("same"), play("same")
    assert first.commands == second.commands
    assert first.outcome == second.outcome
    assert first.events == second.events


@pytest.mark.parametrize("game", list(GAMES))
def test_a_command_that_is_not_legal_is_refused(game: str) -> None:
    spec = GAMES[game]
    players = _seat_counts(spec)[0]

    def cheat(view: Any, legal: Any, rng: Random) -> Any:
        return object()

    with pytest.raises(IllegalBotCommandError) as caught:
        play_match(spec, [cheat] * players, seed=b"x", rngs=[Random(0)] * players)
    assert caught.value.code == "illegal-bot-command"


@pytest.mark.parametrize("game", list(GAMES))
def test_the_check_catches_a_bot_that_peeks_at_the_state(game: str) -> None:
    """A bot that reads the hidden state (here through a spec that leaks it) is caught."""
    seen: dict[str, Any] = {}
    real = GAMES[game]

    def leaky_view(state: Any, seat: int | None) -> Any:
        seen["state"] = state
        return real.view(state, seat)

    def peek(view: Any, legal: Any, rng: Random) -> Any:
        return legal[zlib.crc32(msgspec.json.encode(seen["state"])) % len(legal)]

    spec = dataclasses.replace(real, view=leaky_view)
    players = _seat_counts(spec)[0]
    with pytest.raises(AssertionError, match="differs only in what it cannot see"):
        for index in range(5):
            _playout(spec, players, peek, under_test=0, game=index)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_check_catches_a_bot_that_remembers_between_calls(game: str) -> None:
    calls = itertools.count()

    def forgetful(view: Any, legal: Any, rng: Random) -> Any:
        return legal[next(calls) % len(legal)]

    spec = GAMES[game]
    with pytest.raises(AssertionError, match="differs only in what it cannot see"):
        _playout(spec, _seat_counts(spec)[0], forgetful, under_test=0, game=0)


# -- the registry ----------------------------------------------------------------------------


def test_random_plays_every_game() -> None:
    assert set(get_bot("random").games) == set(GAMES)


@pytest.mark.parametrize("name", list(BOTS))
def test_bots_have_kebab_case_names_and_a_one_line_description(name: str) -> None:
    bot = BOTS[name]
    assert bot.name == name
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name), name
    assert bot.description.strip() == bot.description and bot.description
    assert "\n" not in bot.description
    assert bot.games and set(bot.games) <= set(GAMES)


def test_every_game_has_a_rule_based_and_a_strong_bot() -> None:
    missing = {
        game: [name for name in STANDARD_BOTS if name not in BOTS or game not in BOTS[name].games]
        for game in GAMES
    }
    assert not any(missing.values()), f"bots missing per game: {missing}"


def test_unknown_bots_and_games_a_bot_does_not_play_are_refused() -> None:
    with pytest.raises(UnknownBotError) as caught:
        get_bot("no-such-bot")
    assert caught.value.code == "unknown-bot"
    for bot in BOTS.values():
        for game in set(GAMES) - set(bot.games):
            with pytest.raises(UnknownBotError, match="does not play"):
                policy_for(bot.name, game)
