"""Reads: summaries, the lobby, views, legal commands, replays, the log and exports.

Hidden information: a game in progress leaves only through ``spec.view`` and
:func:`spies_replay.redact_for`; once it is over, its log is public (it can be exported with
the revealed seed), so events are sent whole. No function here returns a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spies_api.problems.errors import InvalidParameterError, ReplaySeatHiddenError
from spies_api.problems.hints import SPECTATOR_LEGAL_NOTE, WAITING_NOTE
from spies_api.schemas import (
    EventsPage,
    GameList,
    GameSummary,
    LegalCommands,
    LegalForm,
    PublicSeat,
    from_record,
)
from spies_api.service.answers import outgoing, public_options
from spies_api.service.choices import compact
from spies_api.service.states import GameStates
from spies_core.registry import get_game
from spies_core.step import Table
from spies_core.step import view_at as versioned_view
from spies_replay.clocks import clock_view, to_ms
from spies_replay.codec import codec_for
from spies_replay.errors import GameNotFoundError, SeatNotFoundError
from spies_replay.meta import SeatState
from spies_replay.reading import clock_at, decode_rows, view_at
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import Clock, GameRecord, GameStatus, utc_now
from spies_replay.transfer import export_lines

__all__ = ["GameQueries", "public_seats", "seat_names"]


def seat_names(seats: Sequence[SeatState] | None) -> tuple[str | None, ...]:
    """Each seat's display name, by seat (a view's ``names``)."""
    return tuple(held.name for held in seats or ())


def public_seats(seats: Sequence[SeatState]) -> list[PublicSeat]:
    """The summary's ``seats``."""
    return [PublicSeat(seat=s.seat, type=s.type, name=s.name, bot=s.bot) for s in seats]


