"""Games with bot seats, played through the engine exactly as the server's bot runner plays
them (``spies_api.table.bots``): the lowest seat to act that a bot holds is asked with its
view at the game's version, its legal commands and its version's generator (``bot_stream(seed,
seat, version)`` today, ``bot_rng`` at version 1), and its command is submitted marked
``NAME@VERSION``. Seats a person holds play the first legal
command. Also: a hash-chain rewrite for forged exports."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from spies_api.game import create_game, submit_command
from spies_bots import BOTS, find_policy
from spies_core.registry import GAMES
from spies_core.step import view_at
from spies_replay.codec import canonical_bytes, chain_hash, genesis_hash
from spies_replay.formats import log_of, stored_log
from spies_replay.marks import BotPolicies, bot_mark
from spies_replay.meta import SeatHandedToBot, SeatState, SeatType
from spies_replay.reading import load_state
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord
from spies_replay.transfer import ExportedEvent, ExportHeader, export_format
from tests.support.seats import change_seat

REGISTERED = BotPolicies(lookup=find_policy)
"""The bots of this build, as the console layer hands them to verify."""

Mark = Callable[[str], str | None]


def current_mark(name: str) -> str | None:
    """The mark the server writes today."""
    return bot_mark(name, BOTS[name].version)


def play_with_bots(
    store: EventStore,
    game: str,
    bots: Sequence[str | None],
    *,
    seed: str | None = None,
    handed: Sequence[int] = (),
    mark: Mark = current_mark,
    person_moves: int | None = None,
    commands: int | None = None,
    version: int | None = None,
) -> str:
    """Play a game of ``game`` to its end (or ``commands`` commands); return its id.

    Args:
        store: where.
        game: a registered game.
        bots: per seat, the bot that holds it from creation, or ``None`` for a person.
        seed: a client seed (``None``: a server seed).
        handed: seats (persons) handed to bot ``random`` after setup, before any command.
        mark: the mark recorded with a bot's command (``None``: none).
        person_moves: after this many commands of the persons, hand their seats to
            ``random`` too (``None``: never).
        version: the version of every bot (``None``: each bot's current one), its policies
            and generator as this build keeps them; ``mark`` should name it.
    """
    seats = [
        SeatState(seat=seat) if bot is None else SeatState(seat=seat, type=SeatType.BOT, bot=bot)
        for seat, bot in enumerate(bots)
    ]
    created = create_game(store, game, len(bots), seed=seed, seats=seats)
    game_id, secret = created.record.id, created.secrets.seed
    for seat in handed:
        change_seat(
            store, game_id, lambda s, t, seat=seat: SeatHandedToBot(seat=seat, bot="random")
        )
    spec = GAMES[game]
    moves = played = 0
    while True:
        loaded = load_state(store, game_id)
        state, at = loaded.state, loaded.seq
        if spec.outcome(state) is not None or played == commands:
            return game_id
        played += 1
        holders = store.seat_states(game_id)
        seat = min(spec.to_act(state))
        legal = list(spec.legal_commands(state, seat))
        name = holders[seat].bot
        if name is None:
            if person_moves is not None and moves >= person_moves:
                change_seat(
                    store, game_id, lambda s, t, seat=seat: SeatHandedToBot(seat=seat, bot="random")
                )
                played -= 1
                continue
            command, marked = legal[0], None
            moves += 1
        else:
            view = view_at(spec, state, seat, at)
            bot = BOTS[name]
            kept = bot.at(bot.version if version is None else version)
            assert kept is not None, f"this build has no {name}@{version}"
            command = kept.policies[game](view, legal, kept.generator(secret, seat, at))
            marked = mark(name)
        submit_command(store, game_id, seat, command, state=state, version=at, bot=marked)


def rechain(
    record: GameRecord, rows: Sequence[EventRow], *, keep_marks: bool = True
) -> tuple[GameRecord, list[EventRow]]:
    """Renumber the rows and recompute every hash, the head and the header's ``updated_at``
    (the last row's time), as an attacker who knows the hash rule would;
    ``keep_marks=False`` also strips every bot mark. The chain is the log's own (its export's
    ``format``, or its ``game_created``'s ``log``)."""
    log = log_of(record, rows)
    previous = genesis_hash(record.id, log)
    fixed = []
    for seq, row in enumerate(rows, start=1):
        bot = row.bot if keep_marks else None
        digest = chain_hash(
            previous,
            canonical_bytes(
                seq=seq,
                type=row.type,
                actor=row.actor,
                command=row.command,
                payload=row.payload,
                recorded_at=row.recorded_at,
                bot=bot,
                log=log,
            ),
        )
        fixed.append(msgspec.structs.replace(row, seq=seq, hash=digest, bot=bot))
        previous = digest
    last = fixed[-1].recorded_at if fixed else record.updated_at
    head = msgspec.structs.replace(record, version=len(fixed), head_hash=previous, updated_at=last)
    return head, fixed


def edit_payload(rows: Sequence[EventRow], seq: int, **changes: object) -> list[EventRow]:
    """The rows with fields of the payload at ``seq`` changed (not rechained)."""
    row = rows[seq - 1]
    data = {**msgspec.json.decode(row.payload), **changes}
    edited = msgspec.structs.replace(row, payload=msgspec.json.encode(data).decode())
    return [*rows[: seq - 1], edited, *rows[seq:]]


def export_of(record: GameRecord, rows: Sequence[EventRow]) -> list[bytes]:
    """The export lines of a (possibly forged) record and rows, as ``export_lines`` writes
    them (an export's header keeps its ``format``)."""
    fields = msgspec.structs.asdict(record)
    fields.setdefault("format", export_format(record, stored_log(rows)))
    header = ExportHeader(**fields)
    lines = [msgspec.json.encode(header)]
    for row in rows:
        line = ExportedEvent(
            seq=row.seq,
            type=row.type,
            actor=row.actor,
            command=msgspec.Raw(b"null" if row.command is None else row.command.encode()),
            event=msgspec.Raw(row.payload.encode()),
            recorded_at=row.recorded_at,
            hash=row.hash,
            bot=row.bot,
        )
        lines.append(msgspec.json.encode(line))
    return lines
