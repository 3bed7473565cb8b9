"""Write the test vectors and the JSON Schemas of ``docs/protocol.md``.

    python -m tests.protocol.make_vectors            # (re)write docs/protocol/
    python -m tests.protocol.make_vectors --check    # write nothing; exit 1 when a file differs

Every value is computed by the engine itself (the codec, the random stream, the shuffle, each
game's ``start`` and ``decide``, the engine that seals batches as the server does, verify), so
the vectors say what the code does; ``tests/protocol/test_vectors.py`` regenerates them and
fails at the first byte that differs, and runs verify over every export expecting its verdict.
The output is deterministic: client seeds or a fixed stand-in for the server's random seed,
explicit game ids and times, bots seeded as the server seeds them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any, Final, Union
from unittest import mock

import msgspec

from spies_api.game import (
    Head,
    append_seat_change,
    create_game,
    creation,
    load_head,
    plan_timeout,
    prepare_abort,
    prepare_command,
    prepare_resume,
    prepare_seat_change,
    prepare_timeout,
    read_seats,
)
from spies_api.table.bots import BotTurn, forced_turn, plan_turn
from spies_bots import BOTS, bot_rng
from spies_core.clock import OnTimeout, TimeControl, deadline_ms
from spies_core.decider import AnySpec, shuffled
from spies_core.registry import GAMES
from spies_core.rng import ALGORITHM, MIXING, FairRng, seed_commitment
from spies_core.step import setup, step
from spies_replay.cli.bots import REGISTERED_BOTS
from spies_replay.codec import (
    CHAIN_VERSION,
    FORMAT_3,
    canonical_bytes,
    canonical_json,
    chain_hash,
    codec_for,
    encode,
    genesis_hash,
    seal,
)
from spies_replay.errors import InvalidExportError
from spies_replay.jcs import CanonicalizationError, jcs_bytes
from spies_replay.marks import bot_mark
from spies_replay.meta import (
    META_EVENTS,
    META_TYPES,
    EntropyAdded,
    GameCreated,
    SeatEvent,
    SeatHandedToBot,
    SeatJoined,
    SeatState,
    SeatTakenBack,
    SeatType,
    SeedSource,
    mixed_seed,
)
from spies_replay.receipts import (
    KeyList,
    Receipt,
    Signer,
    from_b64url,
    key_id_of,
    public_key_of,
    receipt_message,
)
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameStatus
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import FORMAT_MIXED, GAME_ID, ExportHeader, export_lines, read_export
from spies_replay.verify import verify_log
from tests.protocol.bot_vectors import bot_stream_vectors
from tests.support.botgames import export_of, rechain

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "protocol"
"""Where the schemas go; the vectors are in its ``vectors/`` folder."""
FROZEN = "vectors/format-1"
"""The whole exports of formats 1 and 2 (and their forgeries) as this generator wrote them
before format 3, kept as they are, never regenerated: exports of the old formats keep
verifying (their ``exports.json`` names each file relative to that folder)."""

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
"""The time every vector game starts at."""

SERVER_SEED = hashlib.sha256(b"protocol vectors: a stand-in for secrets.token_bytes(32)").digest()
"""The 32 bytes the server would draw with ``secrets``, fixed here so the vectors repeat."""

RFC3339_UTC = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$"
HEX64 = "^[0-9a-f]{64}$"


# -- helpers ------------------------------------------------------------------------------


def stamp(us: int) -> str:
    """The log's time ``us`` microseconds after :data:`T0`."""
    moment = T0 + timedelta(microseconds=us)
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


def as_json(text: str | bytes) -> Any:
    """A JSON text as the plain value it holds (objects keep their order)."""
    return json.loads(text)


def dumps(value: Any) -> bytes:
    """A vector file: JSON indented by one space a level, each array or object on one line
    when it fits in :data:`WIDTH` characters, non-ASCII kept, a final newline."""
    return (_layout(value, 0) + "\n").encode()


WIDTH = 100
"""The longest line :func:`dumps` writes an array or object on, indentation included."""


