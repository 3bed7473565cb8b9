"""Encoding of stored events, and the hash chain that seals them.

``docs/protocol.md`` defines both byte for byte (canonical JSON, the chain, the
commitments); its test vectors are in ``docs/protocol/vectors/``.

Hash chain (``spies-replay/1`` and ``spies-replay/3``)
------------------------------------------------------
Every row of ``events`` stores ``hash``, lower-case hex of::

    hash_0 = sha256(utf8(LOG + ":genesis:" + game_id))
    hash_n = sha256(bytes.fromhex(hash_{n-1}) + canonical_n)

``LOG`` is the game's chain: ``spies-replay/3`` for a game whose ``game_created`` says so
(``log``: every game created since format 3), else ``spies-replay/1`` (formats 1 and 2).
``canonical_n`` is, in format 3, the RFC 8785 canonical JSON (:mod:`spies_replay.jcs`), and
in format 1 the deterministic JSON (``msgspec.json.Encoder(order="deterministic")``: UTF-8,
no whitespace, object keys sorted at every depth), of the object::

    {"actor": <seat or null>, "command": <command object or null>, "event": <payload object>,
     "recorded_at": "<ISO 8601 UTC>", "seq": <n>, "type": "<tag>"}

plus ``"bot": "<name>"`` on the first row of a command a bot chose (the key is absent
otherwise, so the hashes of every other row are what they always were).

where ``event`` and ``command`` are the stored JSON texts parsed as plain JSON. The hash
therefore covers who acted, what they asked for, what followed, when, and where in the log;
it does not depend on how the stored JSON text happens to be spaced or ordered. Binding
``hash_0`` to the game id stops a log from being passed off as another game's. The head hash
(``games.head_hash``) is the hash of the last event. A game keeps its chain for ever: rows
appended to a game of format 1 are sealed in format 1.

Duplicated keys
---------------
JSON readers differ on an object with a key twice (msgspec, like most, keeps the last; some
keep the first), so such a text has no one meaning, and its hash covers only the reading
that keeps the last. Every JSON text read from outside is checked with
:func:`duplicated_key` and refused when it has one; the engine never writes one.

Nesting
-------
msgspec decodes nested JSON by recursion and has no depth limit of its own, so a line nested
a thousand levels deep would end in Python's ``RecursionError`` at a depth that depends on
the caller's stack. Every JSON text read from outside (an export line, a stored payload or
command) is measured first with :func:`json_depth`, without decoding it, and refused when
nested deeper than :data:`MAX_JSON_DEPTH`; the logs the engine writes stay far below it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import accumulate
from typing import Any, Final, Union

import msgspec

from spies_core.decider import AnySpec
from spies_replay.jcs import parsed_bytes, row_bytes
from spies_replay.meta import META_EVENTS
from spies_replay.store.records import EventRow

__all__ = [
    "CHAIN_VERSION",
    "CHAINS",
    "FORMAT_3",
    "MAX_JSON_DEPTH",
    "GameCodec",
    "canonical_bytes",
    "chain_hash",
    "chain_of",
    "codec_for",
    "duplicated_key",
    "encode",
    "event_tag",
    "genesis_hash",
    "json_depth",
    "seal",
]

CHAIN_VERSION: Final = "spies-replay/1"
"""The chain of formats 1 and 2 (msgspec's deterministic JSON), and format 1's export."""
FORMAT_3: Final = "spies-replay/3"
"""Log format 3: its chain (RFC 8785 canonical JSON), its export, and ``game_created.log``
of every game created since."""
CHAINS: Final = (CHAIN_VERSION, FORMAT_3)
"""The chains a game can be sealed in (``log`` below)."""

MAX_JSON_DEPTH: Final = 64
"""The deepest nesting of arrays and objects accepted in one JSON text from outside (an
export line counts its own object): ``{"a": [1]}`` is 2 deep."""

_canonical_encoder: Final = msgspec.json.Encoder(order="deterministic")
_encoder: Final = msgspec.json.Encoder()
_plain_decode: Final = msgspec.json.Decoder().decode


def encode(value: object) -> str:
    """Encode a Struct (event, command, state) or plain value as compact JSON text."""
    return _encoder.encode(value).decode()


def event_tag(event: msgspec.Struct) -> str:
    """The ``type`` tag of a tagged event Struct.

    Raises:
        TypeError: the Struct has no tag.
    """
    tag = event.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{type(event).__name__} is not a tagged event Struct")
    return tag


_JSON_STRING: Final = re.compile(rb'"(?:[^"\\]++|\\.?)*+(?:"|\Z)', re.DOTALL)
"""A JSON string literal, or an unterminated one up to the end: every quote starts a match
that consumes what it scans (possessive, no backtracking), so the scan stays linear on
hostile input."""
_NOT_BRACKETS: Final = bytes(byte for byte in range(256) if byte not in b"[]{}")
_BRACKET_STEP: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(text: str | bytes) -> int:
    """How deep arrays and objects nest in a JSON text, measured without decoding it.

    Brackets inside string literals do not count. On text that is not JSON the figure is
    only an estimate, but the decoder refuses such text anyway.

    >>> json_depth('{"a": [1, "]]"], "b": {}}')
    2
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    brackets = _JSON_STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)), default=0)