class GameQueries:
    """Everything that reads a game and changes nothing.

    Args:
        store: the replay log.
        states: the cached folded states.
        clock: where the time is read (the clocks' time left).
    """

    def __init__(self, store: EventStore, states: GameStates, clock: Clock = utc_now) -> None:
        self.store = store
        self.states = states
        self.clock = clock

    def summary_of(
        self, record: GameRecord, *, keep: bool, seats: list[SeatState] | None = None
    ) -> GameSummary:
        """The public summary of a game's record (its state read from the cache; ``seats``
        when the caller read them already)."""
        states = self.states
        finished = record.status == GameStatus.FINISHED
        to_act: list[int] = []
        clock = open_until = None
        if not finished:
            record, head = states.paired(record, keep=keep)  # a command landed: the newer pair
            finished = record.status == GameStatus.FINISHED
            clock = head.clock
            if not finished:
                to_act = sorted(get_game(record.game).to_act(head.state))
                open_until = head.open_until if head.waiting else None
        if seats is None:
            seats = self.store.seat_states(record.id, record.players)
        rematch_of, rematch = self.store.rematch_links(record.id)
        if finished:
            clock = clock_at(self.store, record.id)
        return from_record(
            GameSummary,
            record,
            seats=public_seats(seats),
            to_act=to_act,
            options=public_options(record.options, finished),
            seed_source=str(record.seed_source),
            rematch=rematch,
            rematch_of=rematch_of,
            clock=clock_view(clock, to_ms(self.clock())),
            open_until=open_until,
        )

    def version(self, game_id: str) -> int:
        """The game's version, from its record alone (nothing folded).

        Raises:
            GameNotFoundError: no such game.
        """
        return self.store.get_game(game_id).version

    def summary_version(self, game_id: str) -> tuple[int, str]:
        """What a summary depends on besides its game: the version and the rematch link
        (``""`` when none), from the record and the link alone (nothing folded).

        Raises:
            GameNotFoundError: no such game.
        """
        record = self.store.get_game(game_id)
        _, rematch = self.store.rematch_links(game_id)
        return record.version, rematch or ""

    def summary(self, game_id: str) -> GameSummary:
        """The public summary of a game.

        Raises:
            GameNotFoundError: no such game.
        """
        return self.summary_of(self.store.get_game(game_id), keep=True)

    def list_games(
        self,
        *,
        game: str | None,
        status: GameStatus | None,
        limit: int,
        offset: int,
        open_seats: bool | None = None,
        before: str | None = None,
    ) -> GameList:
        """A page of public summaries, newest first (listing does not fill the cache);
        ``open_seats=True`` lists the games in progress with an open seat (the lobby);
        ``before`` starts after that game (the previous page's ``next_before``).

        Raises:
            InvalidParameterError: ``before`` is not a game's id.
        """
        try:
            page = self.store.list_games(
                game=game,
                status=status,
                limit=limit,
                offset=offset,
                open_seats=open_seats,
                before=before,
            )
        except GameNotFoundError:
            raise InvalidParameterError(
                f"query parameter before: no game {before!r}; pass the next_before of the"
                " previous page"
            ) from None
        seats = self.store.seat_states_of([record.id for record in page.games])
        return GameList(
            games=[
                self.summary_of(record, keep=False, seats=seats.get(record.id))
                for record in page.games
            ],
            total=page.total,
            limit=page.limit,
            offset=page.offset,
            next_before=page.next_before,
        )

    def view(self, game_id: str, seat: int | None) -> Any:
        """The caller's view now, with ``version`` filled in.

        Raises:
            GameNotFoundError: no such game.
        """
        record, head = self.states.current(game_id)
        clock = clock_view(head.clock, to_ms(self.clock()))
        table = Table(record.players, record.options, seat_names(head.seats))
        return versioned_view(get_game(record.game), head.state, seat, head.version, clock, table)

    def legal(
        self, game_id: str, seat: int | None, form: LegalForm = LegalForm.FULL
    ) -> LegalCommands:
        """The commands ``seat`` may send now (none for a spectator or a seat not to act),
        each one by one, or in the ``compact`` form (:func:`~spies_api.service.choices.compact`).

        Raises:
            GameNotFoundError: no such game.
        """
        record, head = self.states.current(game_id)
        spec = get_game(record.game)
        commands: list[Any] = []
        if seat is not None and not head.finished:
            commands = list(spec.legal_commands(head.state, seat))
        note = None
        if head.finished:
            note = "the game is over"
        elif head.waiting:
            note = WAITING_NOTE
        elif seat is None:
            note = SPECTATOR_LEGAL_NOTE
        elif not commands:
            to_act = ", ".join(map(str, sorted(spec.to_act(head.state)))) or "none"
            note = f"seat {seat} may not act now; seats to act: {to_act}"
        if form == LegalForm.COMPACT:
            commands, choices = compact(commands)
            return LegalCommands(
                version=head.version, seat=seat, commands=commands, note=note, choices=choices
            )
        return LegalCommands(version=head.version, seat=seat, commands=commands, note=note)

    def replay(
        self, game_id: str, seat: int | None, seq: int, *, as_seat: int | None = None
    ) -> Any:
        """The view after event ``seq`` of the caller's ``seat``, or of ``as_seat`` when given.

        Any seat's view is public once the game is over (its whole log is); before, only
        the seat's own token shows it.

        Raises:
            GameNotFoundError: no such game.
            SeatNotFoundError: ``as_seat`` is not a seat of the game.
            ReplaySeatHiddenError: ``as_seat`` is not the caller's and the game is in progress.
            SeqOutOfRangeError: ``seq`` is not in ``0 .. version``.
        """
        if as_seat is not None and as_seat != seat:
            record = self.store.get_game(game_id)
            if not 0 <= as_seat < record.players:
                raise SeatNotFoundError(
                    f"game {game_id!r} has seats 0 to {record.players - 1};"
                    f" there is no seat {as_seat}"
                )
            if record.status != GameStatus.FINISHED:
                raise ReplaySeatHiddenError(
                    f"game {game_id!r} is in progress: seat {as_seat}'s view needs its token"
                    " until the end; omit `as` to replay as the token's seat or a spectator"
                )
            seat = as_seat
        return view_at(self.store, game_id, at=seq, seat=seat).view

    def events(self, game_id: str, seat: int | None, *, after: int, limit: int) -> EventsPage:
        """Up to ``limit`` events with ``seq > after``, as ``seat`` may see them.

        Raises:
            GameNotFoundError: no such game.
        """
        with self.store.reading():  # the status and the rows from one snapshot of the file
            record = self.store.get_game(game_id)
            rows = self.store.read_rows(game_id, after=after, limit=limit)
        finished = record.status == GameStatus.FINISHED
        spec = get_game(record.game)
        stored = decode_rows(codec_for(spec), rows)
        return EventsPage(
            events=outgoing(spec, seat, stored, finished=finished),
            next_after=stored[-1].seq if stored else after,
            version=record.version,
            status=record.status,
        )

    def export(self, game_id: str) -> bytes:
        """A finished game's log as ``spies-replay/1`` JSON Lines (what ``import`` reads).

        Raises:
            GameNotFoundError: no such game.
            GameNotFinishedError: the game is in progress.
        """
        return b"".join(export_lines(self.store, game_id))

    def record(self, game_id: str) -> GameRecord:
        """A game's record.

        Raises:
            GameNotFoundError: no such game.
        """
        return self.store.get_game(game_id)