def _layout(value: Any, depth: int) -> str:
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(value, dict | list) or not value or depth + len(flat) <= WIDTH:
        return flat
    inner = " " * (depth + 1)
    if isinstance(value, list):
        flats = [json.dumps(item, ensure_ascii=False, separators=(", ", ": ")) for item in value]
        short = [
            not isinstance(item, dict) and len(text) <= 24
            for item, text in zip(value, flats, strict=True)
        ]
        if all(short):
            lines, line = [], inner  # short items: as many a line as fit
            for text in flats:
                if line.strip() and len(line) + len(text) + 2 > WIDTH:
                    lines.append(line)
                    line = inner
                line += text if not line.strip() else " " + text
                line += ","
            lines.append(line)
            return "[\n" + "\n".join(lines)[:-1] + "\n" + " " * depth + "]"
        items = [inner + _layout(item, depth + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
    pairs = [
        f"{inner}{json.dumps(key, ensure_ascii=False)}: {_layout(item, depth + 1).lstrip()}"
        for key, item in value.items()
    ]
    return "{\n" + ",\n".join(pairs) + "\n" + " " * depth + "}"


class Recorder:
    """An ``Rng`` that records every ``randrange`` call, as ``[n, result]``."""

    def __init__(self, rng: FairRng) -> None:
        self.rng = rng
        self.calls: list[list[int]] = []

    def randrange(self, stop: int, /) -> int:
        value = self.rng.randrange(stop)
        self.calls.append([stop, value])
        return value


def consumed(rng: FairRng) -> int:
    """How many bytes of its stream ``rng`` has used so far."""
    return rng._block * 32 - len(rng._buffer)  # noqa: SLF001  (what the vector documents)


# -- primitives -----------------------------------------------------------------------------

CANONICAL_INPUTS: tuple[tuple[str, str], ...] = (
    ("keys sorted by code point at every depth", '{"b":1,"a":{"z":[],"A":{},"_":0},"aa":2}'),
    ("white space dropped", ' { "a" : [ 1 , 2 ,\n\t3 ] , "b" : { } } '),
    ("non-ASCII keys: UTF-8 byte order", '{"é":1,"z":2,"\\uffff":3,"😀":4,"Z":5}'),
    ("literals", "[true,false,null,[],{}]"),
    ("a key twice: the last one counts", '{"a":1,"a":2}'),
    (
        "integers, however large",
        "[0,-0,7,-12,9007199254740993,18446744073709551616,-99999999999999999999]",
    ),
    (
        "floats: fixed notation while 10^-5 <= |x| < 10^16",
        "[0.0,-0.0,1.0,1.5,-2.5,0.1,100.0,2.5E+3,7e0,0.0001,0.00001,"
        "1000000000000000.0,123456789.125,0.30000000000000004]",
    ),
    ("floats: exponent notation outside", "[1e16,1.2345678901234568e17,1e-6,5e-324,-1.5e-7,1e308]"),
    (
        "escapes: quote, backslash and controls; / and DEL are not escaped",
        '"q\\"b\\\\s\\/d\\u007f n\\n t\\t r\\r b\\b f\\f 0\\u0000 1f\\u001f"',
    ),
    ("non-ASCII is raw UTF-8, escaped or not in the input", '"\\u00e9é \\u2028 \\ud83d\\ude00😀"'),
    ("a seat's name", '{"seat":0,"type":"creator","name":"Zoë «🕵»","bot":null}'),
)


JCS_INPUTS: tuple[tuple[str, str], ...] = (
    ("keys sorted by UTF-16 code units", '{"é":1,"z":2,"\\uffff":3,"😀":4,"Z":5}'),
    ("white space dropped", ' { "a" : [ 1 , 2 ,\n\t3 ] , "b" : { } } '),
    ("literals", "[true,false,null,[],{}]"),
    ("integers and floats are one kind of number", "[5,5.0,5e0,-0,-0.0,0.0,50E-1]"),
    (
        "floats in ECMAScript's form",
        "[1.5,-2.5,0.1,100.0,2.5E+3,0.0001,0.000001,0.0000001,123456789.125,"
        "0.30000000000000004,1e20,1e21,1.2345678901234568e22,5e-324,1e308,-1.5e-7]",
    ),
    (
        "integers within ±(2^53 - 1), and a float beyond",
        "[9007199254740991,-9007199254740991,9007199254740993.0]",
    ),
    (
        "escapes: quote, backslash and controls; / and DEL are not escaped",
        '"q\\"b\\\\s\\/d\\u007f n\\n t\\t r\\r b\\b f\\f 0\\u0000 1f\\u001f"',
    ),
    ("non-ASCII is raw UTF-8", '"\\u00e9é \\u2028 \\ud83d\\ude00😀"'),
    (
        "a time control's seconds",
        '{"turn_seconds":3.0,"budget_seconds":600.0,"increment_seconds":0.5}',
    ),
)
JCS_REFUSED: tuple[tuple[str, str], ...] = (
    ("an integer of 2^53", "[9007199254740992]"),
    ("an integer of -2^53", '{"n":-9007199254740992}'),
    ("an integer beyond 64 bits", "[18446744073709551616]"),
)


def jcs_of(text: str) -> bytes:
    """Format 3's canonical bytes of a JSON text (RFC 8785, the ``rfc8785`` library)."""
    return jcs_bytes(msgspec.json.decode(text))


def canonical_vectors() -> dict[str, Any]:
    vectors = []
    for name, text in CANONICAL_INPUTS:
        out = canonical_json(text)
        vectors.append(
            {"name": name, "input": text, "canonical": out.decode(), "canonical_hex": out.hex()}
        )
    jcs: list[dict[str, Any]] = []
    for name, text in JCS_INPUTS:
        out = jcs_of(text)
        jcs.append(
            {"name": name, "input": text, "canonical": out.decode(), "canonical_hex": out.hex()}
        )
    for name, text in JCS_REFUSED:
        try:
            jcs_of(text)
        except CanonicalizationError:
            jcs.append({"name": name, "input": text, "refused": True})
        else:  # pragma: no cover
            raise AssertionError(f"JCS wrote {text}")
    return {
        "description": "Canonical JSON (docs/protocol.md, 'Canonical JSON'): each input, parsed,"
        " in its canonical form (as text, and as the hex of its UTF-8 bytes); 'vectors' in"
        " format 1's, 'jcs' in format 3's (RFC 8785), where 'refused' marks a value it cannot"
        " write (verify: malformed-row).",
        "vectors": vectors,
        "jcs": jcs,
    }


STREAM_SEEDS: tuple[tuple[bytes, int], ...] = (
    (bytes(32), 0),
    (b"readme-demo", 0),
    (b"readme-demo", 4),
    (SERVER_SEED, 123),
)


def stream_vectors() -> dict[str, Any]:
    vectors = []
    for seed, nonce in STREAM_SEEDS:
        rng = FairRng(seed, nonce)
        data = rng._take(96)  # noqa: SLF001  (the stream itself is what is documented)
        vectors.append(
            {
                "seed_hex": seed.hex(),
                "nonce": nonce,
                "blocks": [
                    {
                        "message": f"spies/1:{nonce}:{block}",
                        "bytes_hex": data[32 * block : 32 * block + 32].hex(),
                    }
                    for block in range(3)
                ],
            }
        )
    return {
        "description": "The random stream (docs/protocol.md, 'The random stream'): block k of"
        " the stream of (seed, nonce) is HMAC-SHA256(seed, message).",
        "vectors": vectors,
    }


ENTROPY_CASES: tuple[tuple[str, bytes, tuple[tuple[int | None, bytes], ...]], ...] = (
    ("the document's example", bytes(32), ((None, bytes(16)),)),
    ("the mixed export's", SERVER_SEED, ((None, bytes.fromhex("5eed" * 8 + "c0ffee" * 4)),)),
    (
        "two joiners who joined seat 2 first: ordered by seat, not by time",
        SERVER_SEED,
        (
            (None, bytes(range(16))),
            (2, bytes(range(100, 164))),
            (1, bytes.fromhex("ff" * 20)),
        ),
    ),
)


def entropy_vectors() -> dict[str, Any]:
    vectors = []
    for name, server, logged in ENTROPY_CASES:
        added = [EntropyAdded(seat=seat, entropy=part.hex()) for seat, part in logged]
        ordered = sorted(logged, key=lambda item: -1 if item[0] is None else item[0])
        message = MIXING.encode() + b"".join(
            len(part).to_bytes(4, "big") + part for _, part in ordered
        )
        mixed = mixed_seed(server, added)
        assert mixed == hmac.new(server, message, hashlib.sha256).digest()
        vectors.append(
            {
                "name": name,
                "server_seed_hex": server.hex(),
                "logged": [{"seat": seat, "entropy": part.hex()} for seat, part in logged],
                "message_hex": message.hex(),
                "mixed_seed_hex": mixed.hex(),
            }
        )
    return {
        "description": "Players' entropy (docs/protocol.md, 'Entropy', spies-entropy/1): the"
        " contributions as logged (entropy_added, in log order; seat null: the creator's), the"
        " HMAC message (ASCII spies-entropy/1, then each contribution, the creator's first and"
        " the joiners' by seat, as a 4-byte big-endian length and its bytes) and the mixed"
        " seed HMAC-SHA256(server seed, message).",
        "vectors": vectors,
    }


RANDRANGE_CASES: tuple[tuple[str, bytes, int, tuple[int, ...]], ...] = (
    ("the sizes the games draw", b"readme-demo", 0, (52, 36, 16, 60, 6, 2, 10, 1)),
    (
        "n = 2^63 + 1: a word at or above the limit 2^63 + 1 is rejected (about one in two)",
        b"rejections",
        7,
        (2**63 + 1,) * 6,
    ),
    ("n = 3 * 2^62: one word in four is rejected", b"rejections", 8, (3 * 2**62,) * 6),
)


def randrange_vectors() -> dict[str, Any]:
    vectors = []
    for name, seed, nonce, sizes in RANDRANGE_CASES:
        rng = FairRng(seed, nonce)
        results = [rng.randrange(n) for n in sizes]
        words_bytes = FairRng(seed, nonce)._take(consumed(rng))  # noqa: SLF001
        words = [
            int.from_bytes(words_bytes[i : i + 8], "big") for i in range(0, len(words_bytes), 8)
        ]
        calls, index = [], 0
        for n, result in zip(sizes, results, strict=True):
            limit = 2**64 - 2**64 % n
            used = []
            while True:
                word = words[index]
                index += 1
                used.append({"word_hex": f"{word:016x}", "accepted": word < limit})
                if word < limit:
                    break
            assert words[index - 1] % n == result
            calls.append({"n": str(n), "limit": str(limit), "words": used, "result": str(result)})
        assert index == len(words), "every word the stream gave was read"
        rejected = sum(not word["accepted"] for call in calls for word in call["words"])
        vectors.append(
            {
                "name": name,
                "seed_hex": seed.hex(),
                "nonce": nonce,
                "rejected_words": rejected,
                "calls": calls,
            }
        )
    return {
        "description": "randrange(n) on the stream (docs/protocol.md, 'randrange'): each call"
        " reads 8-byte big-endian words until one is below limit = 2^64 - (2^64 mod n) and"
        " returns it mod n. Integers are decimal strings (some exceed 2^53).",
        "vectors": vectors,
    }


SHUFFLE_CASES: tuple[tuple[bytes, int, tuple[str, ...]], ...] = (
    (b"readme-demo", 0, ("a", "b", "c", "d", "e")),
    (b"readme-demo", 1, tuple("A23456789") + ("10", "J", "Q", "K")),
    (bytes(32), 0, ("only",)),
    (bytes(32), 0, ()),
)


def shuffle_vectors() -> dict[str, Any]:
    vectors = []
    for seed, nonce, items in SHUFFLE_CASES:
        recorder = Recorder(FairRng(seed, nonce))
        result = shuffled(recorder, items)
        vectors.append(
            {
                "seed_hex": seed.hex(),
                "nonce": nonce,
                "items": list(items),
                "draws": recorder.calls,
                "result": list(result),
            }
        )
    return {
        "description": "The shuffle (docs/protocol.md, 'The shuffle'): for i from len - 1 down"
        " to 1, swap items i and randrange(i + 1). 'draws' lists each call as [n, result].",
        "vectors": vectors,
    }


SETUP_VARIANTS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("black-spy", 4, {"classic": True}),
    ("spies-and-lies", 2, {"deal": {"starting": 1}}),
    (
        "spies-and-lies",
        4,
        {"intel_cards": [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]], "deal": {"exhausted": [4, 7]}},
    ),
)


