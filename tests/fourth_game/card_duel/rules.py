"""What happens in Card Duel: the deal and the events of each command, checked against the
rules (``start`` and ``decide``)."""

from __future__ import annotations

from typing import assert_never

from spies_core.batch import Batch
from spies_core.decider import Rng, Seat, shuffled
from spies_core.errors import GameNotStartedError, GameOverError, NotYourTurnError, RuleError
from tests.fourth_game.card_duel.commands import CardDuelBid, CardDuelPlayCard, Command
from tests.fourth_game.card_duel.events import (
    CardDuelBidMade,
    CardDuelBidsRevealed,
    CardDuelCardPlayed,
    CardDuelEnded,
    CardDuelRoundWon,
    CardDuelStarted,
    Event,
)
from tests.fourth_game.card_duel.evolve import evolve
from tests.fourth_game.card_duel.options import CARDS, CardDuelOptions, validate_deal
from tests.fourth_game.card_duel.state import ROUNDS, CardDuelPhase, State, to_act

__all__ = ["decide", "start"]


def start(options: CardDuelOptions, players: int, rng: Rng) -> list[Event]:
    """Deal six cards to each seat and set two aside (or lay out the explicit deal)."""
    if options.deal is not None:
        validate_deal(options.deal)
        hands, aside = options.deal.hands, options.deal.aside
    else:
        order = shuffled(rng, CARDS)
        hands, aside = (order[0:6], order[6:12]), order[12:]
    return [
        CardDuelStarted(
            hands=tuple(tuple(sorted(hand)) for hand in hands), aside=tuple(sorted(aside))
        )
    ]


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
    """The events ``command`` from ``seat`` causes.

    Raises:
        GameOverError, GameNotStartedError, NotYourTurnError; RuleError: ``invalid-bid``,
            ``not-bidding``, ``bidding-not-over``, ``card-not-in-hand``.
    """
    if state.phase is CardDuelPhase.OVER:
        raise GameOverError(f"the game is over (winners: seats {list(state.winners)})")
    if state.phase is CardDuelPhase.SETUP:
        raise GameNotStartedError(
            f"the game has not started: {command.__struct_config__.tag} refused",
            code="not-started",
        )
    if seat not in to_act(state):
        raise NotYourTurnError(f"seat {seat} may not act now; to act: {sorted(to_act(state))}")
    batch = Batch(state, evolve)
    match command:
        case CardDuelBid(rounds=rounds):
            if state.phase is not CardDuelPhase.BIDDING:
                raise RuleError("bid: the bids are made", code="not-bidding")
            if not 0 <= rounds <= ROUNDS:
                raise RuleError(f"bid {rounds}: bid 0 to {ROUNDS} rounds", code="invalid-bid")
            after = batch.emit(CardDuelBidMade(seat=seat, rounds=rounds))
            if None not in after.bids:
                batch.emit(CardDuelBidsRevealed(bids=tuple(b or 0 for b in after.bids)))
        case CardDuelPlayCard(card=card):
            if state.phase is not CardDuelPhase.PLAYING:
                raise RuleError(f"play_card {card}: bid first", code="bidding-not-over")
            if card not in state.hands[seat]:
                raise RuleError(
                    f"card {card} is not in your hand {list(state.hands[seat])}",
                    code="card-not-in-hand",
                )
            after = batch.emit(CardDuelCardPlayed(seat=seat, card=card))
            if len(after.trick) == 2:
                lead, answer = after.trick
                winner = after.leader if lead > answer else 1 - after.leader
                after = batch.emit(CardDuelRoundWon(round=after.round, winner=winner))
                if len(after.tricks) == ROUNDS:
                    _end(batch)
        case _:
            assert_never(command)
    return batch.events


def _end(batch: Batch[State, Event]) -> None:
    state = batch.state
    scores = tuple(
        won + (2 if bid == won else 0) for won, bid in zip(state.won, state.bids, strict=True)
    )
    best = max(scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    batch.emit(CardDuelEnded(scores=scores, winners=winners))
