"""A bot's version changes whenever its choices do.

The server records each bot move with the bot's version (``greedy@1``), and
``spies-replay verify`` re-runs a recorded move with the bot of that version. A change to how
a bot chooses that keeps its version would make every log it played before fail verify with
``bot-move-mismatch``. So each bot's choices in each game it plays are pinned here by a
fingerprint: the commands it chooses from a fixed seed, asked as the server asks it (its view
at the version, its legal commands, ``bot_rng(seed, seat, version)``), over a whole game for
the fast bots and the first decisions for the searching ones.

When this fails after a deliberate change to a bot: bump its version in
``spies_bots/registry.py`` (``_VERSIONS``) and replace its fingerprints below under the new
version. When it fails after a change to a game's rules or views, the golden logs say
whether old games still replay; the bots' fingerprints follow them.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import pytest

from spies_bots import BOTS, bot_rng
from spies_bots.base import Policy
from spies_core.decider import AnySpec
from spies_core.registry import GAMES
from spies_core.rng import FairRng
from spies_core.step import setup, step, view_at

SEED = b"bot-version-fingerprint"
SEARCHING_DECISIONS = 12
"""How many decisions pin a searching bot (they take a while each)."""
FAST_BOTS = ("random", "greedy")

FINGERPRINTS: dict[tuple[str, int, str], str] = {
    (
        "random",
        1,
        "deck-of-spies",
    ): "c88c99a094fd9cf06cd62b03479c4838f28ed5b09ceb89ac437c9a9325095ba5",
    ("random", 1, "black-spy"): "5a7a2753e2e583eef8cc0b1be133ce8a9b856fd6408366c74db8909c7b75bde0",
    (
        "random",
        1,
        "spies-and-lies",
    ): "512d797952da3880bc24a8fc01cb1d9b19422b1f7cd105795550f7b085bf2bc7",
    (
        "greedy",
        1,
        "deck-of-spies",
    ): "220ab933084c698b5182c7aef7ec25caedc2860b7168f825365963728fff2a9e",
    ("greedy", 1, "black-spy"): "446444969a2af374085b5fdc0a250198a2f2c74c7f34b1a3961afcead2a1e81e",
    (
        "greedy",
        1,
        "spies-and-lies",
    ): "6647edf14a1b423109db6122e0628e0c178f3ada3af5fba28079f0ec465e88fb",
    (
        "expert",
        1,
        "deck-of-spies",
    ): "c9b5182cd819e083f0585f3ba14bd2c06fc7cd1ff0fec98cd5bf27552f46b07c",
    ("expert", 1, "black-spy"): "05a6622f261960ed62ebd29274f8f49e1c0373bbedfecd46168645a5fa283221",
    (
        "expert",
        1,
        "spies-and-lies",
    ): "ed075de3dce3a6e06729cca8815200e75173dc981d8729e99d0bb145844447ef",
}
"""``(bot, version, game)`` to the fingerprint of its choices (see the module docstring)."""


def fingerprint(spec: AnySpec, policy: Policy, decisions: int | None) -> str:
    """The sha256 of every ``[seat, command]`` the bot chooses playing every seat of a game
    at its fewest players, asked exactly as the server asks it."""
    started = setup(spec, spec.min_players, {}, FairRng(SEED, 0))
    state, outcome = started.state, started.outcome
    version = 1 + len(started.events)  # game_created, then the setup
    chosen: list[Any] = []
    while outcome is None and (decisions is None or len(chosen) < decisions):
        seat = min(spec.to_act(state))
        legal = list(spec.legal_commands(state, seat))
        command = policy(view_at(spec, state, seat, version), legal, bot_rng(SEED, seat, version))
        chosen.append([seat, command])
        moved = step(spec, state, seat, command, FairRng(SEED, version))
        state, outcome = moved.state, moved.outcome
        version += len(moved.events)
    return hashlib.sha256(msgspec.json.encode(chosen)).hexdigest()


def _cases() -> list[Any]:
    return [
        pytest.param(
            bot.name,
            game,
            id=f"{bot.name}-{game}",
            marks=[] if bot.name in FAST_BOTS else [pytest.mark.slow],
        )
        for bot in BOTS.values()
        for game in bot.policies
        if game in GAMES
    ]


@pytest.mark.parametrize(("name", "game"), _cases())
def test_a_bots_choices_are_those_of_its_version(name: str, game: str) -> None:
    bot = BOTS[name]
    decisions = None if name in FAST_BOTS else SEARCHING_DECISIONS
    found = fingerprint(GAMES[game], bot.policies[game], decisions)
    key = (name, bot.version, game)
    assert key in FINGERPRINTS, f"no fingerprint for {key}: add {found!r}"
    assert FINGERPRINTS[key] == found, (
        f"{name} chooses otherwise in {game} than version {bot.version} did: bump its version"
        f" in spies_bots/registry.py and pin {found!r} under the new one"
    )


def test_every_fingerprint_is_of_a_current_bot_version() -> None:
    current = {(bot.name, bot.version, game) for bot in BOTS.values() for game in bot.policies}
    assert set(FINGERPRINTS) <= current, "fingerprints of versions no longer built"