def setup_vectors() -> dict[str, Any]:
    cases = [
        (name, players, {}) for name, spec in GAMES.items() for players in sorted(spec.seat_counts)
    ]
    vectors = []
    for index, (name, players, options) in enumerate([*cases, *SETUP_VARIANTS]):
        seed = SERVER_SEED if index == 0 else f"protocol setup {index}: {name}".encode()
        recorder = Recorder(FairRng(seed, 0))
        started = setup(GAMES[name], players, options, recorder)
        vector: dict[str, Any] = {"game": name, "players": players, "options": options}
        if index:
            vector["seed_text"] = seed.decode()
        vector |= {
            "seed_hex": seed.hex(),
            "draws": recorder.calls,
            "events": [as_json(encode(event)) for event in started.events],
        }
        vectors.append(vector)
    return {
        "description": "Each game's setup (docs/protocol.md, 'Set-up'): the events start gives"
        " for the seed at nonce 0, and every randrange call it made, as [n, result].",
        "vectors": vectors,
    }


def hash_vectors() -> dict[str, Any]:
    """A chain of hand-made rows in format 1, and the same game in format 3."""
    format_1 = hash_chain(CHAIN_VERSION)
    return {
        "description": "The hash chain (docs/protocol.md, 'The hash chain'): hash_0 is"
        " sha256(chain + ':genesis:' + game id); each row's hash is sha256(raw previous"
        " hash || canonical bytes of the row's object). At the top, format 1's chain"
        " ('spies-replay/1', msgspec's canonical JSON); under 'format_3', the same game in"
        " format 3 ('spies-replay/3', RFC 8785, game_created saying its log).",
        **format_1,
        "format_3": hash_chain(FORMAT_3),
    }


def hash_chain(log: str) -> dict[str, Any]:
    """A chain of hand-made rows: a command with and without a bot, non-ASCII text, floats."""
    game_id = "vector-hashes"
    created = GameCreated(
        game="spies-and-lies",
        players=2,
        options={},
        seed_commitment=seed_commitment(b"vector-hashes"),
        seed_source=SeedSource.CLIENT,
        rng=ALGORITHM,
        created_at=stamp(0),
        seats=[
            SeatState(seat=0, type=SeatType.CREATOR, name="Zoë «🕵»"),
            SeatState(seat=1, type=SeatType.OPEN),
        ],
        clock=TimeControl(turn_seconds=7.25, budget_seconds=600.0, increment_seconds=0.1),
    )
    if log == FORMAT_3:
        created = msgspec.structs.replace(created, log=FORMAT_3)
    spec = GAMES["spies-and-lies"]
    first = setup(spec, 2, {}, FairRng(b"vector-hashes", 0))
    batches: list[tuple[list[Any], dict[str, Any]]] = [
        ([created, *first.events], {}),
        ([SeatJoined(seat=1, name='Eve "\\" \u2028 é 😀')], {}),
    ]
    commands = spec.legal_commands(first.state, 0)
    moved = step(spec, first.state, 0, commands[0], FairRng(b"vector-hashes", 3))
    batches.append((list(moved.events), {"actor": 0, "command": commands[0]}))
    other = spec.legal_commands(moved.state, 1)[-1]
    then = step(spec, moved.state, 1, other, FairRng(b"vector-hashes", 3 + len(moved.events)))
    batches.append((list(then.events), {"actor": 1, "command": other, "bot": "greedy@1"}))
    previous, seq, at, rows = genesis_hash(game_id, log), 1, 0, []
    for events, extra in batches:
        for row in seal(previous, seq, events, recorded_at=stamp(at), log=log, **extra):
            fields = msgspec.structs.asdict(row)
            del fields["hash"]
            canonical = canonical_bytes(**fields, log=log)
            assert chain_hash(previous, canonical) == row.hash
            item: dict[str, Any] = {
                "seq": row.seq,
                "type": row.type,
                "actor": row.actor,
                "command": None if row.command is None else as_json(row.command),
                "event": as_json(row.payload),
                "recorded_at": row.recorded_at,
            }
            if row.bot is not None:
                item["bot"] = row.bot
            item |= {"previous_hash": previous, "canonical": canonical.decode(), "hash": row.hash}
            rows.append(item)
            previous, seq = row.hash, row.seq + 1
        at += 1_234_567
    return {
        "chain": log,
        "game_id": game_id,
        "genesis_hash": genesis_hash(game_id, log),
        "rows": rows,
    }


BOT_RNG_CASES: tuple[tuple[bytes, int, int], ...] = (
    (b"readme-demo", 0, 4),
    (SERVER_SEED, 2, 117),
    (bytes(32), 1, 10),
)


def bot_rng_vectors() -> dict[str, Any]:
    vectors = []
    for seed, seat, version in BOT_RNG_CASES:
        message = f"bot:{seat}:{version}"
        key = int.from_bytes(hmac.new(seed, message.encode(), hashlib.sha256).digest(), "big")
        words = []
        value = key
        while True:
            words.append(value & 0xFFFFFFFF)
            value >>= 32
            if not value:
                break
        rng = bot_rng(seed, seat, version)
        outputs = [rng.getrandbits(32) for _ in range(6)]
        draws = bot_rng(seed, seat, version)
        randrange = [[n, draws.randrange(n)] for n in (1, 2, 5, 37, 64, 1000)]
        vectors.append(
            {
                "seed_hex": seed.hex(),
                "seat": seat,
                "version": version,
                "message": message,
                "seed_int_hex": f"{key:064x}",
                "init_key_words": [f"{word:08x}" for word in words],
                "uint32_outputs": outputs,
                "randrange": randrange,
            }
        )
    return {
        "description": "Version 1 bot generators (docs/protocol.md, 'Bot moves'): CPython's"
        " random.Random seeded with the integer of HMAC-SHA256(seed, 'bot:<seat>:<version>');"
        " the first 32-bit outputs of a fresh generator, and randrange(n) calls in order on"
        " another fresh one, as [n, result].",
        "vectors": vectors,
    }


# -- playing games as the server does -------------------------------------------------------


@dataclass
class Table:
    """One game, driven through the engine's own steps (as the API and its scheduler take
    them) on a clock that only moves when told."""

    store: EventStore
    spec: AnySpec
    head: Head
    now: int
    """Microseconds since :data:`T0`."""
    people: Random = field(default_factory=lambda: Random("protocol vectors"))
    bot_version: int | None = None
    """The version every bot plays at (``None``: each bot's current one): 1 records a log as
    the bots wrote it before they drew from the protocol's stream."""

    @property
    def at(self) -> str:
        return stamp(self.now)

    @property
    def over(self) -> bool:
        return self.head.finished

    def wait(self, us: int) -> None:
        self.now += us

    def append(self, prepared: Any) -> None:
        self.store.append(prepared.append)
        self.head = prepared.head

    def person(self, seat: int) -> None:
        """The seat's holder plays one of its legal commands."""
        legal = self.spec.legal_commands(self.head.state, seat)
        command = legal[self.people.randrange(len(legal))]
        self.append(prepare_command(self.spec, self.head, seat, command, recorded_at=self.at))

    def bot(self) -> bool:
        """The lowest seat to act that a bot plays moves, as the server's bot runner asks it;
        ``False`` when no bot is to act."""
        turn = plan_turn(self.head)
        if turn is None:
            return False
        command, mark = self.ask(turn)
        self.append(
            prepare_command(self.spec, self.head, turn.seat, command, bot=mark, recorded_at=self.at)
        )
        return True

    def ask(self, turn: BotTurn) -> tuple[Any, str]:
        """The turn's bot's command at :attr:`bot_version`, and its mark."""
        bot = BOTS[turn.bot]
        version = bot.version if self.bot_version is None else self.bot_version
        kept = bot.at(version)
        assert kept is not None, f"this build has no {turn.bot}@{version}"
        rng = kept.generator(turn.seed, turn.seat, turn.version)
        command = kept.policies[turn.game](turn.view, list(turn.legal), rng)
        return command, bot_mark(turn.bot, version)

    def deadline(self, seat: int) -> int:
        """The seat's deadline, in microseconds since :data:`T0`."""
        assert self.head.clock is not None
        found = deadline_ms(self.head.clock, seat)
        assert found is not None, f"seat {seat}'s clock does not run"
        return found * 1000 - int(T0.timestamp() * 1_000_000)

    def timeout(self, seat: int, late_us: int = 2_345) -> None:
        """The seat's clock runs out; the scheduler records it ``late_us`` after the
        deadline, with the forced move the time control asks for."""
        self.now = self.deadline(seat) + late_us
        assert self.head.clock is not None
        control = self.head.clock.control
        plan = plan_timeout(self.head, seat)
        if plan.forfeit:
            self.append(prepare_timeout(self.spec, self.head, seat, recorded_at=self.at))
            return
        assert plan.forced_at is not None
        turn = forced_turn(self.head, seat, control.timeout_bot, plan.forced_at)
        command, mark = self.ask(turn)
        prepared = prepare_timeout(
            self.spec, self.head, seat, forced=command, bot=mark, recorded_at=self.at
        )
        self.append(prepared)

    def seat_change(self, event: SeatEvent) -> None:
        record = self.store.get_game(self.head.id)
        prepared = prepare_seat_change(
            record, list(self.head.seats), event, log=self.head.log, recorded_at=self.at
        )
        self.store.append(prepared.append)
        self.head = self.head.after(prepared.append, seats=prepared.seats)

    def resume(self) -> None:
        self.append(prepare_resume(self.spec, self.head, recorded_at=self.at))

    def to_act(self) -> list[int]:
        return sorted(self.spec.to_act(self.head.state))


