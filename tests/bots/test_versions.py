"""A bot's version changes whenever its choices do.

The server records each bot move with the bot's version (``greedy@1``), and
``spies-replay verify`` re-runs a recorded move with the bot of that version. A change to how
a bot chooses that keeps its version would make every log it played before fail verify with
``bot-move-mismatch``. So each bot's choices in each game it plays are pinned here by a
fingerprint: the commands it chooses from a fixed seed, asked as the server asks it (its view
at the version, its legal commands, its version's generator: ``bot_stream(seed, seat,
version)`` from version 2, ``bot_rng`` at version 1), over a whole game for the fast bots and
the first decisions for the searching ones. Every version a build keeps to re-run old logs
(``BotSpec.earlier``) is pinned too: version 1's fingerprints are those it had when it was
the current one.

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

from spies_bots import BOTS, bot_rng, bot_stream
from spies_bots.base import Generator, Policy
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
    (
        "random",
        2,
        "deck-of-spies",
    ): "8a11f50025864b7fb2d4bb1f46cc98356bc21bd444dde5f88d62308e362bb01f",
    ("random", 2, "black-spy"): "b2477f50de84d7a8cd081863f4e558b1d080812440c3b0fccb8f07faa50668dd",
    (
        "random",
        2,
        "spies-and-lies",
    ): "07bf396c2e3a744a1cb226b188a5b5cc9370ba5c692a2e51268ef2416e8a5891",
    (
        "greedy",
        2,
        "deck-of-spies",
    ): "220ab933084c698b5182c7aef7ec25caedc2860b7168f825365963728fff2a9e",
    ("greedy", 2, "black-spy"): "446444969a2af374085b5fdc0a250198a2f2c74c7f34b1a3961afcead2a1e81e",
    (
        "greedy",
        2,
        "spies-and-lies",
    ): "14bd98bc21fec7b7eb7eca99f55b48a82eb10e4a0bd437a75b3d2738eeaab256",
    (
        "expert",
        2,
        "deck-of-spies",
    ): "aaeaafb6190258ef91c56a8529aff11961e9896268bed6df32cb8f9b6765d9ed",
    ("expert", 2, "black-spy"): "f3f42eb3cfc92d3d7c5b6993f3a081d20a1b365302ac90e658257d1c4f30d26d",
    (
        "expert",
        2,
        "spies-and-lies",
    ): "602595633c18f03e74489a18686aea7365969808c742be7425ca6375eb1533b0",
}
"""``(bot, version, game)`` to the fingerprint of its choices (see the module docstring)."""


def fingerprint(spec: AnySpec, policy: Policy, generator: Generator, decisions: int | None) -> str:
    """The sha256 of every ``[seat, command]`` the bot chooses playing every seat of a game
    at its fewest players, asked exactly as the server asks it."""
    started = setup(spec, spec.min_players, {}, FairRng(SEED, 0))
    state, outcome = started.state, started.outcome
    version = 1 + len(started.events)  # game_created, then the setup
    chosen: list[Any] = []
    while outcome is None and (decisions is None or len(chosen) < decisions):
        seat = min(spec.to_act(state))
        legal = list(spec.legal_commands(state, seat))
        view = view_at(spec, state, seat, version)
        command = policy(view, legal, generator(SEED, seat, version))
        chosen.append([seat, command])
        moved = step(spec, state, seat, command, FairRng(SEED, version))
        state, outcome = moved.state, moved.outcome
        version += len(moved.events)
    return hashlib.sha256(msgspec.json.encode(chosen)).hexdigest()


def _versions(name: str) -> list[int]:
    bot = BOTS[name]
    return sorted({bot.version, *bot.earlier})


def _cases() -> list[Any]:
    return [
        pytest.param(
            bot.name,
            version,
            game,
            id=f"{bot.name}@{version}-{game}",
            marks=[] if bot.name in FAST_BOTS else [pytest.mark.slow],
        )
        for bot in BOTS.values()
        for version in _versions(bot.name)
        for game in bot.policies
        if game in GAMES
    ]


@pytest.mark.parametrize(("name", "version", "game"), _cases())
def test_a_bots_choices_are_those_of_its_version(name: str, version: int, game: str) -> None:
    kept = BOTS[name].at(version)
    assert kept is not None
    decisions = None if name in FAST_BOTS else SEARCHING_DECISIONS
    found = fingerprint(GAMES[game], kept.policies[game], kept.generator, decisions)
    key = (name, version, game)
    assert key in FINGERPRINTS, f"no fingerprint for {key}: add {found!r}"
    assert FINGERPRINTS[key] == found, (
        f"{name} chooses otherwise in {game} than version {version} did: bump its version"
        f" in spies_bots/registry.py and pin {found!r} under the new one (or, for a version"
        " kept to re-run old logs, restore its choices)"
    )


def test_every_fingerprint_is_of_a_version_in_the_build() -> None:
    built = {
        (bot.name, version, game)
        for bot in BOTS.values()
        for version in _versions(bot.name)
        for game in bot.policies
    }
    assert set(FINGERPRINTS) <= built, "fingerprints of versions no longer built"


def test_the_versions_kept_draw_from_their_generators() -> None:
    """Version 1 of every bot drew from CPython's Mersenne Twister, version 2 draws from the
    protocol's stream; the server asks version 2 (the current one)."""
    for bot in BOTS.values():
        assert bot.version == 2
        first, current = bot.at(1), bot.at(2)
        assert first is not None and current is not None
        assert first.generator is bot_rng and current.generator is bot_stream
        assert set(first.policies) == set(current.policies) == set(bot.policies)
