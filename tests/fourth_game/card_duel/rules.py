"""The Decider of Card Duel: ``start``, ``decide``, ``evolve``, ``legal_commands`` and
``outcome``, plus the conformance helper ``probe_commands``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, assert_never

from msgspec.structs import replace

from spies_core.batch import Batch
from spies_core.decider import Outcome, Rng, Seat, shuffled
from spies_core.errors import (
    CorruptLogError,
    GameNotStartedError,
    GameOverError,
    NotYourTurnError,
    RuleError,
)
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
from tests.fourth_game.card_duel.options import CARDS, CardDuelOptions, validate_deal
from tests.fourth_game.card_duel.state import ROUNDS, CardDuelPhase, State, to_act

__all__ = [
    "decide",
    "evolve",
    "initial_state",
    "legal_commands",
    "outcome",
    "players",
    "probe_commands",
    "start",
]

_BIDS: Final = tuple(CardDuelBid(rounds=n) for n in range(ROUNDS + 1))


def initial_state() -> State:
    """The empty table before the first event."""
    return State()


def players(state: State) -> int:
    """Always two seats."""
    return 2


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


def evolve(state: State, event: Event) -> State:
    """Apply a recorded fact."""
    match event:
        case CardDuelStarted(hands=hands, aside=aside):
            if aside is None or any(hand is None for hand in hands):
                raise CorruptLogError("a redacted deal cannot be applied")
            return replace(
                state,
                phase=CardDuelPhase.BIDDING,
                hands=tuple(hand for hand in hands if hand is not None),
                aside=aside,
                round=1,
            )
        case CardDuelBidMade(seat=seat, rounds=rounds):
            if rounds is None:
                raise CorruptLogError("a redacted bid cannot be applied")
            bids = tuple(rounds if s == seat else b for s, b in enumerate(state.bids))
            return replace(state, bids=bids)
        case CardDuelBidsRevealed(bids=bids):
            return replace(state, phase=CardDuelPhase.PLAYING, bids=bids, revealed=True)
        case CardDuelCardPlayed(seat=seat, card=card):
            hands = tuple(
                tuple(c for c in hand if c != card) if s == seat else hand
                for s, hand in enumerate(state.hands)
            )
            return replace(state, hands=hands, trick=(*state.trick, card))
        case CardDuelRoundWon(winner=winner):
            won = tuple(n + (s == winner) for s, n in enumerate(state.won))
            return replace(
                state,
                tricks=(*state.tricks, state.trick),
                trick=(),
                won=won,
                leader=winner,
                round=state.round + 1,
            )
        case CardDuelEnded(scores=scores, winners=winners):
            return replace(state, phase=CardDuelPhase.OVER, scores=scores, winners=winners)
        case _:
            assert_never(event)


def legal_commands(state: State, seat: Seat) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now."""
    if seat not in to_act(state):
        return []
    if state.phase is CardDuelPhase.BIDDING:
        return list(_BIDS)
    return [CardDuelPlayCard(card=card) for card in state.hands[seat]]


def outcome(state: State) -> Outcome | None:
    """The highest score wins; a tie shares the win."""
    if state.phase is not CardDuelPhase.OVER:
        return None
    return Outcome(winners=state.winners, reason="rounds-and-bids", scores=state.scores)


def probe_commands(state: State, seat: Seat) -> Iterator[Command]:
    """Every bid from -1 to one above the most rounds, and every card from 0 to 15."""
    yield from (CardDuelBid(rounds=n) for n in range(-1, ROUNDS + 2))
    yield from (CardDuelPlayCard(card=c) for c in range(16))
