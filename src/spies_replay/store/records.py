"""The records of the replay log: what a store keeps and hands back, whatever its backend.

Every backend (:mod:`spies_replay.store.sqlite`, :mod:`spies_replay.store.postgres`) reads
and writes these, and the layers above (the engine, the API, the replay tool) see nothing
else of the store's rows. They carry the log as the store keeps it: rows of JSON text with
their sequence numbers, types and hashes, never a decoded event (the layers above decode
with :mod:`spies_replay.codec`). Nothing here imports a store, a driver or a game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Final, Literal

import msgspec

from spies_core.decider import Outcome
from spies_replay.meta import EntropyAdded, SeatState, SeedSource, mixed_seed

__all__ = [
    "Append",
    "Appended",
    "BackendName",
    "Clock",
    "EventRow",
    "GamePage",
    "GameRecord",
    "GameSecrets",
    "GameStatus",
    "HeadRow",
    "Heard",
    "KeptHeads",
    "IdempotencyRecord",
    "NewGame",
    "Reply",
    "SeatOwner",
    "Unheard",
    "hash_token",
    "utc_now",
    "SNAPSHOT_EVERY",
]

SNAPSHOT_EVERY: Final = 128
"""How often a store keeps a snapshot of a game's folded state unless told otherwise: every
this many events, so that loading a game folds at most about that many (``spies-api
--snapshot-every``)."""

BackendName = Literal["sqlite", "postgresql"]
"""The kind of database a store keeps its log in (what ``/readyz`` names)."""


class GameStatus(StrEnum):
    """Where a game stands."""

    ACTIVE = "active"
    """Commands are accepted; the seed is secret."""
    FINISHED = "finished"
    """``outcome(state)`` is set and the seed is revealed in the final event."""


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A game's row: its public summary (the seed is never part of it)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: GameStatus
    version: int
    """The seq of the last event (0 for none)."""
    head_hash: str
    """The hash of the last event: the whole log's fingerprint."""
    seed_commitment: str
    seed_source: SeedSource
    rng: str
    outcome: Outcome | None
    created_at: str
    updated_at: str


class EventRow(msgspec.Struct, frozen=True, kw_only=True):
    """One row of ``events`` as stored: the JSON texts undecoded (verify, export)."""

    seq: int
    type: str
    payload: str
    recorded_at: str
    actor: int | None
    command: str | None
    """The command that produced this row's batch, on the batch's first row only."""
    hash: str
    bot: str | None = None
    """The bot that chose that command, on the batch's first row only (``None``: a person)."""


class GamePage(msgspec.Struct, frozen=True, kw_only=True):
    """One page of :meth:`~spies_replay.store.protocols.GameIndex.list_games`, newest first."""

    games: list[GameRecord]
    total: int
    """How many games match the filters, over all pages."""
    limit: int
    offset: int
    next_before: str | None = None
    """The id to pass as ``before`` for the next page; ``None`` on the last page."""


class IdempotencyRecord(msgspec.Struct, frozen=True, kw_only=True):
    """The result kept for a command sent with an idempotency key."""

    game_id: str
    key: str
    request_fingerprint: str
    result: bytes
    """The command's result, byte for byte as its caller gave it (:attr:`Reply.result`)."""
    created_at: str


@dataclass(frozen=True, slots=True)
class GameSecrets:
    """What a game keeps apart from its log until the final event reveals it.

    Attributes:
        seed: the seed committed to and revealed (every shuffle is derived from it, or, in
            a ``mixed`` game, from :attr:`play_seed`).
        deal: the explicit ``options.deal`` the game was created with, or ``None``.
        entropy: a ``mixed`` game's contributions so far (read from its log, not stored
            here: the store keeps ``seed`` and ``deal``).
    """

    seed: bytes
    deal: Any = None
    entropy: tuple[EntropyAdded, ...] = ()

    @property
    def play_seed(self) -> bytes:
        """The seed the game draws from: :attr:`seed` mixed with the players' entropy
        (``spies-entropy/1``), or :attr:`seed` itself when nobody gave any."""
        return mixed_seed(self.seed, self.entropy) if self.entropy else self.seed