class _DuplicatedKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_pairs(pairs: list[tuple[str, Any]]) -> None:
    """An ``object_pairs_hook`` that refuses a key met twice (the object itself is not kept:
    only the check is wanted)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _DuplicatedKeyError(key)
        seen.add(key)


def duplicated_key(text: str | bytes) -> str | None:
    """The first key that appears twice in one object of a JSON text, at any depth, or
    ``None``. Text that is not JSON has none (its decoder refuses it); measure its depth
    first (:func:`json_depth`), as this reads it by recursion.

    >>> duplicated_key('{"card": "red-1", "seat": 0, "card": "black-7"}')
    'card'
    >>> duplicated_key('[{"a": 1}, {"a": 2}]') is None
    True
    """
    data = text.encode() if isinstance(text, str) else text
    try:
        if msgspec.json.encode(msgspec.json.decode(data)) == data:
            # Read back to the same bytes, every object kept all its pairs: a key met twice
            # would have left one pair out. What the engine writes reads back so (compact
            # JSON); any other text is read pair by pair below.
            return None
    except (msgspec.DecodeError, UnicodeDecodeError):
        pass
    try:
        json.loads(text, object_pairs_hook=_unique_pairs)
    except _DuplicatedKeyError as found:
        return found.key
    except ValueError:
        return None
    return None


def chain_of(log: str | msgspec.UnsetType | None) -> str:
    """The chain of a game whose ``game_created.log`` is ``log`` (unset: format 1's).

    Raises:
        ValueError: ``log`` names no chain.
    """
    chain = CHAIN_VERSION if log is None or log is msgspec.UNSET else log
    if chain not in CHAINS:
        raise ValueError(f"log {log!r} is not one of {', '.join(CHAINS)}")
    return chain


def genesis_hash(game_id: str, log: str = CHAIN_VERSION) -> str:
    """``hash_0`` of a game's chain: bound to its id and to the chain ``log`` (one of
    :data:`CHAINS`), so a log cannot be read in another format than its own."""
    return hashlib.sha256(f"{chain_of(log)}:genesis:{game_id}".encode()).hexdigest()


def canonical_bytes(
    *,
    seq: int,
    type: str,
    actor: int | None,
    command: str | None,
    payload: str,
    recorded_at: str,
    bot: str | None = None,
    log: str = CHAIN_VERSION,
) -> bytes:
    """The canonical bytes of one stored event in the chain ``log`` (see the module
    docstring): the reader's, for texts from anywhere.

    Raises:
        msgspec.DecodeError: ``payload`` or ``command`` is not JSON.
        ValueError: (format 3) JCS cannot write it: an integer beyond ±(2^53 - 1).
    """
    if chain_of(log) == FORMAT_3:
        return parsed_bytes(
            lambda decode: _row_object(seq, type, actor, command, payload, recorded_at, bot, decode)
        )
    return _canonical_encoder.encode(
        _row_object(seq, type, actor, command, payload, recorded_at, bot, _plain_decode)
    )


def _row_object(
    seq: int,
    kind: str,
    actor: int | None,
    command: str | None,
    payload: str,
    recorded_at: str,
    bot: str | None,
    decode: Callable[[str | bytes], Any],
) -> dict[str, Any]:
    """The object a row's hash covers, its JSON texts parsed with ``decode``."""
    fields: dict[str, Any] = {
        "actor": actor,
        "command": None if command is None else decode(command),
        "event": decode(payload),
        "recorded_at": recorded_at,
        "seq": seq,
        "type": kind,
    }
    if bot is not None:
        fields["bot"] = bot
    return fields


def chain_hash(previous: str, canonical: bytes) -> str:
    """``sha256(bytes.fromhex(previous) + canonical)`` as lower-case hex."""
    return hashlib.sha256(bytes.fromhex(previous) + canonical).hexdigest()