def table(
    store: EventStore,
    game: str,
    game_id: str,
    *,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: str | None = None,
    seats: Sequence[SeatState] | None = None,
    clock: TimeControl | None = None,
    rematch_of: str | None = None,
    tokens: dict[int, str] | None = None,
    entropy: bytes | None = None,
    open_seat_ttl: float | None = None,
) -> Table:
    """A new game at :data:`T0` (``seed=None``: the stand-in server seed; with ``entropy``
    a ``mixed`` game of that server seed and the creator's entropy)."""
    with server_seed():
        created = create_game(
            store,
            game,
            players,
            options,
            seed,
            game_id=game_id,
            seats=seats,
            tokens={} if tokens is None else tokens,
            rematch_of=rematch_of,
            clock=clock,
            created_at=stamp(0),
            entropy=entropy,
            open_seat_ttl=open_seat_ttl,
        )
    return Table(store, GAMES[game], created.head, 0)


@contextmanager
def server_seed() -> Iterator[None]:
    """``secrets.token_bytes(32)`` gives :data:`SERVER_SEED` meanwhile."""
    with mock.patch.object(creation.secrets, "token_bytes", lambda size: SERVER_SEED[:size]):
        yield


def play_out(
    game: Table,
    *,
    person_us: int = 1_500_321,
    bot_us: int = 4_107,
    instead: Callable[[Table, int], bool] | None = None,
) -> None:
    """Bots move as soon as they are to act, people ``person_us`` after the last move, to
    the end; ``instead(game, n)`` may do something else in place of the n-th person's move
    (it returns whether it did)."""
    moves = 0
    while not game.over:
        game.wait(bot_us)
        if game.bot():
            continue
        moves += 1
        if instead is not None and instead(game, moves):
            continue
        game.wait(person_us - bot_us)
        game.person(game.to_act()[0])


# -- the games -----------------------------------------------------------------------------

ALL_CARDS = [
    rank + suit for suit in "CDHS" for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K")
]


def short_deal(spies: Sequence[str]) -> dict[str, Any]:
    """A Deck of Spies deal with only ``spies`` to face: the sixteen A-4 to draw, every
    other card face down on the spy discard pile."""
    low = [card for card in ALL_CARDS if card[:-1] in ("A", "2", "3", "4")]
    draw = list(shuffled(Random("protocol vectors deal"), low))
    rest = [card for card in ALL_CARDS if card not in low and card not in spies]
    return {"spies": list(spies), "draw": draw, "spy_discard": rest}


def deck_of_spies_bot(store: EventStore) -> str:
    """A whole shuffled game, its one seat a ``random`` bot from creation."""
    game = table(
        store,
        "deck-of-spies",
        "vector-deck-of-spies-random-bot",
        seed="protocol vectors: deck of spies 196",
        seats=[SeatState(seat=0, type=SeatType.BOT, bot="random")],
    )
    play_out(game)
    return game.head.id


CREATOR_ENTROPY: Final = bytes.fromhex("5eed" * 8 + "c0ffee" * 4)
"""The creator's entropy of the mixed export (28 bytes)."""


def deck_of_spies_mixed(store: EventStore) -> str:
    """A game with players' entropy (format 2): the stand-in server seed, committed, mixed
    with the creator's entropy; its one seat a ``random`` bot, whose generator the mixed
    seed keys too."""
    game = table(
        store,
        "deck-of-spies",
        "vector-deck-of-spies-mixed",
        seats=[SeatState(seat=0, type=SeatType.BOT, bot="random")],
        entropy=CREATOR_ENTROPY,
    )
    play_out(game)
    return game.head.id


JOINER_ENTROPY: Final = bytes(range(0x40, 0x60))
"""The joiner's entropy of the mixed lobby export (32 bytes)."""


def spies_and_lies_lobby_mixed(store: EventStore) -> str:
    """A lobby game with players' entropy: the creator's at creation, the joiner's with the
    join that takes the last open seat, which deals from the mix of both."""
    game = table(
        store,
        "spies-and-lies",
        "vector-spies-and-lies-lobby-mixed",
        seats=[SeatState(seat=0, name="Ada"), SeatState(seat=1, type=SeatType.OPEN)],
        entropy=CREATOR_ENTROPY,
    )
    game.wait(2_104_733)
    seats = read_seats(store, game.head.id)
    joined = SeatJoined(seat=1, name="Bo")
    append_seat_change(store, seats, joined, recorded_at=game.at, entropy=JOINER_ENTROPY)
    game.head = load_head(store, game.head.id)
    play_out(game)
    return game.head.id


def spies_and_lies_abandoned(store: EventStore) -> str:
    """A lobby game with a clock whose open seat expires: abandoned, every clock stopped
    (they never ran), the seed revealed."""
    game = table(
        store,
        "spies-and-lies",
        "vector-spies-and-lies-abandoned",
        seats=[SeatState(seat=0, name="Ada"), SeatState(seat=1, type=SeatType.OPEN)],
        clock=TimeControl(budget_seconds=300.0),
        open_seat_ttl=600.0,
    )
    game.wait(600_000_000 + 2_345)
    detail = f"its open seats expired at {game.head.open_until}"
    prepared = prepare_abort(
        game.spec, game.head, reason="abandoned", detail=detail, recorded_at=game.at
    )
    store.append(prepared.append)
    return game.head.id


def deck_of_spies_clock(store: EventStore) -> str:
    """An explicit deal and a clock: a move, two timeouts (the second abandons the seat to
    the time control's bot, which moves for it), a move of that bot, the seat taken back."""
    game = table(
        store,
        "deck-of-spies",
        "vector-deck-of-spies-deal-clock",
        options={"deal": short_deal(["5H", "6S", "9C", "JD", "QS"])},
        seed="protocol vectors: a deal with a clock",
        seats=[SeatState(seat=0, name="Zoë «🕵»")],
        clock=TimeControl(
            turn_seconds=3.5, budget_seconds=30.25, increment_seconds=0.5, abandon_after=2
        ),
    )
    game.wait(1_200_345)
    game.person(0)
    game.timeout(0)
    game.timeout(0)
    game.wait(3_003)
    assert game.bot()
    game.wait(50_505)
    game.seat_change(SeatTakenBack(seat=0))
    while not game.over:
        game.wait(300_009)
        game.person(0)
    return game.head.id


def deck_of_spies_at_setup(store: EventStore) -> str:
    """A deal no move can answer: the game ends in its creation's batch."""
    aces = [card for card in ALL_CARDS if card.startswith("A")]
    rest = [card for card in ALL_CARDS if card not in (*aces, "KH", "2C")]
    game = table(
        store,
        "deck-of-spies",
        "vector-deck-of-spies-ends-at-setup",
        options={
            "deal": {
                "spies": ["KH"],
                "draw": [],
                "hand": ["2C"],
                "removed": aces,
                "spy_discard": rest,
            }
        },
        seed="protocol vectors: over before it starts",
    )
    assert game.over
    return game.head.id


def short_game(store: EventStore, name: str, spies: Sequence[str], clock: TimeControl) -> Table:
    """A Deck of Spies game with a short deal (:func:`short_deal`) and a clock."""
    return table(
        store,
        "deck-of-spies",
        f"vector-deck-of-spies-{name}",
        options={"deal": short_deal(spies)},
        seed=f"protocol vectors: {name}",
        clock=clock,
    )


def deck_of_spies_forfeit(store: EventStore) -> str:
    """A time control that forfeits: a move, then the clock runs out."""
    clock = TimeControl(turn_seconds=3.0, on_timeout=OnTimeout.FORFEIT)
    game = short_game(store, "forfeit", ["8H", "10S", "KD"], clock)
    game.wait(2_999_999)
    game.person(0)
    game.timeout(0, late_us=1)
    assert game.over
    return game.head.id


