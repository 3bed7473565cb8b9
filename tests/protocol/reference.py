"""The primitives of ``docs/protocol.md``, written from the document alone: it imports
nothing of the engine, so that where it agrees with the vectors (and with the engine on
random input) the document says what the code does.

Canonical JSON, the hash chain, the commitments, the random stream, ``randrange``, the
shuffle, each game's random set-up, the bot stream and ``random@2``'s choice, and the
version 1 bot generator (CPython's Mersenne Twister, seeded as the document says).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections.abc import Iterator, Sequence
from typing import Any

# -- canonical JSON -------------------------------------------------------------------------


class Float(float):
    """A number whose JSON token had a fraction or an exponent."""


def parse(text: str | bytes) -> Any:
    """A JSON text as a value, numbers kept apart by their token: ``int`` or :class:`Float`
    (the canonical form of ``5`` and ``5.0`` differ)."""

    def reject(token: str) -> Any:
        raise ValueError(f"{token} is not JSON")

    def floating(token: str) -> Float:
        value = float(token)
        if math.isinf(value):
            raise ValueError(f"{token} is out of range")
        return Float(value)

    return json.loads(text, parse_float=floating, parse_constant=reject)


_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _string(text: str) -> str:
    out = []
    for char in text:
        if char in _SHORT:
            out.append(_SHORT[char])
        elif ord(char) < 0x20:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _digits(value: float) -> tuple[str, int]:
    """The shortest digits ``D`` (no leading or trailing zero) and ``k`` with
    ``value == D * 10**k``, for a finite positive double."""
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    k = int(exponent or 0) - len(fraction)
    stripped = digits.rstrip("0")
    return stripped, k + len(digits) - len(stripped)


def float_text(value: float) -> str:
    """A double as canonical JSON writes it (``docs/protocol.md``, numbers)."""
    if math.isnan(value) or math.isinf(value):
        raise ValueError("not a finite number")
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0.0"
    digits, k = _digits(abs(value))
    n = len(digits)
    kk = n + k
    if k >= 0 and kk <= 16:
        return sign + digits + "0" * k + ".0"
    if 0 < kk <= 16:
        return sign + digits[:kk] + "." + digits[kk:]
    if -5 < kk <= 0:
        return sign + "0." + "0" * -kk + digits
    mantissa = digits[0] + ("." + digits[1:] if n > 1 else "")
    return sign + mantissa + "e" + str(kk - 1)


def canonical(value: Any) -> str:
    """A parsed value (:func:`parse`) as canonical JSON text."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, Float):
        return float_text(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value)  # code point order, which is the UTF-8 bytes' order
        return "{" + ",".join(_string(key) + ":" + canonical(value[key]) for key in keys) + "}"
    raise TypeError(type(value).__name__)


def canonical_bytes(text: str | bytes) -> bytes:
    """The canonical bytes of a JSON text."""
    return canonical(parse(text)).encode("utf-8")


# -- format 3: RFC 8785 ----------------------------------------------------------------------

SAFE_INTEGER = 2**53 - 1
"""The largest integer token format 3 accepts (either sign)."""


def es_number(value: float) -> str:
    """A double as ECMAScript's ``Number.prototype.toString`` writes it (RFC 8785, 3.2.2.3)."""
    if math.isnan(value) or math.isinf(value):
        raise ValueError("not a finite number")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    digits, k = _digits(abs(value))
    n = len(digits)
    kk = n + k
    if k >= 0 and kk <= 21:
        return sign + digits + "0" * k
    if 0 < kk <= 21:
        return sign + digits[:kk] + "." + digits[kk:]
    if -6 < kk <= 0:
        return sign + "0." + "0" * -kk + digits
    mantissa = digits[0] + ("." + digits[1:] if n > 1 else "")
    return sign + mantissa + "e" + ("+" if kk - 1 > 0 else "-") + str(abs(kk - 1))


def jcs(value: Any) -> str:
    """A parsed value (:func:`parse`) as RFC 8785 text: numbers as doubles in ECMAScript's
    form (an integer token beyond ±(2^53 - 1) refused), keys in UTF-16 code unit order."""
    if value is None or value is True or value is False or isinstance(value, str):
        return canonical(value)
    if isinstance(value, Float):
        return es_number(value)
    if isinstance(value, int):
        if abs(value) > SAFE_INTEGER:
            raise ValueError(f"the integer {value} is beyond ±(2^53 - 1)")
        return es_number(float(value))
    if isinstance(value, list):
        return "[" + ",".join(jcs(item) for item in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: key.encode("utf-16-be"))
        return "{" + ",".join(_string(key) + ":" + jcs(value[key]) for key in keys) + "}"
    raise TypeError(type(value).__name__)


