"""Copy every game from one store to another, whatever their backends, hashes intact.

An operator's tool (``spies-replay copy --from SRC --to DST``): unlike an export, a copy
moves games in progress too, with everything the store keeps for them: the record, every
event row as stored (so every hash and the head hash are the same), the seed and the secret
deal, the seat holders and the hashes of the seat tokens (players keep their tokens), the
idempotency records, the rematch links and the snapshots; the receipt signing keys; and the
players with the seats they own in the games the target then holds (token hashes and salts,
as stored: never a token; an export never carries them). Each game is read in one snapshot
of the source and written in one transaction of the target; the target's head hash is
compared with the source's. A game already in the target with the same head hash is
skipped, so an interrupted copy can be run again.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from spies_replay.errors import GameExistsError
from spies_replay.store.keyring import KeyDatabase, copy_keys
from spies_replay.store.players import CopiedPlayers, copy_players
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import GameSecrets, NewGame

__all__ = ["CopiedGame", "CopiedStore", "CopyOutcome", "copy_game", "copy_store"]


class CopyOutcome(StrEnum):
    """What happened to one game."""

    COPIED = "copied"
    ALREADY_THERE = "already-there"
    """The target has the game with the same head hash."""
    DIFFERENT = "different"
    """The target has a game with this id and another head hash (left alone)."""


class CopiedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a copy."""

    game_id: str
    outcome: CopyOutcome
    events: int
    head_hash: str


def copy_game(source: EventStore, target: EventStore, game_id: str) -> CopiedGame:
    """Copy one game (see the module); the target's head hash equals the source's.

    Raises:
        GameNotFoundError: the source has no such game.
    """
    with source.reading():
        record, rows, secrets = source.read_game(game_id)
        seats = source.seat_states(game_id, record.players)
        tokens = source.token_hashes(game_id)
        idempotency = source.idempotency_records(game_id)
        rematch_of, _ = source.rematch_links(game_id)
        snapshots = source.snapshots(game_id)
    try:
        target.insert_game(
            NewGame(
                record=record,
                secrets=GameSecrets(seed=b"") if secrets is None else secrets,
                rows=rows,
                token_hashes=[tokens.get(seat) for seat in range(record.players)],
                seats=seats,
                snapshots=[(seq, msgspec.Raw(state.encode())) for seq, state in snapshots],
                rematch_of=rematch_of,
                idempotency=idempotency,
            )
        )
    except GameExistsError:
        there = target.get_game(game_id).head_hash
        outcome = CopyOutcome.ALREADY_THERE if there == record.head_hash else CopyOutcome.DIFFERENT
        return CopiedGame(
            game_id=game_id, outcome=outcome, events=len(rows), head_hash=record.head_hash
        )
    copied = target.get_game(game_id).head_hash
    if copied != record.head_hash:  # pragma: no cover  (insert_game writes the rows as given)
        raise AssertionError(f"game {game_id!r}: head hash {copied} after copy")
    return CopiedGame(
        game_id=game_id, outcome=CopyOutcome.COPIED, events=len(rows), head_hash=copied
    )


class CopiedStore(msgspec.Struct, frozen=True, kw_only=True):
    """A whole copy: each game's outcome, and the players and owned seats it wrote."""

    games: list[CopiedGame]
    players: int = 0
    owned_seats: int = 0


def copy_store(source: EventStore, target: EventStore) -> CopiedStore:
    """Copy every game of ``source`` into ``target``, in creation order, the receipt
    signing keys the target lacks (:func:`~spies_replay.store.keyring.copy_keys`), and the
    players with their seats of the games the target now holds with the source's head
    (:func:`~spies_replay.store.players.copy_players`; a seat of a different game of the
    same id is left out, as that game is)."""
    if isinstance(source, KeyDatabase) and isinstance(target, KeyDatabase):
        copy_keys(source, target)  # receipts: their keys move with the games
    games = [copy_game(source, target, game_id) for game_id in source.game_ids()]
    players = CopiedPlayers(0, 0)
    if isinstance(source, KeyDatabase) and isinstance(target, KeyDatabase):
        held = [game.game_id for game in games if game.outcome is not CopyOutcome.DIFFERENT]
        players = copy_players(source, target, held)
    return CopiedStore(games=games, players=players.players, owned_seats=players.seats)
