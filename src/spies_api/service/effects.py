"""What a write of this process changes in the process besides the log.

After each append, seat change or creation, the process keeps its memory in step with the
log in one place: the game's cached head moves to its new version, the seat tokens handed
out are remembered as verified, and the game's listeners (its event streams, the bot
runner) are woken. The command handler, the seats and the creation call
:class:`WriteEffects` once their write is in the store; nothing here writes to the store.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spies_api.game import CreatedGame, Head, SeatChange
from spies_api.service.auth import SeatAuthenticator
from spies_api.service.notify import AppendListeners
from spies_api.service.states import GameStates
from spies_replay.store.records import Appended

__all__ = ["WriteEffects"]


@dataclass(frozen=True, slots=True)
class WriteEffects:
    """Keeps the process's caches in step with its writes, and wakes the listeners.

    Attributes:
        states: the cached heads of games.
        auth: the seat authenticator (remembers the tokens it hands out).
        listeners: what is called with the game's id after every write.
    """

    states: GameStates
    auth: SeatAuthenticator
    listeners: AppendListeners

    def command(self, head: Head) -> None:
        """A command was appended: ``head`` is the game's new head."""
        self.states.put(head)
        self.listeners(head.id)

    def seat_changed(self, game_id: str, change: SeatChange) -> None:
        """A seat event was appended: the cached head (the state is the same) moves on; a
        join that dealt the game changed its state, which the next read folds afresh."""
        head = self.states.cached(game_id)
        if change.dealt or (head is not None and head.version != change.version - 1):
            # a deal, or more than the seat event (a join's entropy: a new play seed)
            self.states.discard(game_id)
        elif head is not None:
            moved = replace(
                head, version=change.version, head_hash=change.head_hash, seats=tuple(change.seats)
            )
            self.states.put(moved)
        self.listeners(game_id)

    def created(self, created: CreatedGame) -> None:
        """A game was created (a rematch too): its tokens and head are kept."""
        record = created.record
        for seat, token in enumerate(created.tokens):
            if token is not None:
                self.auth.remember(record.id, seat, token)
        self.states.put(created.head)
        if created.head.clock is not None or any(s.bot is not None for s in created.seats):
            self.listeners(record.id)  # a bot may be the first to act, or a clock run out

    def remote(self, appended: Appended) -> None:
        """Another process appended to the game (a wake-up from the store, with the game's
        version, head and due mark after it): this process's cached head of it is stale."""
        self.states.stale(appended.game_id, appended.version)
        self.listeners.heard(appended)

    def unheard(self) -> None:
        """The store's watch (re)started listening: other processes' appends may have gone
        unheard before, so every cached head may be stale."""
        self.states.forget_all()

    def token(self, game_id: str, seat: int, token: str) -> None:
        """A seat's token was handed out (a join, a claimed rematch seat)."""
        self.auth.remember(game_id, seat, token)