def jcs_bytes(text: str | bytes) -> bytes:
    """Format 3's canonical bytes of a JSON text."""
    return jcs(parse(text)).encode("utf-8")


# -- the chain and the commitments ------------------------------------------------------------


FORMAT_3 = "spies-replay/3"


def chain(export_format: str) -> str:
    """The chain of an export's ``format``: format 2 is format 1's."""
    return FORMAT_3 if export_format == FORMAT_3 else "spies-replay/1"


def genesis(game_id: str, log: str = "spies-replay/1") -> str:
    return hashlib.sha256(f"{log}:genesis:{game_id}".encode()).hexdigest()


def row_bytes(row: dict[str, Any], log: str = "spies-replay/1") -> bytes:
    """The canonical bytes of an export line's hashed fields (``row`` as parsed) in the
    chain ``log``."""
    hashed = {key: row[key] for key in ("seq", "type", "actor", "command", "event", "recorded_at")}
    if row.get("bot") is not None:
        hashed["bot"] = row["bot"]
    return (jcs(hashed) if log == FORMAT_3 else canonical(hashed)).encode("utf-8")


def link(previous: str, canonical_row: bytes) -> str:
    return hashlib.sha256(bytes.fromhex(previous) + canonical_row).hexdigest()


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def deal_commitment(seed: bytes, deal_text: str, log: str = "spies-replay/1") -> str:
    encoded = jcs_bytes(deal_text) if log == FORMAT_3 else canonical_bytes(deal_text)
    return hashlib.sha256(seed + encoded).hexdigest()


# -- the random stream ------------------------------------------------------------------------


def mixed(server_seed: bytes, logged: Sequence[tuple[int | None, bytes]]) -> bytes:
    """``spies-entropy/1``: HMAC-SHA256 keyed by the server seed over the ASCII label and each
    contribution, the creator's (seat ``None``) first, then the joiners' by seat, each as its
    length in 4 bytes big-endian and its bytes."""
    creator = [part for seat, part in logged if seat is None]
    joiners = [part for _, part in sorted((s, p) for s, p in logged if s is not None)]
    message = b"spies-entropy/1"
    for part in creator + joiners:
        message += len(part).to_bytes(4, "big") + part
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def block(seed: bytes, nonce: int, index: int) -> bytes:
    message = f"spies/1:{nonce}:{index}".encode("ascii")
    return hmac.new(seed, message, hashlib.sha256).digest()


class Stream:
    """``randrange`` on the stream of (seed, nonce)."""

    def __init__(self, seed: bytes, nonce: int) -> None:
        self.seed, self.nonce = seed, nonce
        self.data = b""
        self.blocks = 0
        self.read = 0

    def word(self) -> int:
        while len(self.data) < self.read + 8:
            self.data += block(self.seed, self.nonce, self.blocks)
            self.blocks += 1
        value = int.from_bytes(self.data[self.read : self.read + 8], "big")
        self.read += 8
        return value

    def randrange(self, n: int) -> int:
        limit = 2**64 - 2**64 % n
        while True:
            value = self.word()
            if value < limit:
                return value % n


def shuffle(stream: Stream, items: Sequence[Any]) -> list[Any]:
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = stream.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


# -- each game's random set-up ------------------------------------------------------------------

STANDARD = [r + s for s in "CDHS" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]
"""The 52 cards in canonical order."""
BLACK_SPY = [f"{c}-{r}" for c in ("blue", "yellow", "red", "green", "black") for r in range(1, 12)]
BLACK_SPY += ["black-7"] * 5
"""The 60 cards in canonical order."""
INTEL_CARDS = [[1, 2, 3, 4], [1, 2, 3, 4], [4, 5, 6, 7], [4, 5, 6, 7], [7, 8, 9, 10], [7, 8, 9, 10]]


def _value(card: str) -> int:
    rank = card[:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)


def deck_of_spies(seed: bytes) -> dict[str, Any]:
    """The shuffled orders of a Deck of Spies set-up without a deal, and the hand drawn."""
    stream = Stream(seed, 0)

    def group(low: int, high: int) -> list[str]:
        return shuffle(stream, [c for c in STANDARD if low <= _value(c) <= high])

    spies = group(5, 7) + group(8, 10) + group(11, 13)
    draw = group(1, 4)
    hand = sorted(draw[:5], key=STANDARD.index)
    return {"spy_deck": spies, "draw_deck": draw, "hand": hand}