@dataclass(frozen=True, slots=True)
class Reply:
    """The result of a command sent with an idempotency key, kept with its append.

    Attributes:
        key: the client's key.
        fingerprint: the caller's digest of the request (to tell a retry from a reuse).
        result: the command's result as opaque bytes, computed by the caller before the
            append (what they hold is the caller's business; the store keeps them as
            UTF-8 text and hands them back unchanged in :attr:`IdempotencyRecord.result`).
    """

    key: str
    fingerprint: str
    result: bytes


@dataclass(frozen=True, slots=True)
class SeatOwner:
    """The player who owns a seat, written with the seat's token in the same transaction
    (a creation, a join, a claimed rematch seat): a seat change and its ownership commit or
    vanish together (:mod:`spies_replay.store.players` keeps the table, ``player_seats``).

    Attributes:
        player_id: the player.
        token_salt: what the seat's token is derived from with the player's token
            (:mod:`spies_api.service.players`); the token itself is never stored.
    """

    player_id: str
    token_salt: str


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game for :meth:`~spies_replay.store.protocols.EventLog.insert_game`: everything that
    is written when a game is created (or copied, or imported), in one transaction.

    Attributes:
        record: the game's row; its ``version`` and ``head_hash`` describe ``rows``.
        secrets: the seed and the explicit deal, kept apart from the log.
        rows: the first events, sealed (:func:`spies_replay.codec.seal`).
        token_hashes: by seat, the sha256 of the seat's token, ``None`` for a seat nobody
            holds a token of (open, a bot's).
        seats: each seat's holder.
        snapshots: folded states to keep, as ``(seq, state)``.
        rematch_of: the finished game this one is the rematch of (the link is written with
            it, and refused if that game has its rematch already).
        idempotency: a copied game's idempotency records.
        due_at: see :attr:`Append.due_at`.
        owners: by seat, the player who owns the seat (``owned_at`` is the game's
            ``created_at``).
        head: the game's compact head after ``rows`` (see :attr:`Append.head`), or
            ``None``: none is kept (a copy, an import: the first load folds the log).
    """

    record: GameRecord
    secrets: GameSecrets
    rows: Sequence[EventRow]
    token_hashes: Sequence[str | None] = ()
    seats: Sequence[SeatState] = ()
    snapshots: Sequence[tuple[int, object]] = ()
    rematch_of: str | None = None
    idempotency: Sequence[IdempotencyRecord] = ()
    due_at: str | None = None
    """When the server has work to do on the game (a bot to move), or ``None``."""
    owners: Mapping[int, SeatOwner] = field(default_factory=dict)
    head: str | None = None


@dataclass(frozen=True, slots=True)
class Append:
    """One batch for :meth:`~spies_replay.store.protocols.EventLog.append`: rows that follow a
    game's head, and what the store keeps with them in the same transaction.

    Attributes:
        game_id: the game.
        version: the game's version the rows follow; the append is refused unless the game
            is still there (the optimistic-concurrency check).
        head_hash: the hash of the event at ``version``, which the first row's hash chains
            from (:func:`spies_replay.codec.seal`).
        rows: the sealed rows, seqs ``version + 1`` on; empty for a command that caused no
            event (the version is still checked and ``reply`` kept).
        outcome: set when the rows end the game: the game becomes finished, and the store
            refuses every later batch with rows. (Which rows end a game is the caller's
            rule, checked where batches are sealed: :func:`spies_api.game.commands.check_batch`.)
        state: the folded state after the rows, kept as a snapshot when the append crosses a
            multiple of the store's ``snapshot_every``; ``None``: no snapshot. The store
            never looks inside it: it encodes it as JSON (msgspec) only when it keeps it.
        reply: the result to keep under an idempotency key.
        seat: the holder of a seat after the seat event in ``rows`` (kept in the store's
            table of seats).
        token_hash: the sha256 of a new token of ``seat`` (a join, a claimed rematch seat).
        due_at: when the server next has work to do on the game after the batch (RFC 3339
            UTC, as ``recorded_at``): now for a bot to move; ``None`` while the game waits on
            people. The caller computes it; the store keeps it in an index of due work
            (:meth:`~spies_replay.store.protocols.GameIndex.due_games`), so a scheduler reads
            only the games with work, and clears it when the batch finishes the game.
        owner: the player who owns ``seat`` from this batch on (a player's join, a claimed
            rematch seat of a player's seat), recorded with the seat's token; ``owned_at`` is
            the batch's time.
        head: the game's compact head after the rows, as text its caller encoded (the
            store never reads it): kept with the game, replacing the one before, so that a
            process that has no head of the game cached reads it in one row instead of
            folding the log (:meth:`~spies_replay.store.protocols.SnapshotCache.head_row`).
            ``None``: the game's kept head is left as it was, behind the game's version, and
            so unused. A cache: a reader trusts it only at the game's version and head hash.
    """

    game_id: str
    version: int
    head_hash: str
    rows: Sequence[EventRow]
    outcome: Outcome | None = None
    state: object = None
    reply: Reply | None = None
    seat: SeatState | None = None
    token_hash: str | None = None
    due_at: str | None = None
    owner: SeatOwner | None = None
    head: str | None = None

    @property
    def new_version(self) -> int:
        """The game's version after the append."""
        return self.rows[-1].seq if self.rows else self.version

    @property
    def new_head_hash(self) -> str:
        """The game's head hash after the append."""
        return self.rows[-1].hash if self.rows else self.head_hash


@dataclass(frozen=True, slots=True)
class HeadRow:
    """A game's row read with what a head is made of, in one read
    (:meth:`~spies_replay.store.protocols.SnapshotCache.head_row`).

    Attributes:
        record: the game's record.
        secrets: its seed and explicit deal (``None``: none stored).
        head: the compact head kept with the game (:attr:`Append.head`) when it was kept at
            the record's version, else ``None`` (none kept, or kept behind: a writer that
            kept none). Text as its writer gave it: the caller checks it.
    """

    record: GameRecord
    secrets: GameSecrets | None
    head: str | None


@dataclass(frozen=True, slots=True)
class KeptHeads:
    """A page of the compact heads kept with games not finished, newest first, with their
    seats' token hashes (:meth:`~spies_replay.store.protocols.SnapshotCache.kept_heads`):
    what a process that starts reads to hold the games in use without a read each.

    Attributes:
        rows: each game's row, secrets and kept head (its ``head`` never ``None``).
        tokens: by game id, the sha256 of each seat's token held, by seat (never a token).
    """

    rows: list[HeadRow]
    tokens: dict[str, dict[int, str]]

    @property
    def last(self) -> tuple[str, str] | None:
        """Where the next page starts: the last row's ``(created_at, id)``; ``None`` when
        the page is empty."""
        if not self.rows:
            return None
        record = self.rows[-1].record
        return record.created_at, record.id


Clock = Callable[[], str]
"""Where the server reads the time: a function giving now as :func:`utc_now` does (tests
give their own, to drive deadlines without waiting)."""


class Appended(msgspec.Struct, frozen=True, kw_only=True):
    """An append another process (or another store of the database) committed, as a store's
    watch tells of it: a wake-up, and what a process needs to keep in step without reading
    the store (the log stays the truth).

    Attributes:
        game_id: the game appended to.
        version: the game's version after the append, or ``None`` when the notice did not
            say (one sent by an older version of the engine): then nothing below is known.
        head_hash: the game's head hash after the append (``None`` when not told).
        due_at: the game's due mark after the append (:attr:`Append.due_at`; ``None``:
            nothing is due, or not told).
        finished: whether the game is over.
    """

    game_id: str
    version: int | None = None
    head_hash: str | None = None
    due_at: str | None = None
    finished: bool = False

    @property
    def told(self) -> bool:
        """Whether the notice told the game's version, head and due mark."""
        return self.version is not None


Heard = Callable[[Appended], None]
"""What a store's watch calls with each append another process commits."""

Unheard = Callable[[], None]
"""What a store's watch calls each time it starts listening where appends can go unheard
while it does not (PostgreSQL's ``LISTEN``: the first time, and again after its connection
was lost): any game may have changed meanwhile without a word."""


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds, e.g. ``2026-11-29T17:00:00.000000Z``."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def hash_token(token: str) -> str:
    """How a seat token is stored: its sha256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()