def deck_of_spies_resumed(store: EventStore) -> str:
    """A budget that ran out while no server ran: the clocks resume, the game goes on."""
    clock = TimeControl(budget_seconds=20.0, increment_seconds=2.0)
    game = short_game(store, "resumed", ["6D", "9H", "JC"], clock)
    game.wait(1_500_000)
    game.person(0)
    game.now = game.deadline(0) + 5_000_000
    game.resume()
    while not game.over:
        game.wait(1_000_001)
        game.person(0)
    return game.head.id


def black_spy(store: EventStore) -> str:
    """Six seats, two of them bots' from creation; a seat handed to a bot and taken back; the
    bots at version 1 (CPython's generator, ``random`` taking the legal commands as listed),
    as a log written before they drew from the protocol's stream."""
    game = table(
        store,
        "black-spy",
        "vector-black-spy-6p",
        players=6,
        options={"no_good_spies": True},
        seed="protocol vectors: black spy 22",
        seats=[
            SeatState(seat=0, name="Ada"),
            SeatState(seat=1, type=SeatType.BOT, bot="random"),
            SeatState(seat=2, type=SeatType.BOT, bot="greedy"),
            SeatState(seat=3),
            SeatState(seat=4, type=SeatType.BOT, bot="random"),
            SeatState(seat=5, name="Émile"),
        ],
    )
    game.bot_version = 1

    def hand_over(game: Table, moves: int) -> bool:
        if moves == 12:
            game.seat_change(SeatHandedToBot(seat=3, bot="random"))
        elif moves == 40:
            game.seat_change(SeatTakenBack(seat=3))
        return moves in (12, 40)

    play_out(game, person_us=704_107, instead=hand_over)
    return game.head.id


def spies_and_lies_clock(store: EventStore) -> str:
    """Two seats, one a ``greedy`` bot; a clock with a per-move timer, a budget and an
    increment; the person's clock runs out now and then (its move by the time control's
    ``random`` bot)."""
    game = table(
        store,
        "spies-and-lies",
        "vector-spies-and-lies-clock",
        seed="protocol vectors: spies and lies",
        seats=[SeatState(seat=0, name="Ada"), SeatState(seat=1, type=SeatType.BOT, bot="greedy")],
        clock=TimeControl(
            turn_seconds=20.0, budget_seconds=120.0, increment_seconds=1.5, timeout_bot="random"
        ),
    )

    def time_out(game: Table, moves: int) -> bool:
        if moves % 6 == 0:
            game.timeout(0)
        return moves % 6 == 0

    play_out(game, person_us=1_238_674, instead=time_out)
    return game.head.id


def spies_and_lies_rematch(store: EventStore) -> str:
    """A team game, then its rematch on a server seed: the creator's seats claimed."""
    seats = [
        SeatState(seat=0, name="Ann"),
        SeatState(seat=1, name="Bo"),
        SeatState(seat=2, type=SeatType.BOT, bot="random"),
        SeatState(seat=3, name="Cy"),
    ]
    first = table(
        store,
        "spies-and-lies",
        "vector-spies-and-lies-4p-first",
        players=4,
        seed="protocol vectors: the first game",
        seats=seats,
    )
    play_out(first)
    game = table(
        store,
        "spies-and-lies",
        "vector-spies-and-lies-4p-rematch",
        players=4,
        seats=seats,
        rematch_of=first.head.id,
        tokens={0: "token-0", 1: "token-1", 3: "token-3"},
    )
    play_out(game)
    return game.head.id


@dataclass(frozen=True)
class Export:
    """One whole export vector: the game, and what it shows."""

    make: Callable[[EventStore], str]
    shows: str


EXPORTS: tuple[Export, ...] = (
    Export(
        deck_of_spies_bot,
        "a whole shuffled game on a client seed, every move a bot's"
        " (random@1, re-derived): discard reshuffles and an assassination's draw-deck shuffle",
    ),
    Export(
        deck_of_spies_clock,
        "an explicit deal (seed_source deal, deal_commitment), a"
        " non-ASCII seat name, a clock with fractions of seconds: a move, two timeouts with"
        " their forced greedy@1 moves (the second abandons the seat: seat_handed_to_bot"
        " before it), the bot's move, the seat taken back",
    ),
    Export(
        deck_of_spies_mixed,
        "players' entropy (format 2, spies-replay/2): seed_source mixed, the creator's"
        " entropy_added at seq 2, every draw and the random@1 bot's generator keyed by the"
        " mixed seed, the committed server seed revealed",
    ),
    Export(
        spies_and_lies_lobby_mixed,
        "players' entropy in a lobby game (format 2): an open seat, the deal deferred to the"
        " join that takes it, the joiner's entropy_added right after its seat_joined, the"
        " set-up drawn from the mix of the creator's and the joiner's entropy",
    ),
    Export(
        spies_and_lies_abandoned,
        "a lobby game with a clock whose open seat expired: game_aborted (abandoned) at"
        " open_until, the clocks that never ran stopped, nothing dealt",
    ),
    Export(deck_of_spies_at_setup, "a game over in its creation's batch (seed_revealed at seq 5)"),
    Export(
        deck_of_spies_forfeit,
        "a clock with on_timeout forfeit: clock_expired, the"
        " clocks, the reveal; outcome reason timeout",
    ),
    Export(
        deck_of_spies_resumed,
        "clocks that ran out while no server ran: clocks_resumed (verify's caveat clocks-resumed)",
    ),
    Export(
        black_spy,
        "six seats, bots random@1 and greedy@1 from creation, a seat handed to"
        " random and taken back, non-ASCII names, several deals (each dealt by the"
        " command that ends the last trick of the one before)",
    ),
    Export(
        spies_and_lies_clock,
        "two seats against greedy@1, a per-move timer, a budget and"
        " an increment; timeouts answered by random@1",
    ),
    Export(
        spies_and_lies_rematch,
        "team play (4 seats), a rematch on a server seed: its"
        " creation batch claims the holders' seats (seat_claimed)",
    ),
)


# -- tampering -----------------------------------------------------------------------------


def rows_of(lines: Sequence[bytes]) -> tuple[GameRecord, list[EventRow]]:
    return read_export(lines)


def lines_of(record: GameRecord, rows: Sequence[EventRow]) -> list[bytes]:
    """Export lines, as ``export_lines`` writes them, of a record and rows."""
    return [line + b"\n" for line in export_of(record, rows)]


def rechained(record: GameRecord, rows: Sequence[EventRow]) -> list[bytes]:
    """The lines with every hash and the header's head recomputed, as an attacker who
    knows the chain's rule would."""
    head, fixed = rechain(record, rows)
    return lines_of(msgspec.structs.replace(record, head_hash=head.head_hash), fixed)


def edit(rows: list[EventRow], seq: int, **payload: Any) -> list[EventRow]:
    row = rows[seq - 1]
    data = {**json.loads(row.payload), **payload}
    changed = msgspec.structs.replace(
        row, payload=json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    )
    return [*rows[: seq - 1], changed, *rows[seq:]]


def first_seq(rows: Sequence[EventRow], test: Callable[[EventRow], bool]) -> int:
    return next(row.seq for row in rows if test(row))


@dataclass(frozen=True)
class Tamper:
    """A forgery of the base export: what was done, and the verdict it must get."""

    name: str
    does: str
    forge: Callable[[list[bytes]], tuple[list[bytes], int | None]]
    """The forged lines and the seq the verdict names."""
    code: str | None
    """The verdict's code; ``None``: no forgery, the base's own verdict."""
    head: bool = False
    """Verified against the head the server published (the base's)."""
    base: str = "vector-deck-of-spies-deal-clock"
    """The export forged (:data:`TAMPER_BASE` unless said)."""
    pending: str | None = None
    """Why today's verify does not give the verdict yet, if it does not."""


