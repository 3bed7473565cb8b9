"""What an event does to a game of Deck of Spies: the initial state, ``evolve`` (which
trusts the log), and what a state says: its outcome (§9), a forfeit on time and its seats.

Section numbers (§) and interpretations (I-n) refer to ``docs/rules/deck-of-spies.md``.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from spies_core.cards import Card
from spies_core.decider import Outcome, Seat
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
from spies_core.deck_of_spies.options import DeckOfSpiesOptions
from spies_core.deck_of_spies.piles import sorted_cards, without
from spies_core.deck_of_spies.state import Phase, State, owned_faces
from spies_core.errors import CorruptLogError

__all__ = ["configured", "evolve", "forfeit", "initial_state", "outcome", "players"]


def initial_state() -> State:
    """The empty table before the first event."""
    return State()


def configured(players: int, options: DeckOfSpiesOptions) -> State:
    """The table before its deal: the flags are set; every card's zone is the deal's, so
    every pile is still empty (``players`` is always 1)."""
    return State(flags=options.flags())


def evolve(state: State, event: Event) -> State:  # noqa: C901 (one case per event)
    """Apply one recorded event. Trusts the event; raises only on an impossible sequence.

    Raises:
        CorruptLogError: the event cannot follow this state.
    """
    match event:
        case DeckOfSpiesStarted():
            if event.spy_deck is None or event.draw_deck is None or event.hand is None:
                raise CorruptLogError("cannot fold a redacted deck_of_spies_started event")
            return State(
                phase=Phase.PLAYING,
                flags=event.flags,
                spy_deck=event.spy_deck,
                draw_deck=event.draw_deck,
                hand=sorted_cards(event.hand),
                draw_discard=sorted_cards(event.draw_discard),
                spy_discard=sorted_cards(event.spy_discard or ()),
                face_down=sorted_cards(event.spy_discard or ()),
                removed=sorted_cards(event.removed),
            )
        case SpyRevealed(spy=spy, turn=turn):
            if not state.spy_deck or state.spy_deck[0] != spy:
                raise CorruptLogError(f"spy {spy!r} revealed but it is not on top of the spy deck")
            return replace(state, turn=turn)
        case CardsDrawn(cards=cards, count=count):
            taken = state.draw_deck[:count]
            if cards is not None and sorted(cards) != sorted(taken) or len(taken) != count:
                raise CorruptLogError(f"drawn cards {cards} are not the top of the draw deck")
            return replace(
                state, hand=sorted_cards(state.hand + taken), draw_deck=state.draw_deck[count:]
            )
        case DiscardReshuffled(order=order):
            if order is None or sorted(order) != sorted(state.draw_discard) or state.draw_deck:
                raise CorruptLogError("reshuffled cards are not the draw discard pile")
            return replace(state, draw_deck=tuple(order), draw_discard=())
        case DrawDeckShuffled(order=order):
            if order is None or sorted(order) != sorted(state.draw_deck):
                raise CorruptLogError("shuffled cards are not the draw deck")
            return replace(state, draw_deck=tuple(order))
        case SpyCountered(spy=spy, cards=cards):
            state = _pop_spy(state, spy)
            return replace(
                state,
                hand=without(state.hand, cards),
                draw_discard=sorted_cards(state.draw_discard + tuple(cards)),
                spy_discard=sorted_cards((*state.spy_discard, spy)),
            )
        case SpyRecruited(spy=spy, cards=cards):
            state = _pop_spy(state, spy)
            return replace(
                state,
                hand=without(state.hand, cards),
                draw_discard=sorted_cards((*state.draw_discard, *cards, spy)),
            )
        case CardsRetired(cards=cards):
            if cards is None:
                raise CorruptLogError("cannot fold a redacted cards_retired event")
            return replace(
                state,
                hand=without(state.hand, cards),
                spy_discard=sorted_cards(state.spy_discard + tuple(cards)),
                face_down=sorted_cards(state.face_down + tuple(cards)),
            )
        case SpyAssassinated(spy=spy, ace=ace, ace_zone=zone):
            state = _pop_spy(state, spy)
            hand = without(state.hand, (ace,))
            return replace(
                state,
                hand=(),
                draw_deck=without(state.draw_deck, (ace,))
                if zone is AceZone.DRAW_DECK
                else state.draw_deck,
                draw_discard=sorted_cards(
                    without(state.draw_discard, (ace,)) + hand
                    if zone is AceZone.DRAW_DISCARD
                    else state.draw_discard + hand
                ),
                spy_discard=sorted_cards((*state.spy_discard, spy)),
                removed=sorted_cards((*state.removed, ace)),
            )
        case DeckOfSpiesEnded(result=result, owned_faces=faces):
            return replace(state, phase=Phase.OVER, result=result, final_owned_faces=faces)
        case _:
            assert_never(event)


def _pop_spy(state: State, spy: Card) -> State:
    if not state.spy_deck or state.spy_deck[0] != spy:
        raise CorruptLogError(f"spy {spy!r} is not on top of the spy deck")
    return replace(state, spy_deck=state.spy_deck[1:])


def outcome(state: State) -> Outcome | None:
    """§9: won with at least 7 owned face cards; lost otherwise or with no Ace (I-14)."""
    if state.result is None:
        return None
    reason = "no-ace-left" if state.result is Result.LOST_NO_ACE else "owned-faces"
    winners = (0,) if state.result is Result.WON else ()
    return Outcome(winners=winners, reason=reason, scores=(state.final_owned_faces,))


def forfeit(state: State, seat: Seat) -> Outcome:
    """The player ran out of time with ``forfeit`` as its time control's rule: the game is
    lost."""
    del seat  # the only seat
    return Outcome(winners=(), reason="timeout", scores=(owned_faces(state),))


def players(state: State) -> int:
    """Always one seat."""
    return 1
