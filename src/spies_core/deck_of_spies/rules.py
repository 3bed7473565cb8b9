"""What happens in Deck of Spies: the setup (§2) and the events of each command, checked
against the rules (``start`` and ``decide``).

Section numbers (§) and interpretations (I-n) refer to ``docs/rules/deck-of-spies.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn, assert_never

from spies_core.batch import Batch
from spies_core.cards import ALL_CARDS, Card, is_ace, parse_card, pretty, suit, value
from spies_core.decider import Rng, Seat, shuffled
from spies_core.deck_of_spies.commands import Assassinate, Command, Counter, Recruit
from spies_core.deck_of_spies.events import (
    AceZone,
    CardsDrawn,
    CardsRetired,
    DeckOfSpiesEnded,
    DeckOfSpiesStarted,
    DiscardReshuffled,
    DrawDeckShuffled,
    Event,
    Result,
    SpyAssassinated,
    SpyCountered,
    SpyRecruited,
    SpyRevealed,
)
from spies_core.deck_of_spies.evolve import evolve, initial_state
from spies_core.deck_of_spies.legal import is_legal_counter, is_legal_recruit
from spies_core.deck_of_spies.options import Deal, DeckOfSpiesFlags, DeckOfSpiesOptions
from spies_core.deck_of_spies.piles import ace_of, cards_text, sorted_cards, total_value
from spies_core.deck_of_spies.state import (
    HAND_SIZE,
    WIN_FACES,
    Phase,
    State,
    owned_aces,
    owned_faces,
)
from spies_core.errors import (
    GameNotStartedError,
    GameOverError,
    InvalidOptionsError,
    NotYourTurnError,
    RuleError,
)

__all__ = ["decide", "start"]


# -- setup (§2) -------------------------------------------------------------------------


def start(options: DeckOfSpiesOptions, players: int, rng: Rng) -> list[Event]:
    """Lay out the table (§2) or the explicit deal, draw the hand and reveal the first spy.

    Raises:
        InvalidOptionsError: ``invalid-players`` for more than one seat, ``invalid-deal``
            for a deal that does not place each of the 52 cards exactly once.
    """
    if players != 1:
        raise InvalidOptionsError(
            f"deck-of-spies is a solo game: 1 player, not {players}", code="invalid-players"
        )
    if options.deal is None:
        first = _shuffled_setup(options.flags(), rng)
    else:
        first = _dealt_setup(options.flags(), options.deal)
    batch = _batch(initial_state())
    batch.emit(first)
    if options.deal is None or options.deal.hand is None:
        _refill(batch, rng)
    _next_spy(batch)
    return batch.events


def _shuffled_setup(flags: DeckOfSpiesFlags, rng: Rng) -> DeckOfSpiesStarted:
    """§2.1-2.3: four groups shuffled on their own; spies 5-7 on top of 8-10 on top of J-K."""

    def group(low: int, high: int) -> tuple[Card, ...]:
        return shuffled(rng, (c for c in ALL_CARDS if low <= value(c) <= high))

    spies = group(5, 7) + group(8, 10) + group(11, 13)
    draw = group(1, 4)
    return DeckOfSpiesStarted(
        flags=flags,
        spy_deck=spies,
        spy_deck_count=len(spies),
        draw_deck=draw,
        draw_deck_count=len(draw),
    )


def _dealt_setup(flags: DeckOfSpiesFlags, deal: Deal) -> DeckOfSpiesStarted:
    """Check an explicit deal: each of the 52 cards in exactly one zone."""
    zones = {
        "spies": deal.spies,
        "draw": deal.draw,
        "hand": deal.hand or (),
        "discard": deal.discard,
        "spy_discard": deal.spy_discard,
        "removed": deal.removed,
    }
    parsed: dict[str, tuple[Card, ...]] = {}
    seen: dict[Card, str] = {}
    for zone, texts in zones.items():
        cards = []
        for text in texts:
            try:
                c = parse_card(text)
            except RuleError as exc:
                raise InvalidOptionsError(
                    f"deal.{zone}: {exc.message}", code="invalid-deal"
                ) from None
            if c in seen:
                raise InvalidOptionsError(
                    f"deal: card {c!r} is in deal.{seen[c]} and again in deal.{zone}",
                    code="invalid-deal",
                )
            seen[c] = zone
            cards.append(c)
        parsed[zone] = tuple(cards)
    missing = [c for c in ALL_CARDS if c not in seen]
    if missing:
        raise InvalidOptionsError(
            f"deal: every one of the 52 cards must be in one zone; missing {', '.join(missing)}",
            code="invalid-deal",
        )
    if len(parsed["hand"]) > HAND_SIZE:
        raise InvalidOptionsError(
            f"deal.hand holds {len(parsed['hand'])} cards; at most {HAND_SIZE}", code="invalid-deal"
        )
    not_aces = [c for c in parsed["removed"] if not is_ace(c)]
    if not_aces:
        raise InvalidOptionsError(
            f"deal.removed may hold only Aces (§1.4), not {', '.join(not_aces)}",
            code="invalid-deal",
        )
    return DeckOfSpiesStarted(
        flags=flags,
        spy_deck=parsed["spies"],
        spy_deck_count=len(parsed["spies"]),
        draw_deck=parsed["draw"],
        draw_deck_count=len(parsed["draw"]),
        hand=sorted_cards(parsed["hand"]),
        hand_count=len(parsed["hand"]),
        draw_discard=sorted_cards(parsed["discard"]),
        spy_discard=sorted_cards(parsed["spy_discard"]),
        spy_discard_count=len(parsed["spy_discard"]),
        removed=sorted_cards(parsed["removed"]),
    )


# -- the shared steps of a turn ----------------------------------------------------------


def _batch(state: State) -> Batch[State, Event]:
    return Batch(state, evolve)


def _refill(batch: Batch[State, Event], rng: Rng) -> None:
    """§8.1: draw up to five; reshuffle the discard lazily, only when a card is needed (I-10)."""
    state = batch.state
    need = HAND_SIZE - len(state.hand)
    while need > 0:
        if not state.draw_deck:
            if not state.draw_discard:
                break  # I-9: draw what exists and play on with a smaller hand
            order = shuffled(rng, state.draw_discard)
            state = batch.emit(DiscardReshuffled(order=order, count=len(order)))
        taken = state.draw_deck[:need]
        # Sorted: the order the cards lay in the deck stays secret even once drawn.
        state = batch.emit(CardsDrawn(cards=sorted_cards(taken), count=len(taken)))
        need -= len(taken)


def _next_spy(batch: Batch[State, Event]) -> None:
    """§3.5 and §9: end after the last spy; otherwise reveal the next one (§3.1).

    A revealed spy that forces an assassination with no Ace left ends the game at once
    (§6.2, §9.3), so a game in play always has at least one legal command.
    """
    state = batch.state
    if not state.spy_deck:
        faces = owned_faces(state)
        result = Result.WON if faces >= WIN_FACES else Result.LOST
        batch.emit(DeckOfSpiesEnded(result=result, owned_faces=faces))
        return
    spy = state.spy_deck[0]
    state = batch.emit(SpyRevealed(spy=spy, turn=state.turn + 1))
    if total_value(state.hand) < value(spy) and not owned_aces(state):
        batch.emit(DeckOfSpiesEnded(result=Result.LOST_NO_ACE, owned_faces=owned_faces(state)))


# -- decide ------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, rng: Rng) -> list[Event]:
    """Check a command against the rules and return the events of the whole turn.

    A turn's events are: the action, the retire (if any), the refill with its lazy
    reshuffles, then the next spy or the end of the game.

    Raises:
        GameOverError: the game has ended.
        NotYourTurnError: any seat but 0.
        RuleError: the command breaks a rule; ``code`` names it (``unknown-card``,
            ``duplicate-card``, ``card-not-in-hand``, ``must-assassinate``,
            ``insufficient-value``, ``unnecessary-card``, ``wrong-suit``,
            ``retire-single-card``, ``retire-mixed-ranks``,
            ``assassination-not-allowed``, ``not-an-ace``, ``ace-not-available``).
    """
    if state.phase is Phase.OVER:
        spy_text = f" (spy {pretty(state.spy_deck[0])} was not stopped)" if state.spy_deck else ""
        raise GameOverError(
            f"the game is over ({state.result}){spy_text}; no more commands:"
            f" {_command_text(command)} refused"
        )
    if state.phase is not Phase.PLAYING:
        raise GameNotStartedError(
            f"the game has not started: {_command_text(command)} refused", code="not-started"
        )
    if seat != 0:
        raise NotYourTurnError(f"Deck of Spies is a solo game; seat {seat} does not play")
    spy = state.spy_deck[0]
    match command:
        case Counter(cards=cards, retire=retire) | Recruit(cards=cards, retire=retire):
            used, retired = _parse_move(state, spy, cards, retire)
            _require_enough_in_hand(state, spy, used)
            if isinstance(command, Counter):
                _check_counter(state.flags, used, spy)
                action: Event = SpyCountered(spy=spy, cards=sorted_cards(used))
            else:
                _check_recruit(state.flags, used, spy)
                ace = ace_of(spy)
                action = SpyRecruited(
                    spy=spy, cards=sorted_cards(used), double_agent=ace if ace in used else None
                )
            _check_retire(state.flags, retired, spy)
            batch = _batch(state)
            batch.emit(action)
            if retired:
                batch.emit(CardsRetired(cards=sorted_cards(retired), count=len(retired)))
        case Assassinate(ace=text):
            batch = _batch(state)
            _assassinate(batch, spy, text, rng)
        case _:
            assert_never(command)
    if batch.state.spy_deck:  # I-20: no refill after the last spy
        _refill(batch, rng)
    _next_spy(batch)
    return batch.events


def _command_text(command: Command) -> str:
    match command:
        case Counter(cards=cards, retire=retire) | Recruit(cards=cards, retire=retire):
            shown = ", ".join(repr(c) for c in (*cards, *retire)) or "no cards"
            return f"{command.__struct_config__.tag} with {shown}"
        case Assassinate(ace=ace):
            return f"assassinate with {ace!r}"
        case _:
            assert_never(command)


def _parse(text: str, spy: Card) -> Card:
    """:func:`spies_core.cards.parse_card`, its refusal naming the spy too (as all refusals do)."""
    try:
        return parse_card(text)
    except RuleError as exc:
        raise RuleError(f"{exc.message} (spy {pretty(spy)})", code=exc.code) from None


def _parse_move(
    state: State, spy: Card, cards: Sequence[str], retire: Sequence[str]
) -> tuple[list[Card], list[Card]]:
    used = [_parse(c, spy) for c in cards]
    retired = [_parse(c, spy) for c in retire]
    seen: set[Card] = set()
    for c in used + retired:
        if c in seen:
            where = "both used and retired" if c in used and c in retired else "given twice"
            raise RuleError(f"card {c!r} is {where} (spy {pretty(spy)})", code="duplicate-card")
        seen.add(c)
        if c not in state.hand:
            raise RuleError(
                f"card {c!r} is not in your hand ({cards_text(state.hand)}; spy {pretty(spy)})",
                code="card-not-in-hand",
            )
    if not used:
        raise RuleError(
            f"name the cards you use against the spy {pretty(spy)}", code="insufficient-value"
        )
    return used, retired


def _require_enough_in_hand(state: State, spy: Card, used: Sequence[Card]) -> None:
    """§3.2 / §6.1: with Σ(hand) < v the only move is to assassinate."""
    total = total_value(state.hand)
    if total < value(spy):
        raise RuleError(
            f"cannot use {', '.join(repr(c) for c in used)}: your hand"
            f" ({cards_text(state.hand)}) sums to {total}, less than the spy"
            f" {pretty(spy)}'s {value(spy)}: you must assassinate it (§3.2)",
            code="must-assassinate",
        )


def _check_counter(flags: DeckOfSpiesFlags, used: list[Card], spy: Card) -> None:
    if is_legal_counter(flags, used, spy):
        return
    _explain_value(flags, used, used, spy)


def _check_recruit(flags: DeckOfSpiesFlags, used: list[Card], spy: Card) -> None:
    if is_legal_recruit(flags, used, spy):
        return
    ace = ace_of(spy)
    spy_suit = suit(spy)
    if ace not in used:
        for c in used:
            if suit(c) != spy_suit:
                raise RuleError(
                    f"card {c!r} is not a {spy_suit.name.lower()[:-1]} and the double agent"
                    f" {ace!r} is not played: cannot recruit the spy {pretty(spy)} (§5.2)",
                    code="wrong-suit",
                )
        _explain_value(flags, used, used, spy)
    # The Ace alone (1 point) never reaches a spy's value: the spy would be that Ace.
    others = [c for c in used if c != ace] or used
    _explain_value(flags, used, others, spy, ace_exempt=ace)


def _explain_value(
    flags: DeckOfSpiesFlags,
    used: list[Card],
    tested: list[Card],
    spy: Card,
    ace_exempt: Card | None = None,
) -> NoReturn:
    """Raise the error that says why a set fails §4.2 (or §5.3 for the non-Ace cards)."""
    v = value(spy)
    total = total_value(used)
    if total < v:
        raise RuleError(
            f"cards {cards_text(used)} sum to {total}, less than the spy {pretty(spy)}'s {v}",
            code="insufficient-value",
        )
    base = total
    if ace_exempt is not None and not flags.ace_counts_in_necessity:
        base -= 1
    extra = min(tested, key=value)
    raise RuleError(
        f"card {extra!r} is not necessary: without it the cards still sum to"
        f" {base - value(extra)} ≥ {v} against the spy {pretty(spy)} (§4.2)",
        code="unnecessary-card",
    )


def _check_retire(flags: DeckOfSpiesFlags, retired: list[Card], spy: Card) -> None:
    """§7.1-7.2: no retire, or two or more cards of one value (I-6)."""
    if not retired:
        return
    by_value: dict[int, list[Card]] = {}
    for c in retired:
        by_value.setdefault(value(c), []).append(c)
    if len(by_value) > 1 and not flags.retire_multiple_ranks:
        raise RuleError(
            f"retire {cards_text(retired)} mixes values; one retire is one value (§7.2, I-6)"
            f" (spy {pretty(spy)})",
            code="retire-mixed-ranks",
        )
    for cards in by_value.values():
        if len(cards) < 2:
            raise RuleError(
                f"card {cards[0]!r} cannot be retired alone: retire two or more cards of"
                f" the same value (§7.1) (spy {pretty(spy)})",
                code="retire-single-card",
            )


def _assassinate(batch: Batch[State, Event], spy: Card, text: str, rng: Rng) -> None:
    """§6: only when forced; the chosen Ace leaves the game, the hand is discarded."""
    state = batch.state
    ace = _parse(text, spy)
    if not is_ace(ace):
        raise RuleError(
            f"card {ace!r} is not an Ace; only an Ace can be sacrificed to assassinate the spy"
            f" {pretty(spy)} (§6.3)",
            code="not-an-ace",
        )
    total = total_value(state.hand)
    if total >= value(spy):
        raise RuleError(
            f"cannot sacrifice {ace!r}: your hand ({cards_text(state.hand)}) sums to {total},"
            f" enough to counter the spy {pretty(spy)}: assassination is allowed only when"
            " forced (§3.2, I-4)",
            code="assassination-not-allowed",
        )
    if ace in state.hand:
        zone = AceZone.HAND
    elif ace in state.draw_deck:
        zone = AceZone.DRAW_DECK
    elif ace in state.draw_discard:
        zone = AceZone.DRAW_DISCARD
    else:
        where = "removed from the game" if ace in state.removed else "in the spy discard pile"
        raise RuleError(
            f"the Ace {ace!r} is {where}; choose an owned Ace ({cards_text(owned_aces(state))})"
            f" to assassinate the spy {pretty(spy)} (§6.2)",
            code="ace-not-available",
        )
    discarded = sorted_cards(c for c in state.hand if c != ace)
    state = batch.emit(SpyAssassinated(spy=spy, ace=ace, ace_zone=zone, discarded=discarded))
    if zone is AceZone.DRAW_DECK and state.draw_deck:
        order = shuffled(rng, state.draw_deck)
        batch.emit(DrawDeckShuffled(order=order, count=len(order)))