def _edited(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    record, rows = rows_of(lines)
    seq = first_seq(rows, lambda row: row.type == "cards_drawn" and row.seq > 5)
    forged = lines_of(record, edit(rows, seq, cards=["AS", "2S"]))
    return forged, seq


def _edited_rechained(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    record, rows = rows_of(lines)
    seq = first_seq(rows, lambda row: row.type == "cards_drawn" and row.seq > 5)
    data = json.loads(rows[seq - 1].payload)
    cards = sorted({*ALL_CARDS[:13]} - set(data["cards"]))[: len(data["cards"])]
    return rechained(record, edit(rows, seq, cards=cards)), seq


def _deleted(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    return [*lines[:7], *lines[8:]], 7


def _inserted(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    return [*lines[:8], lines[7], *lines[8:]], 8


def _reordered(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    return [*lines[:7], lines[8], lines[7], *lines[9:]], 7


def _wrong_seed(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    record, rows = rows_of(lines)
    last = rows[-1].seq
    seed = json.loads(rows[-1].payload)["seed"]
    wrong = ("0" if seed[0] != "0" else "1") + seed[1:]
    return rechained(record, edit(rows, last, seed=wrong)), last


def _wrong_commitment(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    record, rows = rows_of(lines)
    other = seed_commitment(b"another seed")
    record = msgspec.structs.replace(record, seed_commitment=other)
    return rechained(record, edit(rows, 1, seed_commitment=other)), rows[-1].seq


def _extra_field(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    line = lines[6]
    return [*lines[:6], b'{"verified":true,' + line[1:], *lines[7:]], 6


def _extra_header_field(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    return [lines[0][:-2] + b',"signature":"00"}\n', *lines[1:]], None


def _duplicated_key(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """``actor`` twice on a command's line: the first says seat 1 (a seat the game does not
    have), the last the true seat 0; readers that keep the first see another actor."""
    record, rows = rows_of(lines)
    seq = first_seq(rows, lambda row: row.command is not None and row.bot is None)
    line = lines[seq]
    return [
        *lines[:seq],
        line.replace(b'"actor":0', b'"actor":1,"actor":0', 1),
        *lines[seq + 1 :],
    ], seq


MIXED_BASE: Final = "vector-deck-of-spies-mixed"


def _entropy_changed(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """The creator's entropy changed after the fact and the chain recomputed: the mixed
    seed changes, and the logged set-up is no longer what it deals."""
    record, rows = rows_of(lines)
    changed = edit(rows, 2, entropy=bytes(16).hex())
    return rechained(record, changed), 3


def _joiner_entropy_changed(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """The joiner's entropy changed after the fact and the chain recomputed: the deal in the
    join's batch is no longer what the mix deals."""
    record, rows = rows_of(lines)
    seq = first_seq(rows, lambda row: row.type == "entropy_added" and row.seq > 2)
    return rechained(record, edit(rows, seq, entropy=bytes(32).hex())), seq + 1


def _format_1_header(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """The mixed export's header saying format 1: a format 1 reader never reads it."""
    return [
        lines[0].replace(b'"format":"spies-replay/3"', b'"format":"spies-replay/1"'),
        *lines[1:],
    ], None


def _format_1_relabelled(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """A format 3 export's header saying format 1: its chain starts from format 1's genesis
    and hashes format 1's bytes, so seq 1's hash is not the chain's."""
    header = lines[0].replace(b'"format":"spies-replay/3"', b'"format":"spies-replay/1"')
    assert header != lines[0]
    return [header, *lines[1:]], 1


def _log_removed(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """``game_created`` without its ``log``, the chain recomputed in format 3: the log no
    longer says the format its header does."""
    record, rows = rows_of(lines)
    data = json.loads(rows[0].payload)
    del data["log"]
    first = msgspec.structs.replace(rows[0], payload=json.dumps(data, separators=(",", ":")))
    return rechained(record, [first, *rows[1:]]), 1


def _seed_upper_case(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """The seed revealed in upper-case hex (the same bytes), the chain recomputed: format 3
    writes it in lower case only."""
    record, rows = rows_of(lines)
    last = rows[-1].seq
    seed = json.loads(rows[-1].payload)["seed"]
    return rechained(record, edit(rows, last, seed=seed.upper())), last


def _integer_too_big(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """A ``cards_drawn`` count of 2^53 + 1, hashes left as they were: RFC 8785 cannot write
    it (a forger could not have hashed it either)."""
    record, rows = rows_of(lines)
    seq = first_seq(rows, lambda row: row.type == "cards_drawn")
    return lines_of(record, edit(rows, seq, count=2**53 + 1)), seq


def _float_respelled(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """The time control's seconds written ``35e-1`` and ``5E-1`` for ``3.5`` and ``0.5``,
    hashes left as they were: the same numbers, so the same RFC 8785 bytes and hashes."""
    respelled = (
        lines[1]
        .replace(b'"turn_seconds":3.5', b'"turn_seconds":35e-1', 1)
        .replace(b'"increment_seconds":0.5', b'"increment_seconds":5E-1', 1)
    )
    assert b"35e-1" in respelled and b"5E-1" in respelled, lines[1]
    return [lines[0], respelled, *lines[2:]], None


def _mark_stripped(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    record, rows = rows_of(lines)
    seq = first_seq(rows, lambda row: row.bot is not None)
    stripped = [msgspec.structs.replace(row, bot=None) if row.seq == seq else row for row in rows]
    return rechained(record, stripped), seq


def _stray_actor(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """The second event of a command's batch given the command's seat as its actor: hashed,
    and said only of a command's first row."""
    record, rows = rows_of(lines)
    seq = first_seq(
        rows,
        lambda row: (
            row.command is None
            and row.type not in META_TYPES
            and rows[row.seq - 2].command is not None
        ),
    )
    actor = rows[seq - 2].actor
    moved = [msgspec.structs.replace(row, actor=actor) if row.seq == seq else row for row in rows]
    return rechained(record, moved), seq


def _clock_forged(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    record, rows = rows_of(lines)
    seq = first_seq(
        rows,
        lambda row: row.type == "clocks_updated" and json.loads(row.payload)["moved"] is not None,
    )
    data = json.loads(rows[seq - 1].payload)
    return rechained(record, edit(rows, seq, used_ms=data["used_ms"] - 1000)), seq


def _time_backwards(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    record, rows = rows_of(lines)
    seq = first_seq(rows, lambda row: row.command is not None)
    earlier = stamp(-1)
    moved = [
        msgspec.structs.replace(row, recorded_at=earlier) if row.seq == seq else row for row in rows
    ]
    return rechained(record, moved), seq


def _cut_short(lines: list[bytes]) -> tuple[list[bytes], int | None]:
    """The log without its last command's batch (so without the reveal), rechained, the
    header saying the game is in progress there: a shorter history than the one the server
    published, consistent in itself."""
    record, rows = rows_of(lines)
    last_command = max(row.seq for row in rows if row.command is not None)
    kept = rows[: last_command - 1]
    record = msgspec.structs.replace(
        record,
        version=len(kept),
        status=GameStatus.ACTIVE,
        outcome=None,
        updated_at=kept[-1].recorded_at,
    )
    return rechained(record, kept), len(kept)


TAMPERS: tuple[Tamper, ...] = (
    Tamper(
        "edited-event",
        "a cards_drawn event's cards changed; hashes left as they were",
        _edited,
        "hash-mismatch",
    ),
    Tamper(
        "edited-event-rechained",
        "a cards_drawn event's cards changed and every hash after it recomputed",
        _edited_rechained,
        "rederivation-mismatch",
    ),
    Tamper("deleted-event", "the line of seq 7 removed", _deleted, "missing-event"),
    Tamper("inserted-event", "the line of seq 7 written twice", _inserted, "out-of-order"),
    Tamper("reordered-events", "the lines of seq 7 and 8 swapped", _reordered, "out-of-order"),
    Tamper(
        "wrong-seed", "another seed revealed, the chain recomputed", _wrong_seed, "seed-mismatch"
    ),
    Tamper(
        "wrong-commitment",
        "another seed commitment in game_created and the header, the chain recomputed",
        _wrong_commitment,
        "seed-mismatch",
    ),
    Tamper(
        "extra-field",
        "an event line with a field outside the hash ('verified')",
        _extra_field,
        "unknown-field",
    ),
    Tamper(
        "extra-header-field",
        "a header with a field the format does not have",
        _extra_header_field,
        "unknown-field",
    ),
    Tamper(
        "duplicated-key",
        "a command's line with 'actor' twice (1, then the true 0)",
        _duplicated_key,
        "duplicate-key",
    ),
    Tamper(
        "bot-mark-stripped",
        "a forced move's bot mark removed, the chain recomputed",
        _mark_stripped,
        "bot-mark-missing",
    ),
    Tamper(
        "stray-actor",
        "a command's second event given the command's seat as its actor, the chain recomputed",
        _stray_actor,
        "misplaced-actor",
    ),
    Tamper(
        "clock-forged",
        "a clocks_updated with another used_ms, the chain recomputed",
        _clock_forged,
        "clocks-mismatch",
    ),
    Tamper(
        "time-backwards",
        "a command recorded before the game was created, the chain recomputed",
        _time_backwards,
        "time-backwards",
    ),
    Tamper(
        "cut-short",
        "the last command's batch removed, the chain and header recomputed,"
        " checked against the head the server published",
        _cut_short,
        "published-head-mismatch",
        head=True,
    ),
    Tamper(
        "entropy-changed",
        "the creator's entropy_added changed after the fact, the chain recomputed",
        _entropy_changed,
        "rederivation-mismatch",
        base=MIXED_BASE,
    ),
    Tamper(
        "joiner-entropy-changed",
        "the joiner's entropy_added changed after the fact, the chain recomputed",
        _joiner_entropy_changed,
        "rederivation-mismatch",
        base="vector-spies-and-lies-lobby-mixed",
    ),
    Tamper(
        "entropy-format-1",
        "the header of a mixed game saying spies-replay/1",
        _format_1_header,
        "invalid-export",
        base=MIXED_BASE,
    ),
    Tamper(
        "format-1-header",
        "the header of a format 3 game saying spies-replay/1",
        _format_1_relabelled,
        "hash-mismatch",
    ),
    Tamper(
        "log-removed",
        "game_created's log removed, the chain recomputed in format 3",
        _log_removed,
        "header-mismatch",
    ),
    Tamper(
        "seed-upper-case",
        "the seed revealed in upper-case hex, the chain recomputed",
        _seed_upper_case,
        "seed-not-hex",
    ),
    Tamper(
        "integer-too-big",
        "a cards_drawn count of 2^53 + 1, the hashes as they were",
        _integer_too_big,
        "malformed-row",
    ),
    Tamper(
        "float-respelled",
        "the time control's seconds respelled (35e-1 for 3.5, 5E-1 for 0.5), the hashes as they"
        " were: not a forgery, the same numbers in RFC 8785",
        _float_respelled,
        None,
    ),
)
TAMPER_BASE = "vector-deck-of-spies-deal-clock"


# -- verdicts and draws --------------------------------------------------------------------


def verdict(
    lines: Sequence[bytes],
    head: str | None = None,
    receipts: Sequence[Receipt] = (),
    keys: KeyList | None = None,
) -> dict[str, Any]:
    """What verify says of an export, with this build's bots: ``ok`` (with its caveats and
    the bot moves it re-ran), or the first failing seq and its code."""
    try:
        record, rows = read_export(lines)
    except InvalidExportError as refused:
        return {"ok": False, "seq": refused.seq, "code": refused.code}
    report = verify_log(
        GAMES, record, rows, bots=REGISTERED_BOTS, head=head, receipts=receipts, keys=keys
    ).report
    if report.problem is not None:
        return {"ok": False, "seq": report.problem.seq, "code": report.problem.code}
    return {
        "ok": True,
        "rederived": str(report.rederived),
        "bot_moves_rederived": report.bot_moves_rederived,
        "caveats": [caveat.code for caveat in report.caveats],
    }


def draws(lines: Sequence[bytes]) -> list[dict[str, Any]]:
    """Every randrange call of a verified export, batch by batch: the setup (nonce 0) and
    each command (nonce: the seq before its first row)."""
    record, rows = read_export(lines)
    codec = codec_for(GAMES[record.game])
    spec = codec.spec
    events = [codec.event.decode(row.payload) for row in rows]
    created, revealed = events[0], events[-1]
    seed = bytes.fromhex(revealed.seed)
    if created.seed_source is SeedSource.MIXED:  # the game draws from the mixed seed
        seed = mixed_seed(seed, [event for event in events if isinstance(event, EntropyAdded)])
    options = dict(created.options)
    if revealed.deal is not None:
        options["deal"] = revealed.deal
    recorder = Recorder(FairRng(seed, 0))
    setup(spec, created.players, options, recorder)
    found = [{"seq": 2, "nonce": 0, "calls": recorder.calls}] if recorder.calls else []
    state = spec.initial_state()
    meta = tuple(META_EVENTS)
    for row, event in zip(rows, events, strict=True):
        if row.command is not None:
            assert row.actor is not None
            recorder = Recorder(FairRng(seed, row.seq - 1))
            step(spec, state, row.actor, codec.command.decode(row.command), recorder)
            if recorder.calls:
                found.append({"seq": row.seq, "nonce": row.seq - 1, "calls": recorder.calls})
        if not isinstance(event, meta):
            state = spec.evolve(state, event)
    return found


# -- schemas -------------------------------------------------------------------------------


def schemas() -> dict[str, Any]:
    """The JSON Schemas of an export's header line and event lines (draft 2020-12)."""
    types: list[Any] = []
    unions: dict[str, Any] = {}
    for spec in GAMES.values():
        prefix = spec.view_type.__name__.removesuffix("View")
        types += [spec.event_type, spec.command_type]
        unions[f"{prefix}Event"] = spec.event_type
        unions[f"{prefix}Command"] = spec.command_type
    meta = Union[tuple(META_EVENTS)]  # noqa: UP007  (a union built at run time)
    types.append(meta)
    from spies_core.decider import Outcome

    types.append(Outcome)
    generated, components = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    defs = dict(sorted(components.items()))
    for name, schema in zip([*unions, "MetaEvent", "Outcome"], generated, strict=True):
        if name != "Outcome":
            defs[name] = schema
    defs["Outcome"] = {**components["Outcome"], "additionalProperties": False}
    games = [name for name in unions if name.endswith("Event")]
    commands = [name for name in unions if name.endswith("Command")]
    draft = "https://json-schema.org/draft/2020-12/schema"
    event_line = {
        "$schema": draft,
        "title": f"{CHAIN_VERSION} export: an event line (line 2 and on)",
        "description": "One event of the log, in seq order (docs/protocol.md, 'The export')."
        " Its hash covers seq, type, actor, command, event, recorded_at and bot; no other"
        " field is allowed. Which game's events and commands may appear is the header's"
        " 'game'.",
        "type": "object",
        "properties": {
            "seq": {"type": "integer", "minimum": 1, "description": "1, 2, 3, ... with no gap."},
            "type": {"type": "string", "description": "The event's tag: its event's 'type'."},
            "actor": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "The seat whose command this row's batch follows from, on the"
                " batch's first row only; null otherwise.",
            },
            "command": {
                "anyOf": [{"type": "null"}, *({"$ref": f"#/$defs/{name}"} for name in commands)],
                "description": "The command, on its batch's first row only; null otherwise.",
            },
            "event": {
                "anyOf": [{"$ref": f"#/$defs/{name}"} for name in [*games, "MetaEvent"]],
                "description": "The event: one of the game's events, or a meta event.",
            },
            "recorded_at": {
                "type": "string",
                "pattern": RFC3339_UTC,
                "description": "When the server recorded the batch, RFC 3339 UTC.",
            },
            "hash": {"type": "string", "pattern": HEX64, "description": "The row's chain hash."},
            "bot": {
                "type": ["string", "null"],
                "pattern": "^[^@]+(@[1-9][0-9]*)?$",
                "description": "The bot that chose the command (NAME@VERSION), on its batch's"
                " first row only; absent (or null) for a person's command and on other rows.",
            },
        },
        "required": ["seq", "type", "actor", "command", "event", "recorded_at", "hash"],
        "additionalProperties": False,
        # a row without a command names no seat and no bot (verify: misplaced-actor)
        "if": {"properties": {"command": {"type": "null"}}},
        "then": {"properties": {"actor": {"type": "null"}, "bot": {"type": "null"}}},
        "$defs": defs,
    }
    header = {
        "$schema": draft,
        "title": f"{CHAIN_VERSION} export: the header (line 1)",
        "description": "The game's record (docs/protocol.md, 'The export'). No hash covers it:"
        " verify checks each field against the log.",
        "type": "object",
        "properties": {
            "format": {"enum": [CHAIN_VERSION, FORMAT_MIXED, FORMAT_3]},
            "id": {"type": "string", "pattern": f"^{GAME_ID.pattern}$"},
            "game": {"type": "string", "enum": sorted(GAMES)},
            "players": {"type": "integer", "minimum": 1},
            "options": {"type": "object"},
            "status": {"enum": ["active", "finished"]},
            "version": {"type": "integer", "minimum": 1},
            "head_hash": {"type": "string", "pattern": HEX64},
            "seed_commitment": {"type": "string", "pattern": HEX64},
            "seed_source": {"enum": [str(source) for source in SeedSource]},
            "rng": {"const": ALGORITHM},
            "outcome": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Outcome"}]},
            "created_at": {"type": "string", "pattern": RFC3339_UTC},
            "updated_at": {"type": "string", "pattern": RFC3339_UTC},
        },
        "required": sorted(field.encode_name for field in msgspec.structs.fields(ExportHeader)),
        "additionalProperties": False,
        "$defs": {"Outcome": defs["Outcome"]},
    }
    return {"export-header.schema.json": header, "export-event.schema.json": event_line}


# -- receipts ------------------------------------------------------------------------------

RECEIPT_KEY_SEED: Final = hashlib.sha256(b"spies-receipt vector key").digest()
"""The vectors' Ed25519 private key (32 bytes): sha256 of a label, so anyone can rebuild it."""


def receipt_vectors(exports: Mapping[str, bytes]) -> dict[str, Any]:
    """A key pair, signed messages, and receipts checked against an export of the vectors."""
    public = Signer.of("", RECEIPT_KEY_SEED).key.public_key().public_bytes_raw()
    signer = Signer.of(key_id_of(public), RECEIPT_KEY_SEED)
    keys = KeyList(keys=[public_key_of(signer.key_id, public.hex())])
    other = hashlib.sha256(b"spies-receipt other key").digest()
    other_public = Signer.of("", other).key.public_key().public_bytes_raw()
    stranger = Signer.of(key_id_of(other_public), other)
    messages = []
    for game_id, seq, head in (
        ("vector-hashes", 4, hash_vectors()["rows"][3]["hash"]),
        ("p4o45j2v5srgh5il", 127, "0b903b9d1685392c" + "0" * 48),
    ):
        text = receipt_message(game_id, seq, head)
        signed = signer.receipt(game_id, seq, head)
        messages.append(
            {
                "game_id": game_id,
                "seq": seq,
                "head_hash": head,
                "message": text.decode(),
                "message_hex": text.hex(),
                "signature": signed.signature,
                "signature_hex": from_b64url_strict(signed.signature).hex(),
            }
        )
    name = f"exports/{TAMPER_BASE.removeprefix('vector-')}.jsonl"
    lines = exports[f"vectors/{name}"].splitlines(keepends=True)
    record, rows = read_export(lines)
    at = rows[5]
    held = signer.receipt(record.id, at.seq, at.hash)
    last = signer.receipt(record.id, rows[-1].seq, rows[-1].hash)
    cases: list[tuple[str, list[Receipt], bool]] = [
        ("receipts the export holds, checked with the keys", [held, last], True),
        ("the same, without the keys: only the heads are checked", [held, last], False),
        (
            "a receipt of another head at seq 6 (the server acknowledged another log)",
            [held, signer.receipt(record.id, at.seq, "0" * 64)],
            True,
        ),
        (
            "a receipt past the export's end (the export was cut short)",
            [signer.receipt(record.id, len(rows) + 1, "1" * 64)],
            False,
        ),
        (
            "a receipt of another game",
            [signer.receipt("vector-hashes", at.seq, at.hash)],
            True,
        ),
        (
            "a signature moved from seq 6's receipt to seq 7's",
            [
                msgspec.structs.replace(
                    signer.receipt(record.id, 7, rows[6].hash), signature=held.signature
                )
            ],
            True,
        ),
        (
            "a receipt signed by a key the server does not list",
            [stranger.receipt(record.id, at.seq, at.hash)],
            True,
        ),
    ]
    checks = []
    for shows, receipts, with_keys in cases:
        entry: dict[str, Any] = {
            "file": name,
            "shows": shows,
            "receipts": [msgspec.to_builtins(r) for r in receipts],
        }
        if with_keys:
            entry["keys"] = msgspec.to_builtins(keys)
        entry["verdict"] = verdict(lines, None, receipts, keys if with_keys else None)
        checks.append(entry)
    return {
        "description": "Signed receipts (docs/protocol.md, 'Receipts'): the vectors' Ed25519"
        " key pair (the private key is sha256 of 'spies-receipt vector key'), messages and"
        " their signatures, and receipts checked against an export of exports.json, each"
        " with the verdict verify must give ('keys': the GET /keys answer to check"
        " signatures with; without it only the heads are checked).",
        "key": {
            "private_key_hex": RECEIPT_KEY_SEED.hex(),
            "public_key_hex": public.hex(),
            "key_id": signer.key_id,
            "listed": msgspec.to_builtins(keys.keys[0]),
        },
        "messages": messages,
        "checks": checks,
    }


def from_b64url_strict(text: str) -> bytes:
    """Unpadded base64url ``text`` as bytes (it must be that)."""
    found = from_b64url(text)
    assert found is not None, text
    return found


# -- the files -----------------------------------------------------------------------------


def exports_and_tampers(workdir: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    index: list[dict[str, Any]] = []
    bases: dict[str, list[bytes]] = {}
    with SQLiteEventStore(workdir / "vectors.db") as store:
        for export in EXPORTS:
            game_id = export.make(store)
            lines = list(export_lines(store, game_id))
            name = game_id.removeprefix("vector-")
            files[f"vectors/exports/{name}.jsonl"] = b"".join(lines)
            found = verdict(lines)
            assert found["ok"], (game_id, found)
            index.append(
                {
                    "file": f"exports/{name}.jsonl",
                    "shows": export.shows,
                    "verdict": found,
                    "draws": draws(lines),
                }
            )
            bases[game_id] = lines
    for tamper in TAMPERS:
        base = bases[tamper.base]
        lines, seq = tamper.forge(list(base))
        head = read_export(base)[0].head_hash if tamper.head else None
        expected = (
            {"ok": False, "seq": seq, "code": tamper.code}
            if tamper.code is not None
            else verdict(base)
        )
        if tamper.pending is None:
            found = verdict(lines, head)
            assert found == expected, (tamper.name, found, expected)
        name = f"tampered-{tamper.name}"
        files[f"vectors/exports/{name}.jsonl"] = b"".join(lines)
        entry: dict[str, Any] = {
            "file": f"exports/{name}.jsonl",
            "shows": f"{tamper.base.removeprefix('vector-')} forged: {tamper.does}",
        }
        if head is not None:
            entry["head"] = head
        entry["verdict"] = expected
        if expected["ok"]:  # no forgery: re-derived, its draws are checked as an export's
            entry["draws"] = draws(lines)
        if tamper.pending is not None:
            entry["pending"] = tamper.pending
        index.append(entry)
    files["vectors/exports.json"] = dumps(
        {
            "description": "Whole exports and forgeries of them (docs/protocol.md, 'Verify'),"
            " each with the verdict verify must give with this build's bots: ok (with the"
            " bot moves it re-ran and its caveats), or the first failing seq and its code;"
            " 'head' is the head hash a server published, to verify against. 'draws' lists"
            " every randrange call of each batch that drew, as [n, result].",
            "vectors": index,
        }
    )
    return files


def build() -> dict[str, bytes]:
    """Every file of ``docs/protocol/`` that the vectors and schemas consist of, by path."""
    files = {
        "vectors/canonical.json": dumps(canonical_vectors()),
        "vectors/stream.json": dumps(stream_vectors()),
        "vectors/randrange.json": dumps(randrange_vectors()),
        "vectors/shuffle.json": dumps(shuffle_vectors()),
        "vectors/setup.json": dumps(setup_vectors()),
        "vectors/hashes.json": dumps(hash_vectors()),
        "vectors/bot-rng.json": dumps(bot_rng_vectors()),
        "vectors/bot-stream.json": dumps(bot_stream_vectors()),
        "vectors/entropy.json": dumps(entropy_vectors()),
    }
    for name, schema in schemas().items():
        files[name] = dumps(schema)
    with tempfile.TemporaryDirectory() as workdir:
        files |= exports_and_tampers(Path(workdir))
    frozen = OUT / FROZEN
    files |= {
        path.relative_to(OUT).as_posix(): path.read_bytes()
        for path in sorted(frozen.rglob("*"))
        if path.is_file()
    }
    files["vectors/receipts.json"] = dumps(receipt_vectors(files))
    return dict(sorted(files.items()))


def on_disk() -> dict[str, bytes]:
    """The files the generator owns that are in ``docs/protocol/`` now."""
    found = {path.relative_to(OUT).as_posix(): path.read_bytes() for path in OUT.glob("*.json")}
    found |= {
        path.relative_to(OUT).as_posix(): path.read_bytes()
        for path in (OUT / "vectors").rglob("*")
        if path.is_file()
    }
    return dict(sorted(found.items()))


def main(argv: Sequence[str]) -> int:
    built = build()
    if "--check" in argv:
        stale = sorted(
            set(built) ^ set(on_disk())
            | {p for p, data in on_disk().items() if built.get(p) != data}
        )
        for path in stale:
            print(f"differs: docs/protocol/{path}")
        return 1 if stale else 0
    for path in on_disk():
        if path not in built:
            (OUT / path).unlink()
    for path, data in built.items():
        target = OUT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    print(f"wrote {len(built)} files to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
