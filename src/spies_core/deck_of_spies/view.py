"""What a viewer may see of Deck of Spies (§10.1, I-17), and the same rule per event.

The player (seat 0) sees the top spy, which spies are still to come (not their order), the
hand, the draw discard, the spy discard, the removed Aces and the *composition* of the draw
deck. A spectator sees the table but not the hand, the draw deck's composition, or cards
that left the hand face down (retired). No one sees the order of either deck while the game
is in play. Once the game is over, everything is shown.
"""

from __future__ import annotations

from random import Random

import msgspec

from spies_core.cards import Card, CardNotation, sort_key, value
from spies_core.decider import GameView, Seat
from spies_core.deck_of_spies.events import (
    CardsDrawn,
    CardsRetired,
    DeckOfSpiesStarted,
    DiscardReshuffled,
    DrawDeckShuffled,
    Event,
    Result,
)
from spies_core.deck_of_spies.options import DeckOfSpiesFlags
from spies_core.deck_of_spies.state import SPY_BANDS, Phase, State, owned_faces

__all__ = ["DeckOfSpiesView", "redact", "scramble", "view"]


class DeckOfSpiesView(GameView, frozen=True, kw_only=True, tag_field="game", tag="deck-of-spies"):
    """The table of Deck of Spies as one viewer may see it."""

    phase: Phase
    """``playing`` while spies remain, ``over`` once the game has ended (§9); ``setup``
    before the deal (``dealt: false``: a table waiting for its open seat). Before the deal
    only ``flags`` is meaningful; every pile is empty and every count 0."""
    turn: int
    """The turn in progress, 1 to 36: one spy per turn (§2.5); the last one once the game is
    over; 0 before the deal (``dealt: false``)."""
    flags: DeckOfSpiesFlags
    """The rule flags chosen at creation (§12)."""
    top_spy: CardNotation | None
    """The spy faced now (§3.1), e.g. ``"7H"``; ``null`` once the spy deck is empty."""
    spies_left: int
    """Cards in the spy deck, the top spy included: the turns still to play."""
    unseen_spies: tuple[CardNotation, ...]
    """The spies below the top, in canonical order: which are still to come, never in what
    order (§10.1, I-17)."""
    hand: tuple[CardNotation, ...] | None
    """The player's hand, sorted (at most 5 cards, §8.3); ``null`` for a spectator while the
    game is in play (it is shown to everyone once the game is over)."""
    hand_count: int
    """Cards in the hand, 0 to 5; public."""
    hand_total: int | None
    """Σ(hand): the sum of the hand's values (A = 1, J = 11, Q = 12, K = 13, §1.2). Below
    the top spy's value an assassination is forced (§3.2). ``null`` for a spectator while
    the game is in play."""
    draw_deck_count: int
    """Cards in the draw deck (face down)."""
    draw_deck_cards: tuple[CardNotation, ...] | None
    """The draw deck's composition in canonical order, never its order (§10.1): the player
    knows which owned cards are in it. ``null`` for a spectator while the game is in
    play."""
    draw_discard: tuple[CardNotation, ...]
    """The face-up draw discard pile, sorted: cards used in counters and recruits, recruited
    spies, and the hand emptied by an assassination (§4.3, §5.4, §6.5)."""
    spy_discard: tuple[CardNotation, ...]
    """The spy discard pile as this viewer saw it go there, sorted: countered and
    assassinated spies and retired cards (§4.3, §6.4, §7.1). The player sees all of it; a
    spectator does not see retired cards (they leave the hand face down), so
    ``spy_discard_count`` may be larger."""
    spy_discard_count: int
    """Cards in the spy discard pile, whoever may see them."""
    removed: tuple[CardNotation, ...]
    """The Aces removed from the game by assassinations (§6.3), at most 4; these suits have
    no double agent any more (§5.3)."""
    owned_faces: int | None
    """Face cards (J, Q, K) the player owns: in the hand, the draw deck and the draw discard
    (§1.5, §9.2). At least 7 of the 12 at the end wins. After a loss by §9.3, the count
    at that moment (I-14). ``null`` for a spectator while the game is in play."""
    to_act: tuple[int, ...]
    """``[0]`` while the game is in play (the player must act), ``[]`` once it is over."""
    result: Result | None
    """How the game ended (§9); ``null`` while it is in play."""


