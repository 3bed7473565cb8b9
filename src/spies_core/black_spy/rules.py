"""What happens in Black Spy: the setup and the deals (§2), and the events of each command,
checked against the rules (``start`` and ``decide``).

Interpretations of spec §10 implemented here: the pass cycle and its 4-player order
(§10.1-10.4, :func:`pass_direction`), the simultaneous pass (§10.14: ``decide`` of the last
pass hands all passes over at once), the red 1 need not be led (§10.6), no breaking rule
(§10.7), the game end at ``>=`` threshold checked only after a deal's scoring (§10.11) and a
tied lowest total sharing the win (§10.12). The first dealer is drawn with
``rng.randrange(players)``, a uniform substitute for the card draw (§2.2, §10.13). The
card-level rules (following, trick winner, moon payout §10.9-10.10) are in
:mod:`spies_core.black_spy.scoring`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import assert_never

from spies_core.batch import Batch
from spies_core.black_spy.cards import (
    COLOUR_OF,
    DECK,
    FOLLOWERS,
    RED_1,
    Card,
    Colour,
    parse_card,
    sort_cards,
)
from spies_core.black_spy.commands import Command, PassCards, PlayCard
from spies_core.black_spy.events import (
    BlackSpyCardPlayed,
    BlackSpyCardsExchanged,
    BlackSpyCardsPassed,
    BlackSpyDealScored,
    BlackSpyDealt,
    BlackSpyGameEnded,
    BlackSpyStarted,
    BlackSpyTrickWon,
    Event,
    PassDirection,
)
from spies_core.black_spy.evolve import evolve, initial_state
from spies_core.black_spy.options import (
    BlackSpyFlags,
    BlackSpyOptions,
    good_spies,
    moon_applies,
    threshold,
    validate_options,
)
from spies_core.black_spy.scoring import score_deal, trick_points, trick_winner
from spies_core.black_spy.state import PASS_SIZE, Phase, State, piles
from spies_core.decider import Rng, Seat, shuffled
from spies_core.errors import (
    CorruptLogError,
    GameNotStartedError,
    GameOverError,
    NotYourTurnError,
    RuleError,
)
from spies_core.words import seat_list

__all__ = ["deal_cards", "decide", "pass_direction", "start"]

_BLACK = Colour.BLACK


def pass_direction(flags: BlackSpyFlags, players: int, deal: int) -> PassDirection:
    """The pass direction of deal number ``deal`` (1 for the first) (§3.3, §10.1-10.3).

    3, 5 or 6 players alternate left, right; 4 players cycle left, right, across (S0 and S1,
    not S4's left, across, right); there is never a hold deal. Classic: always left
    (Appendix A).
    """
    if flags.classic:
        return PassDirection.LEFT
    k = deal - 1
    if players == 4:
        return (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS)[k % 3]
    return (PassDirection.LEFT, PassDirection.RIGHT)[k % 2]


def deal_cards(order: Sequence[Card], dealer: Seat, players: int) -> tuple[tuple[Card, ...], ...]:
    """Deal ``order`` one card at a time, from the dealer's left clockwise (§2.3).

    Card ``i`` goes to seat ``(dealer + 1 + i) mod players``; hands come back sorted.
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, c in enumerate(order):
        hands[(dealer + 1 + i) % players].append(c)
    return tuple(sort_cards(hand) for hand in hands)


def _dealt(
    flags: BlackSpyFlags, players: int, deal: int, dealer: Seat, hands: tuple[tuple[Card, ...], ...]
) -> BlackSpyDealt:
    return BlackSpyDealt(
        deal=deal,
        dealer=dealer,
        direction=pass_direction(flags, players, deal),
        hand_size=len(DECK) // players,
        hands=hands,
    )


def start(options: BlackSpyOptions, players: int, rng: Rng) -> list[Event]:
    """The setup events: seats, flags and first dealer, then the first deal.

    Without ``options.deal`` the first dealer is ``rng.randrange(players)`` (§2.2, §10.13)
    and the deck is ``shuffled(rng, DECK)``, in that order.

    Raises:
        InvalidOptionsError: ``unsupported-variant`` (§8.2-8.6) or ``invalid-deal``.
    """
    fixed = validate_options(options, players)
    flags = options.flags()
    if options.deal is not None and fixed is not None:
        dealer = options.deal.dealer
        hands = fixed
    else:
        dealer = rng.randrange(players)
        hands = deal_cards(shuffled(rng, DECK), dealer, players)
    batch = _batch(initial_state())
    batch.emit(
        BlackSpyStarted(players=players, flags=flags, dealer=dealer, fixed_deal=fixed is not None)
    )
    batch.emit(_dealt(flags, players, 1, dealer, hands))
    return batch.events


# --- decide ---------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
    """The events ``command`` from ``seat`` causes; nothing is applied on an error.

    Raises:
        GameOverError: the game has ended.
        NotYourTurnError: the seat may not act now. During the pass the code says why:
            ``already-passed`` (a second pass) or ``passing-not-over`` (a play).
        RuleError: ``unknown-card``, ``card-not-in-hand``, ``wrong-pass-count``,
            ``passing-not-over``, ``black-lead-first-trick`` or ``must-follow``.
    """
    if state.phase is Phase.OVER:
        raise GameOverError(f"the game is over (winners: seats {list(state.winners)})")
    if state.phase is Phase.SETUP:
        raise GameNotStartedError(
            f"the game has not started: {command.__struct_config__.tag} refused",
            code="not-started",
        )
    if not 0 <= seat < state.players:
        raise NotYourTurnError(f"seat {seat} is not a seat of this {state.players}-player game")
    match command:
        case PlayCard():
            return _decide_play(state, seat, command.card, rng)
        case PassCards():
            return _decide_pass(state, seat, command.cards)
        case _:
            assert_never(command)


def _decide_pass(state: State, seat: Seat, raw: Sequence[str]) -> list[Event]:
    mine = state.passes[seat]
    if mine is not None:
        raise NotYourTurnError(
            f"cannot pass {list(raw)}: seat {seat} has already passed ({', '.join(mine)}) in"
            f" deal {state.deal}, and a pass is made once and never changed (§3.4)",
            code="already-passed",
        )
    cards = tuple(map(parse_card, raw))
    if len(cards) != PASS_SIZE:
        raise RuleError(
            f"pass exactly {PASS_SIZE} cards (§3.1), not {len(cards)}: {list(cards)}",
            code="wrong-pass-count",
        )
    hand = state.hands[seat]
    a, b, c = cards
    if not (a in hand and b in hand and c in hand and a != b != c != a):
        # Missing, or repeated: count how many of the card the hand holds (black 7s).
        for card, wanted in Counter(cards).items():
            held = hand.count(card)
            if held < wanted:
                detail = "" if held == 0 else f" {wanted} times (you hold {held})"
                raise RuleError(
                    f"card {card!r} is not in your hand{detail}: cannot pass {list(cards)}",
                    code="card-not-in-hand",
                )
    n = state.players
    offset = state.direction.offset
    cards = sort_cards(cards)
    batch = _batch(state)
    batch.emit(BlackSpyCardsPassed(seat=seat, to_seat=(seat + offset) % n, cards=cards))
    if state.passes.count(None) > 1:
        return batch.events  # others have yet to pass
    passes = tuple(cards if s == seat else p for s, p in enumerate(state.passes))
    received = tuple(passes[(s - offset) % n] for s in range(n))
    batch.emit(
        BlackSpyCardsExchanged(received=received, leader=_first_leader(state, passes, received))
    )
    return batch.events


def _first_leader(
    state: State,
    passes: Sequence[tuple[Card, ...] | None],
    received: Sequence[tuple[Card, ...] | None],
) -> Seat:
    """Who leads trick 1 (§4.1): the red 1's holder after the exchange; classic: the
    dealer's left (Appendix A)."""
    n = state.players
    if state.flags.classic:
        return (state.dealer + 1) % n
    for s in range(n):
        # The seat passing now still holds its pass in ``state.hands``.
        kept = RED_1 in state.hands[s] and RED_1 not in (passes[s] or ())
        if kept or RED_1 in (received[s] or ()):
            return s
    raise CorruptLogError("nobody holds the red 1")


def _decide_play(state: State, seat: Seat, raw: str, rng: Rng) -> list[Event]:
    if state.phase is Phase.PASSING:
        waiting = [s for s, p in enumerate(state.passes) if p is None]
        error = RuleError if seat in waiting else NotYourTurnError
        raise error(
            f"{raw!r} cannot be played yet: deal {state.deal} is still passing (§3),"
            f" waiting for {seat_list(waiting)}",
            code="passing-not-over",
        )
    if seat != state.turn:
        whose = "nobody's" if state.turn is None else f"seat {state.turn}'s"
        raise NotYourTurnError(
            f"{raw!r} cannot be played now: it is {whose} turn, not seat {seat}'s"
        )
    card = parse_card(raw)
    hand = state.hands[seat]
    if card not in hand:
        raise RuleError(f"card {card!r} is not in your hand", code="card-not-in-hand")
    trick = state.trick
    if trick:
        follow = FOLLOWERS[trick[0]]
        if card not in follow:
            able = [c for c in hand if c in follow]
            if able:
                raise RuleError(
                    f"{card!r} does not follow the led {trick[0]!r}: you hold cards of its"
                    f" colour or rank ({', '.join(dict.fromkeys(able))}) and must play one"
                    " (§5.2)",
                    code="must-follow",
                )
    elif (
        not state.tricks
        and COLOUR_OF[card] is _BLACK
        and any(COLOUR_OF[c] is not _BLACK for c in hand)
    ):
        raise RuleError(
            f"{card!r} cannot lead the first trick: it may not be led with a black card"
            " (§4.3); lead a card of another colour",
            code="black-lead-first-trick",
        )
    batch = _batch(state)
    batch.emit(BlackSpyCardPlayed(seat=seat, card=card))
    n = state.players
    if len(trick) + 1 < n:
        return batch.events
    _finish_trick(state, batch, trick + (card,), last=len(hand) == 1, rng=rng)
    return batch.events


def _batch(state: State) -> Batch[State, Event]:
    return Batch(state, evolve)


def _finish_trick(
    state: State, batch: Batch[State, Event], cards: tuple[Card, ...], *, last: bool, rng: Rng
) -> None:
    """The trick's winner (§5.4-5.6) and, after the last trick, the deal's scoring (§6),
    then the end check (§7.1) and either the game's end or the next deal (§2.4).

    ``state`` is the state before the command: the trick's cards are ``cards``."""
    n = state.players
    good = good_spies(state.flags)
    winner = (state.leader + trick_winner(cards)) % n
    batch.emit(
        BlackSpyTrickWon(
            trick=len(state.tricks) + 1,
            winner=winner,
            cards=cards,
            points=trick_points(cards, good_spies=good),
        )
    )
    if not last:
        return
    taken = list(piles(state))
    taken[winner] += cards
    scores, shooter = score_deal(taken, good_spies=good, moon=moon_applies(state.flags))
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    batch.emit(BlackSpyDealScored(deal=state.deal, scores=scores, totals=totals, moon=shooter))
    limit = threshold(state.flags, n)
    if max(totals) >= limit:
        low = min(totals)
        batch.emit(
            BlackSpyGameEnded(
                winners=tuple(s for s, t in enumerate(totals) if t == low),
                totals=totals,
                threshold=limit,
            )
        )
    else:
        dealer = (state.dealer + 1) % n
        hands = deal_cards(shuffled(rng, DECK), dealer, n)
        batch.emit(_dealt(state.flags, n, state.deal + 1, dealer, hands))
