"""Creating a game: validate, run ``start``, store it with its seat tokens; and the deal of a
game whose deal was deferred until its last open seat is taken.

Randomness (:mod:`spies_core.rng`, algorithm ``hmac-sha256-fisher-yates/1``): a game's seed
is 32 bytes from ``secrets.token_bytes(32)``, or, when the client gives a seed string, its
UTF-8 bytes (``seed_source = "client"``: reproducible). ``start`` draws from
``FairRng(seed, nonce=0)``; each command from ``FairRng(seed, nonce=version)``, ``version``
being the game's version before the command (the seq of its last event). The seed is kept in
the ``seeds`` table, its sha256 is published in ``game_created`` (seq 1), and it is revealed
in ``seed_revealed``, appended in the same transaction as the command that ends the game.

A creator who gives entropy (with a seed the server committed to before: ``POST
/commitments``) makes a ``mixed`` game: ``entropy_added`` follows ``game_created``, and the
game draws from :attr:`~spies_replay.store.records.GameSecrets.play_seed`, the committed
seed mixed with every player's contribution (``spies-entropy/1``); the committed seed is
the one revealed.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from spies_api.game.loading import Head, any_open
from spies_core.clock import ClockState, TimeControl
from spies_core.decider import AnySpec
from spies_core.errors import InvalidOptionsError
from spies_core.registry import get_game
from spies_core.rng import ALGORITHM, FairRng, seed_commitment
from spies_core.step import Step, setup
from spies_replay.clocks import (
    clocks_event,
    from_ms,
    start_clocks,
    stopped_clocks,
    to_ms,
)
from spies_replay.codec import FORMAT_3, deal_commitment, genesis_hash, seal, split_deal
from spies_replay.errors import (
    EntropyNotAcceptedError,
    GameExistsError,
)
from spies_replay.meta import (
    EntropyAdded,
    GameCreated,
    SeatClaimed,
    SeatState,
    SeatType,
    SeedRevealed,
    SeedSource,
)
from spies_replay.reading import Games, StoredEvent
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import (
    GameRecord,
    GameSecrets,
    GameStatus,
    NewGame,
    SeatOwner,
    hash_token,
    utc_now,
)

__all__ = [
    "CreatedGame",
    "create_game",
    "deal_events",
    "deferred_setup",
    "new_game_id",
    "seed_from_client",
]


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """What :func:`create_game` returns.

    Attributes:
        record: the game's record.
        tokens: the seat tokens in plain text, by seat (``None``: a seat with no token, open
            or a bot's); returned once, stored only hashed.
        state: the state after setup (the initial state while the deal is deferred).
        events: the stored events (``game_created`` and the setup events).
        seats: each seat's holder.
        secrets: the seed and the explicit deal (for a caller that keeps the head cached).
        clock: every seat's clock (stopped while the deal is deferred), or ``None``.
        deal_deferred: whether the game deals when its last open seat is taken.
        open_until: when its open seats expire (``None``: never).
    """

    record: GameRecord
    tokens: tuple[str | None, ...]
    state: Any
    events: list[StoredEvent]
    seats: tuple[SeatState, ...] = ()
    secrets: GameSecrets | None = None
    clock: ClockState | None = None
    deal_deferred: bool = False
    open_until: str | None = None

    @property
    def head(self) -> Head:
        """The new game's head."""
        assert self.secrets is not None
        return Head.of(
            self.record,
            self.state,
            self.secrets,
            self.seats,
            self.clock,
            deal_deferred=self.deal_deferred,
            open_until=self.open_until,
            log=FORMAT_3,
        )


def new_game_id() -> str:
    """A random, url-safe game id: 16 characters of ``[a-z2-7]`` (80 bits)."""
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()


def seed_from_client(seed: str) -> bytes:
    """The seed bytes of a client-given seed string: its UTF-8 encoding.

    Raises:
        InvalidOptionsError: an empty seed (code ``invalid-seed``).
    """
    if not seed:
        raise InvalidOptionsError("the seed must not be empty", code="invalid-seed")
    return seed.encode()


def create_game(
    store: EventStore,
    game: str,
    players: int | None = None,
    options: object = None,
    seed: str | None = None,
    *,
    game_id: str | None = None,
    seats: Sequence[SeatState] | None = None,
    tokens: Mapping[int, str] | None = None,
    owners: Mapping[int, SeatOwner] | None = None,
    rematch_of: str | None = None,
    clock: TimeControl | None = None,
    created_at: str | None = None,
    open_seat_ttl: float | None = None,
    games: Games | None = None,
    entropy: bytes | None = None,
    server_seed: bytes | None = None,
) -> CreatedGame:
    """Create a game: validate, run ``start``, and store it with its seat tokens.

    Args:
        store: the store.
        game: a registered game id, e.g. ``deck-of-spies``.
        players: the number of seats (default: the game's minimum).
        options: the raw options (a JSON object, or ``None`` for defaults).
        seed: a client-given seed string (UTF-8 bytes; recorded ``seed_source="client"``);
            ``None`` draws a secret one. With an explicit ``options.deal`` the game's
            ``seed_source`` is ``"deal"``, whoever chose the seed.
        game_id: an explicit id (tests, tools); default a random one.
        seats: each seat's holder, in seat order (default: every seat the creator's).
        tokens: the seats that get a token and those tokens (default: a new random token
            for each creator seat).
        owners: by seat, the player who owns a seat given a token (players), written with
            the game in its one transaction.
        rematch_of: the finished game this one is the rematch of: the link is written with
            the game, and each seat given a token is recorded as claimed (``seat_claimed``).
        clock: the game's time control (checked by the caller), or ``None``: the clocks of
            the seats to act start at creation (``clocks_updated``).
        created_at: the time to record (the server's clock); default now.
        open_seat_ttl: for a game with an open seat, how many seconds its open seats stay
            open (``game_created.open_until``); ``None``: for ever.
        games: the games ``game`` is looked up among (default: the registry).
        entropy: the creator's contribution (16 to 64 bytes, checked by the caller): a
            ``mixed`` game. Not with ``seed`` nor an explicit deal.
        server_seed: the seed the server committed to (``POST /commitments``) before it saw
            ``entropy``; default a new one.

    Returns:
        The record, the plain-text seat tokens (once), the state after setup, the events.

    Raises:
        UnknownGameError: ``game`` is not registered. Nothing is written.
        InvalidOptionsError: from :func:`spies_core.start_game`. Nothing is written.
        GameExistsError: an explicit ``game_id`` is taken.
        RematchExistsError: ``rematch_of`` already has its rematch. Nothing is written.
    """
    spec = get_game(game, games)
    added: tuple[EntropyAdded, ...] = ()
    if entropy is not None:
        if seed is not None:
            raise EntropyNotAcceptedError(
                "entropy goes into a seed the server committed to; a client seed is chosen"
                " by the client alone: give one or the other"
            )
        seed_bytes = secrets.token_bytes(32) if server_seed is None else server_seed
        source = SeedSource.MIXED
        added = (EntropyAdded(seat=None, entropy=entropy.hex()),)
    elif seed is None:
        seed_bytes, source = secrets.token_bytes(32), SeedSource.SERVER
    else:
        seed_bytes, source = seed_from_client(seed), SeedSource.CLIENT
    raw_options = {} if options is None else options
    play_seed = GameSecrets(seed=seed_bytes, entropy=added).play_seed
    started = setup(spec, players, raw_options, FairRng(play_seed, 0))
    if not isinstance(raw_options, dict):
        raise InvalidOptionsError(f"options must be a JSON object, not {raw_options!r}")
    public_options, deal = split_deal(msgspec.to_builtins(raw_options))
    if deal is not None and added:
        raise EntropyNotAcceptedError(
            "entropy decides a deal drawn from the seed; with options.deal the creator lays"
            " out the cards: give one or the other"
        )
    if deal is not None:  # the creator chose the cards, whoever chose the seed
        source = SeedSource.DEAL
    count = spec.min_players if players is None else players
    holders = [SeatState(seat=seat) for seat in range(count)] if seats is None else list(seats)
    if len(holders) != count or any(s.seat != i for i, s in enumerate(holders)):
        raise ValueError(f"seats must list seats 0 to {count - 1} in order, one each")
    # A table with an open seat deals when its last open seat is taken: until then nobody,
    # its creator included, sees a hand (and could create games until one it likes).
    deferred = any_open(holders)
    created_at = utc_now() if created_at is None else created_at
    open_until = None
    if deferred and open_seat_ttl is not None:
        open_until = from_ms(to_ms(created_at) + round(open_seat_ttl * 1000))
    created = GameCreated(
        game=spec.name,
        players=count,
        options=public_options,
        seed_commitment=seed_commitment(seed_bytes),
        seed_source=source,
        rng=ALGORITHM,
        created_at=created_at,
        deal_commitment=None if deal is None else deal_commitment(seed_bytes, deal, FORMAT_3),
        seats=None if seats is None else holders,
        rematch_of=rematch_of,
        clock=clock,
        deal_deferred=deferred,
        open_until=open_until,
        log=FORMAT_3,
    )
    if tokens is None:
        tokens = {s.seat: secrets.token_urlsafe(32) for s in holders if s.type == SeatType.CREATOR}
    claims = [SeatClaimed(seat=seat) for seat in sorted(tokens)] if rematch_of is not None else []
    game_secrets = GameSecrets(seed=seed_bytes, deal=deal, entropy=added)
    events: list[msgspec.Struct] = [created, *added]
    if deferred:
        state, outcome = spec.initial_state(), None
        clocks = None if clock is None else stopped_clocks(clock, count)
        events += claims
    else:
        state, outcome = started.state, started.outcome
        dealt, clocks = deal_events(spec, created, game_secrets, started, created_at, claims=claims)
        events += dealt
    plain = tuple(tokens.get(seat) for seat in range(count))
    for attempt in range(5):
        new_id = game_id or new_game_id()
        rows = seal(genesis_hash(new_id, FORMAT_3), 1, events, recorded_at=created_at, log=FORMAT_3)
        record = GameRecord(
            id=new_id,
            game=spec.name,
            players=count,
            options=public_options,
            status=GameStatus.FINISHED if outcome is not None else GameStatus.ACTIVE,
            version=rows[-1].seq,
            head_hash=rows[-1].hash,
            seed_commitment=seed_commitment(seed_bytes),
            seed_source=source,
            rng=ALGORITHM,
            outcome=outcome,
            created_at=created_at,
            updated_at=created_at,
        )
        snapshots = [(rows[-1].seq, state)] if len(rows) >= store.snapshot_every else []
        head = Head.of(
            record,
            state,
            game_secrets,
            holders,
            clocks,
            deal_deferred=deferred,
            open_until=open_until,
            log=FORMAT_3,
        )
        try:
            store.insert_game(
                NewGame(
                    record=record,
                    secrets=game_secrets,
                    rows=rows,
                    token_hashes=[None if token is None else hash_token(token) for token in plain],
                    seats=holders,
                    snapshots=snapshots,
                    rematch_of=rematch_of,
                    owners={} if owners is None else owners,
                    due_at=head.due_at(spec, created_at),
                    head=head.packed(),
                )
            )
        except GameExistsError:
            if game_id is not None or attempt == 4:
                raise
            continue
        stored = [
            StoredEvent(
                seq=row.seq,
                type=row.type,
                event=event,
                actor=None,
                recorded_at=row.recorded_at,
                hash=row.hash,
            )
            for row, event in zip(rows, events, strict=True)
        ]
        return CreatedGame(
            record=record,
            tokens=plain,
            state=state,
            events=stored,
            seats=tuple(holders),
            secrets=game_secrets,
            clock=clocks,
            deal_deferred=deferred,
            open_until=open_until,
        )
    raise AssertionError("unreachable")  # pragma: no cover


def deal_events(
    spec: AnySpec,
    created: GameCreated,
    secrets: GameSecrets,
    started: Step[Any, Any],
    at: str,
    *,
    claims: Sequence[SeatClaimed] = (),
) -> tuple[list[Any], ClockState | None]:
    """The events that deal a game at ``at`` (its setup, drawn by ``started``): the setup
    events, a rematch's ``claims``, then the clocks starting (``clocks_updated``), or
    ``seed_revealed`` when the setup already ends the game; and the clocks."""
    events: list[Any] = [*started.events, *claims]
    clocks = None
    if started.outcome is not None:
        events.append(SeedRevealed(seed=secrets.seed.hex(), deal=secrets.deal))
    elif created.clock is not None:
        clocks = start_clocks(created.clock, created.players, at, spec.to_act(started.state))
        events.append(clocks_event(clocks))
    return events, clocks


def deferred_setup(spec: AnySpec, created: GameCreated, secrets: GameSecrets) -> Step[Any, Any]:
    """The setup of a game whose deal was deferred, drawn exactly as at its creation:
    ``start`` with ``FairRng(seed, 0)`` on the logged options (and the explicit deal), the
    seed being the play seed (in a ``mixed`` game, mixed with every contribution).

    Raises:
        InvalidOptionsError: the logged options no longer start a game (a log this build
            cannot deal).
    """
    options = dict(created.options)
    if secrets.deal is not None:
        options["deal"] = secrets.deal
    return setup(spec, created.players, options, FairRng(secrets.play_seed, 0))