def _sorted(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=sort_key))


def view(state: State, seat: Seat | None) -> DeckOfSpiesView:
    """The table as ``seat`` (0, or ``None`` for a spectator) may see it."""
    full = seat == 0 or state.phase is Phase.OVER
    face_down = set(state.face_down)
    return DeckOfSpiesView(
        seat=seat,
        phase=state.phase,
        turn=state.turn,
        flags=state.flags,
        top_spy=state.spy_deck[0] if state.spy_deck else None,
        spies_left=len(state.spy_deck),
        unseen_spies=_sorted(state.spy_deck[1:]),
        hand=state.hand if full else None,
        hand_count=len(state.hand),
        hand_total=sum(value(c) for c in state.hand) if full else None,
        draw_deck_count=len(state.draw_deck),
        draw_deck_cards=_sorted(state.draw_deck) if full else None,
        draw_discard=state.draw_discard,
        spy_discard=state.spy_discard
        if full
        else tuple(c for c in state.spy_discard if c not in face_down),
        spy_discard_count=len(state.spy_discard),
        removed=state.removed,
        owned_faces=(state.final_owned_faces if state.phase is Phase.OVER else owned_faces(state))
        if full
        else None,
        to_act=(0,) if state.phase is Phase.PLAYING else (),
        result=state.result,
    )


def redact(event: Event, seat: Seat | None) -> Event | None:
    """The event as ``seat`` may see it during play: deck orders are always hidden; the
    hand's cards, retired cards and a dealt spy discard are hidden from spectators."""
    player = seat == 0
    match event:
        case DeckOfSpiesStarted():
            return msgspec.structs.replace(
                event,
                spy_deck=None,
                draw_deck=None,
                hand=event.hand if player else None,
                spy_discard=event.spy_discard if player else None,
            )
        case DiscardReshuffled() | DrawDeckShuffled():
            return msgspec.structs.replace(event, order=None)
        case CardsDrawn() | CardsRetired():
            return event if player else msgspec.structs.replace(event, cards=None)
        case _:
            return event


def scramble(state: State, seat: Seat | None, rng: Random) -> State:
    """A state that ``seat`` cannot tell apart from ``state``.

    The draw deck is reordered and the spies below the top are reordered within their
    value bands (the bands are public, §2.2). For a spectator the hand, the draw deck and
    the face-down part of the spy discard also exchange cards, sizes kept.
    """
    if state.phase is not Phase.PLAYING:
        return state
    rest = list(state.spy_deck[1:])
    for low, high in SPY_BANDS:
        slots = [i for i, c in enumerate(rest) if low <= value(c) <= high]
        cards = [rest[i] for i in slots]
        rng.shuffle(cards)
        for i, c in zip(slots, cards, strict=True):
            rest[i] = c
    spy_deck = state.spy_deck[:1] + tuple(rest)
    if seat == 0:
        draw = list(state.draw_deck)
        rng.shuffle(draw)
        return msgspec.structs.replace(state, spy_deck=spy_deck, draw_deck=tuple(draw))
    pool = list(state.hand + state.draw_deck + state.face_down)
    rng.shuffle(pool)
    hand_size, deck_size = len(state.hand), len(state.draw_deck)
    hand = _sorted(pool[:hand_size])
    draw_deck = tuple(pool[hand_size : hand_size + deck_size])
    face_down = _sorted(pool[hand_size + deck_size :])
    public_discard = [c for c in state.spy_discard if c not in set(state.face_down)]
    return msgspec.structs.replace(
        state,
        spy_deck=spy_deck,
        hand=hand,
        draw_deck=draw_deck,
        face_down=face_down,
        spy_discard=_sorted(public_discard + list(face_down)),
    )
