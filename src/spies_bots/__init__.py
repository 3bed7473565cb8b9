"""Bots for every game: pure policies over what one seat may see.

A bot receives its seat's view (the Struct the API serves), the seat's legal commands and
its own seeded :class:`random.Random`, and returns one of those commands. It never sees a
state: a bot that searches samples the hidden cards from what its view allows. Like
``spies_core``, this package does no I/O, reads no clock and draws no global randomness,
so a bot is deterministic given its seed. It imports ``spies_core`` only.

:data:`spies_bots.registry.BOTS` lists every bot by name, each with a version that the
server records with the bot's moves; the version names the generator a bot draws from at a
table too: :func:`~spies_bots.stream.bot_stream` (the protocol's stream) from version 2,
:func:`~spies_bots.base.bot_rng` (CPython's Mersenne Twister) at version 1, kept to re-run old
logs (the one definition: the server and ``spies-replay verify`` both use them);
:mod:`spies_bots.match` plays a whole game between bots in memory, exactly as the server
would record it.

Who may import it: ``spies_api`` (the bots at the table), ``spies_sim``, and the console layer
of the replay tool (``spies_replay.cli``, which hands the registry to ``verify`` and
``import`` as a parameter: the rest of ``spies_replay`` never imports the bots).
"""

from __future__ import annotations

from spies_bots.base import BotSpec, BotVersion, Generator, Policy, UnknownBotError, bot_rng
from spies_bots.registry import BOTS, find_policy, get_bot, policy_for
from spies_bots.stream import StreamRandom, bot_stream

__all__ = [
    "BOTS",
    "BotSpec",
    "BotVersion",
    "Generator",
    "Policy",
    "StreamRandom",
    "UnknownBotError",
    "bot_rng",
    "bot_stream",
    "find_policy",
    "get_bot",
    "policy_for",
]