def black_spy(seed: bytes, players: int) -> dict[str, Any]:
    """The first dealer and the first deal of a Black Spy set-up without a deal."""
    stream = Stream(seed, 0)
    dealer = stream.randrange(players)
    return {"dealer": dealer, "hands": black_spy_deal(stream, dealer, players)}


def black_spy_deal(stream: Stream, dealer: int, players: int) -> list[list[str]]:
    order = shuffle(stream, BLACK_SPY)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(order):
        hands[(dealer + 1 + i) % players].append(card)
    sort = sorted(set(BLACK_SPY), key=BLACK_SPY.index)
    return [sorted(hand, key=sort.index) for hand in hands]


def spies_and_lies(seed: bytes, options: dict[str, Any]) -> dict[str, Any]:
    """The intel deck, the first exhausted soldiers and the day-1 starter."""
    stream = Stream(seed, 0)
    deal = options.get("deal") or {}
    cards = options.get("intel_cards", INTEL_CARDS)
    deck = deal.get("intel") or shuffle(stream, cards)
    exhausted = deal.get("exhausted")
    if exhausted is None:
        exhausted = [shuffle(stream, range(1, 11))[0], shuffle(stream, range(1, 11))[0]]
    starting = deal.get("starting")
    if starting is None:
        starting = stream.randrange(2)
    return {
        "old_intel": deck[0],
        "intel_deck": deck[1:],
        "exhausted": exhausted,
        "starting_side": starting,
    }


# -- the bot stream (version 2) and random@2 ----------------------------------------------------


def bot_block(seed: bytes, seat: int, v: int, index: int) -> bytes:
    message = f"spies-bot/1:{seat}:{v}:{index}".encode("ascii")
    return hmac.new(seed, message, hashlib.sha256).digest()


class BotStream(Stream):
    """``randrange`` on the bot stream of (seed, seat, v): the game's stream's reading of
    other blocks."""

    def __init__(self, seed: bytes, seat: int, v: int) -> None:
        super().__init__(seed, 0)
        self.seat, self.v = seat, v

    def word(self) -> int:
        while len(self.data) < self.read + 8:
            self.data += bot_block(self.seed, self.seat, self.v, self.blocks)
            self.blocks += 1
        value = int.from_bytes(self.data[self.read : self.read + 8], "big")
        self.read += 8
        return value


def random_2(seed: bytes, seat: int, v: int, legal: Sequence[str]) -> tuple[list[str], str]:
    """``random@2``'s answer from the legal commands' JSON texts (in any order): the set of
    their canonical bytes sorted bytewise, and the one it picks (as text)."""
    ordered = sorted({canonical_bytes(text) for text in legal})
    pick = ordered[BotStream(seed, seat, v).randrange(len(ordered))]
    return [item.decode() for item in ordered], pick.decode()


# -- version 1 bot generators: CPython's Mersenne Twister ----------------------------------------

_N, _M = 624, 397


class Twister:
    """MT19937 as CPython's ``random.Random`` runs it (``init_by_array`` seeding)."""

    def __init__(self, key: Sequence[int]) -> None:
        mt = [0] * _N
        mt[0] = 19650218
        for i in range(1, _N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(_N, len(key))):
            mt[i] = (
                (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j
            ) & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= _N:
                mt[0], i = mt[_N - 1], 1
            if j >= len(key):
                j = 0
        for _ in range(_N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= _N:
                mt[0], i = mt[_N - 1], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, _N

    def uint32(self) -> int:
        if self.index >= _N:
            mt = self.mt
            for k in range(_N):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
                mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def randrange(self, n: int) -> int:
        bits = n.bit_length()
        assert 0 < bits <= 32
        while True:
            value = self.uint32() >> (32 - bits)
            if value < n:
                return value


def key_words(value: int) -> list[int]:
    """The seeding key: the integer's 32-bit words, least significant first (at least one)."""
    words = []
    while True:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            return words


def bot_generator(seed: bytes, seat: int, version: int) -> Twister:
    digest = hmac.new(seed, f"bot:{seat}:{version}".encode("ascii"), hashlib.sha256).digest()
    return Twister(key_words(int.from_bytes(digest, "big")))


def outputs(twister: Twister, count: int) -> Iterator[int]:
    for _ in range(count):
        yield twister.uint32()
