"""The vectors of the bot stream (docs/protocol.md, "Bot moves"): ``bot-stream.json``.

Written by ``python -m tests.protocol.make_vectors`` with the others. ``generators`` gives,
for a few (seed, seat, v), the stream's first blocks and ``randrange`` calls word by word;
``random_bot`` gives questions a ``random@2`` bot is asked in each game (played from a seed
by ``random@2`` itself, as the server asks it): the legal commands as this build lists them,
their canonical bytes sorted, the words read and the pick.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import msgspec

from spies_bots import BOTS
from spies_bots.random_bot import canonical_order
from spies_bots.stream import StreamRandom, bot_stream
from spies_core.registry import GAMES
from spies_core.rng import FairRng
from spies_core.step import setup, step, view_at

__all__ = ["bot_stream_vectors"]

SERVER_SEED = hashlib.sha256(b"protocol vectors: a stand-in for secrets.token_bytes(32)").digest()

GENERATOR_CASES: tuple[tuple[bytes, int, int, tuple[int, ...]], ...] = (
    (b"readme-demo", 0, 4, (23, 1, 52, 2**63 + 1, 2**63 + 1, 3 * 2**62, 2**64)),
    (SERVER_SEED, 2, 117, (2, 3, 60, 1140, 2**63 + 1)),
    (bytes(32), 1, 10, (5, 5, 5, 5, 5, 5, 5)),
)
"""(seed, seat, v, the ``randrange`` sizes called in order): ``2^63 + 1`` rejects about one
word in two, and the third case reads past its first block."""

RANDOM_CASES: tuple[tuple[str, int, bytes, int], ...] = (
    ("deck-of-spies", 1, b"readme-demo", 1),
    ("deck-of-spies", 1, b"protocol vectors: bot stream", 5),
    ("black-spy", 4, b"protocol vectors: bot stream", 3),
    ("spies-and-lies", 2, b"protocol vectors: bot stream", 2),
    ("spies-and-lies", 4, b"protocol vectors: bot stream", 4),
)
"""(game, players, seed, how many questions of at most :data:`MAX_LEGAL` commands to give):
the game is played by ``random@2`` at every seat from its set-up."""

MAX_LEGAL = 40
"""The most legal commands a question in the vectors has (Black Spy's first pass has
over a thousand)."""


def _randrange(rng: StreamRandom, n: int) -> dict[str, Any]:
    """One ``randrange(n)`` call, with every word it read."""
    limit = 2**64 - 2**64 % n
    words = []
    while True:
        word = rng._word()  # noqa: SLF001  (the words are documented)
        words.append({"word_hex": f"{word:016x}", "accepted": word < limit})
        if word < limit:
            return {"n": str(n), "limit": str(limit), "words": words, "result": str(word % n)}


def _generators() -> list[dict[str, Any]]:
    vectors = []
    for seed, seat, v, sizes in GENERATOR_CASES:
        rng = bot_stream(seed, seat, v)
        calls = [_randrange(rng, n) for n in sizes]
        again = bot_stream(seed, seat, v)
        assert [again.randrange(n) for n in sizes] == [int(c["result"]) for c in calls]
        messages = [f"spies-bot/1:{seat}:{v}:{k}" for k in range(2)]
        vectors.append(
            {
                "seed_hex": seed.hex(),
                "seat": seat,
                "v": v,
                "blocks": [
                    {
                        "message": message,
                        "bytes_hex": hmac.digest(seed, message.encode(), hashlib.sha256).hex(),
                    }
                    for message in messages
                ],
                "calls": calls,
            }
        )
    return vectors


def _canonical(command: Any) -> str:
    """A command's canonical bytes, as text."""
    return msgspec.json.encode(command, order="sorted").decode()


def _questions(game: str, players: int, seed: bytes, wanted: int) -> list[dict[str, Any]]:
    """The first ``wanted`` questions of at most :data:`MAX_LEGAL` commands, and more than
    one, whose listed order is not the sorted one, in a game ``random@2`` plays."""
    spec, choose = GAMES[game], BOTS["random"].policies[game]
    started = setup(spec, players, {}, FairRng(seed, 0))
    state, outcome = started.state, started.outcome
    v = 1 + len(started.events)  # game_created, then the set-up
    found: list[dict[str, Any]] = []
    while outcome is None and len(found) < wanted:
        seat = min(spec.to_act(state))
        legal = list(spec.legal_commands(state, seat))
        command = choose(view_at(spec, state, seat, v), legal, bot_stream(seed, seat, v))
        ordered = canonical_order(legal)
        listed = [_canonical(c) for c in legal]
        if 1 < len(legal) <= MAX_LEGAL and listed != [_canonical(c) for c in ordered]:
            draw = _randrange(bot_stream(seed, seat, v), len(ordered))
            assert ordered[int(draw["result"])] == command
            found.append(
                {
                    "game": game,
                    "players": players,
                    "seed_hex": seed.hex(),
                    "seat": seat,
                    "v": v,
                    "legal_listed": listed,
                    "legal_sorted": [_canonical(c) for c in ordered],
                    "randrange": draw,
                    "pick": _canonical(command),
                }
            )
        moved = step(spec, state, seat, command, FairRng(seed, v))
        state, outcome = moved.state, moved.outcome
        v += len(moved.events)
    assert len(found) == wanted, (game, players, len(found))
    return found


def bot_stream_vectors() -> dict[str, Any]:
    """The content of ``bot-stream.json``."""
    return {
        "description": "The bot stream of version 2 (docs/protocol.md, 'Bot moves'): block k"
        " of the stream of a bot at seat asked at the game's version v is HMAC-SHA256(seed,"
        " 'spies-bot/1:<seat>:<v>:<k>'); randrange reads it as the game's stream does"
        " (integers as decimal strings). random_bot: questions random@2 is asked (its game"
        " played by random@2 from the seed's set-up): the legal commands as this build lists"
        " them and sorted by their canonical bytes, the randrange call, and the pick.",
        "generators": _generators(),
        "random_bot": [
            question
            for game, players, seed, wanted in RANDOM_CASES
            for question in _questions(game, players, seed, wanted)
        ],
    }
