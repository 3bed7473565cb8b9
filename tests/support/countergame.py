"""A throw-away game for testing the replay log generically (never registered).

"counter": seats take turns; each turn a seat bumps a public counter by 1 to 3, draws the
top card of a hidden deck into its hidden hand, or reshuffles the deck. Every command ends
with ``counter_turn_passed``, so a command always appends at least two events. The first seat
to bring the counter to ``target`` wins. Chance: the deck is shuffled at start and on each
``shuffle`` command. Hidden: the deck order (from everyone) and each hand (from the others).
"""

from __future__ import annotations

from random import Random
from typing import assert_never

import msgspec
from msgspec.structs import replace

from spies_core.decider import GameSpec, GameView, Outcome, Rng, shuffled
from spies_core.errors import GameOverError, InvalidOptionsError, NotYourTurnError, RuleError


class CounterOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    target: int = 10
    deck_size: int = 6


class BaseCommand(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    pass


class Bump(BaseCommand, kw_only=True, tag="bump"):
    by: int


class Draw(BaseCommand, kw_only=True, tag="draw"):
    pass


class Shuffle(BaseCommand, kw_only=True, tag="shuffle"):
    pass


Command = Bump | Draw | Shuffle


class BaseEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class CounterStarted(BaseEvent, kw_only=True, tag="counter_started"):
    players: int
    target: int
    deck_size: int


class CounterDeckShuffled(BaseEvent, kw_only=True, tag="counter_deck_shuffled"):
    order: tuple[int, ...] | None


class CounterBumped(BaseEvent, kw_only=True, tag="counter_bumped"):
    seat: int
    by: int
    total: int


class CounterCardDrawn(BaseEvent, kw_only=True, tag="counter_card_drawn"):
    seat: int
    card: int | None


class CounterTurnPassed(BaseEvent, kw_only=True, tag="counter_turn_passed"):
    seat: int


class CounterWon(BaseEvent, kw_only=True, tag="counter_won"):
    seat: int


Event = (
    CounterStarted
    | CounterDeckShuffled
    | CounterBumped
    | CounterCardDrawn
    | CounterTurnPassed
    | CounterWon
)


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: int = 0
    target: int = 0
    total: int = 0
    turn: int = 0
    deck: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    winner: int | None = None


class CounterView(GameView, frozen=True, kw_only=True, tag_field="game", tag="counter"):
    total: int
    target: int
    turn: int
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    deck_size: int
    winner: int | None


def card_text(card: int) -> str:
    """Cards drawn for a person: 7 is ``7♥``."""
    return f"{card}♥"


def initial_state() -> State:
    return State()


def start(options: CounterOptions, players: int, rng: Rng) -> list[Event]:
    if not 1 <= options.target <= 1_000_000:
        raise InvalidOptionsError(f"target {options.target} is out of range")
    if not 1 <= options.deck_size <= 52:
        raise InvalidOptionsError(f"deck_size {options.deck_size} is out of range")
    order = shuffled(rng, range(1, options.deck_size + 1))
    return [
        CounterStarted(players=players, target=options.target, deck_size=options.deck_size),
        CounterDeckShuffled(order=order),
    ]


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    if state.winner is not None:
        raise GameOverError("the counter game is over")
    if seat != state.turn:
        raise NotYourTurnError(f"seat {seat} is not to act; seat {state.turn} is")
    passed = CounterTurnPassed(seat=seat)
    match command:
        case Bump(by=by):
            if not 1 <= by <= 3:
                raise RuleError(f"bump by {by}: must be 1 to 3", code="bad-bump")
            total = state.total + by
            events: list[Event] = [CounterBumped(seat=seat, by=by, total=total)]
            if total >= state.target:
                return [*events, CounterWon(seat=seat)]
            return [*events, passed]
        case Draw():
            if not state.deck:
                raise RuleError("the deck is empty", code="deck-empty")
            return [CounterCardDrawn(seat=seat, card=state.deck[0]), passed]
        case Shuffle():
            return [CounterDeckShuffled(order=shuffled(rng, state.deck)), passed]
        case _:
            assert_never(command)


def evolve(state: State, event: Event) -> State:
    match event:
        case CounterStarted():
            return State(
                players=event.players,
                target=event.target,
                hands=tuple(() for _ in range(event.players)),
            )
        case CounterDeckShuffled(order=order):
            assert order is not None
            return replace(state, deck=order)
        case CounterBumped(total=total):
            return replace(state, total=total)
        case CounterCardDrawn(seat=seat, card=card):
            assert card is not None
            hands = list(state.hands)
            hands[seat] = (*hands[seat], card)
            return replace(state, hands=tuple(hands), deck=state.deck[1:])
        case CounterTurnPassed(seat=seat):
            return replace(state, turn=(seat + 1) % state.players)
        case CounterWon(seat=seat):
            return replace(state, winner=seat)
        case _:
            assert_never(event)


def legal_commands(state: State, seat: int) -> list[Command]:
    if state.winner is not None or seat != state.turn:
        return []
    commands: list[Command] = [Bump(by=by) for by in (1, 2, 3)]
    if state.deck:
        commands.append(Draw())
    commands.append(Shuffle())
    return commands


def view(state: State, seat: int | None) -> CounterView:
    return CounterView(
        seat=seat,
        total=state.total,
        target=state.target,
        turn=state.turn,
        hand=None if seat is None else state.hands[seat],
        hand_sizes=tuple(len(hand) for hand in state.hands),
        deck_size=len(state.deck),
        winner=state.winner,
    )


def redact(event: Event, seat: int | None) -> Event | None:
    match event:
        case CounterDeckShuffled():
            return replace(event, order=None)
        case CounterCardDrawn() if event.seat != seat:
            return replace(event, card=None)
        case _:
            return event


def to_act(state: State) -> frozenset[int]:
    return frozenset() if state.winner is not None else frozenset({state.turn})


def outcome(state: State) -> Outcome | None:
    if state.winner is None:
        return None
    return Outcome(winners=(state.winner,), reason="target-reached")


def players(state: State) -> int:
    return state.players


def check_invariants(state: State) -> None:
    cards = [*state.deck, *(card for hand in state.hands for card in hand)]
    assert len(cards) == len(set(cards)), "a card is in two places"


def probe_commands(state: State, seat: int) -> list[Command]:
    return [Bump(by=0), Bump(by=4), *legal_commands(state, seat)]


def scramble(state: State, viewer: int | None, rng: Random) -> State:
    return replace(state, deck=shuffled(rng, state.deck))


def describe_event(event: Event) -> str:
    match event:
        case CounterStarted():
            return f"counter to {event.target} for {event.players}, {event.deck_size} cards"
        case CounterDeckShuffled(order=order):
            shown = "hidden" if order is None else " ".join(card_text(c) for c in order)
            return f"deck shuffled ({shown})"
        case CounterBumped():
            return f"seat {event.seat} bumps by {event.by} to {event.total}"
        case CounterCardDrawn(card=card):
            shown = "a card" if card is None else card_text(card)
            return f"seat {event.seat} draws {shown}"
        case CounterTurnPassed():
            return f"seat {event.seat} ends the turn"
        case CounterWon():
            return f"seat {event.seat} wins"
        case _:
            assert_never(event)


def render_view(view: CounterView) -> str:
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    lines = [
        f"counter {view.total}/{view.target}, seat {view.turn} to act ({who})",
        f"deck: {view.deck_size} cards; hands: {', '.join(map(str, view.hand_sizes))}",
    ]
    if view.hand is not None:
        lines.append("hand: " + (" ".join(card_text(c) for c in view.hand) or "empty"))
    if view.winner is not None:
        lines.append(f"seat {view.winner} won")
    return "\n".join(lines)


SPEC: GameSpec[State, Command, Event, CounterView, CounterOptions] = GameSpec(
    name="counter",
    title="Counter (test game)",
    seat_counts=frozenset({1, 2, 3}),
    max_events=100_000,
    options_type=CounterOptions,
    command_type=Command,
    event_type=Event,
    view_type=CounterView,
    state_type=State,
    initial_state=initial_state,
    start=start,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    view=view,
    redact=redact,
    to_act=to_act,
    outcome=outcome,
    players=players,
    check_invariants=check_invariants,
    probe_commands=probe_commands,
    scramble=scramble,
    describe_event=describe_event,
    render_view=render_view,
)

GAMES = {SPEC.name: SPEC}