def canonical_json(text: str | bytes) -> bytes:
    """Deterministic JSON of any JSON text (to compare two payloads by content)."""
    return _canonical_encoder.encode(_plain_decode(text))


class GameCodec:
    """The decoders of one game, built once (msgspec: "create … once and reuse it").

    Attributes:
        spec: the game.
        event: decodes one stored payload, game or meta event.
        game_events: decodes a JSON array of game events (the fold's fast path).
        command: decodes a stored command.
        state: decodes a snapshot.
    """

    __slots__ = ("command", "event", "game_events", "spec", "state")

    def __init__(self, spec: AnySpec) -> None:
        self.spec = spec
        self.event: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
            Union[(spec.event_type, *META_EVENTS)]  # noqa: UP007
        )
        self.game_events: msgspec.json.Decoder[list[Any]] = msgspec.json.Decoder(
            list[spec.event_type]  # type: ignore[name-defined]
        )
        self.command: msgspec.json.Decoder[Any] = msgspec.json.Decoder(spec.command_type)
        self.state: msgspec.json.Decoder[Any] = msgspec.json.Decoder(spec.state_type)

    def decode_game_events(self, payloads: list[str]) -> list[Any]:
        """Decode many game-event payloads at once (one decoder call for the whole list)."""
        if not payloads:
            return []
        return self.game_events.decode("[" + ",".join(payloads) + "]")


@lru_cache(maxsize=64)
def codec_for(spec: AnySpec) -> GameCodec:
    """The cached :class:`GameCodec` of a game."""
    return GameCodec(spec)


def split_deal(options: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """Options without ``deal`` (public from creation on) and the deal (secret until the end)."""
    public = {key: value for key, value in options.items() if key != "deal"}
    return public, options.get("deal")


def deal_commitment(seed: bytes, deal: Any, log: str = CHAIN_VERSION) -> str:
    """``sha256(seed || canonical JSON of the deal)`` as hex, the canonical JSON the chain
    ``log``'s: salted by the secret seed, so a small puzzle deal cannot be guessed from its
    commitment.

    Raises:
        ValueError: (format 3) JCS cannot write the deal.
    """
    text = _encoder.encode(deal)
    jcs = chain_of(log) == FORMAT_3
    canonical = parsed_bytes(lambda decode: decode(text)) if jcs else canonical_json(text)
    return hashlib.sha256(seed + canonical).hexdigest()


def seal(
    previous_hash: str,
    first_seq: int,
    events: Sequence[msgspec.Struct],
    *,
    recorded_at: str,
    log: str,
    actor: int | None = None,
    command: msgspec.Struct | None = None,
    bot: str | None = None,
) -> list[EventRow]:
    """Turn one batch of events into rows, chaining their hashes from ``previous_hash`` in
    the game's chain ``log`` (:data:`FORMAT_3` for a game created since, else
    :data:`CHAIN_VERSION`: see :func:`chain_of`).

    ``actor``, ``command`` and ``bot`` go on the batch's first row only (NULL on the
    others), which is how a reader finds where one command's events begin. For a new game,
    ``previous_hash`` is :func:`~spies_replay.codec.genesis_hash` of its id.

    Raises:
        ValueError: ``log`` names no chain, or (format 3) JCS cannot write a row.
    """
    rows: list[EventRow] = []
    jcs = chain_of(log) == FORMAT_3
    command_text = None if command is None else encode(command)
    previous = previous_hash
    for index, event in enumerate(events):
        seq = first_seq + index
        kind = event_tag(event)
        payload = encode(event)
        row_actor = actor if index == 0 else None
        row_command = command_text if index == 0 else None
        row_bot = bot if index == 0 else None
        if jcs:
            fields = _row_object(
                seq, kind, row_actor, row_command, payload, recorded_at, row_bot, _plain_decode
            )
            typed = command if index == 0 and command is not None else None
            kinds = (type(event),) if typed is None else (type(event), type(typed))
            canonical = row_bytes(fields, *kinds)
        else:
            canonical = canonical_bytes(
                seq=seq,
                type=kind,
                actor=row_actor,
                command=row_command,
                payload=payload,
                recorded_at=recorded_at,
                bot=row_bot,
            )
        digest = chain_hash(previous, canonical)
        rows.append(
            EventRow(
                seq=seq,
                type=kind,
                payload=payload,
                recorded_at=recorded_at,
                actor=row_actor,
                command=row_command,
                hash=digest,
                bot=row_bot,
            )
        )
        previous = digest
    return rows
