"""Deck of Spies for people: one line per event and a few lines per view (cards as 7♥)."""

from __future__ import annotations

from typing import Final, assert_never

from spies_core.cards import ALL_CARDS, RANKS, Card, Suit, card, is_face, pretty, value
from spies_core.deck_of_spies import events
from spies_core.deck_of_spies.state import SPY_BANDS, WIN_FACES
from spies_core.deck_of_spies.view import DeckOfSpiesView
from spies_core.reference import RuleReference

__all__ = ["REFERENCE", "describe_event", "render_view"]

REFERENCE: Final = RuleReference(
    refusals={
        "not-your-turn": "§3",
        "illegal-command": "§3",
        "card-not-in-hand": "§4.1",
        "duplicate-card": "§4.1",
        "insufficient-value": "§4.2",
        "unnecessary-card": "§4.2",
        "wrong-suit": "§5.2",
        "must-assassinate": "§3.2",
        "assassination-not-allowed": "§6.1",
        "not-an-ace": "§6.3",
        "ace-not-available": "§6.3",
        "retire-single-card": "§7.1",
        "retire-mixed-ranks": "§7.2",
    },
    endings={"owned-faces": "§9.2", "no-ace-left": "§9.3"},
    figures={
        "card_values": {rank: value(card(rank, Suit.CLUBS)) for rank in RANKS},
        "spies": sum(1 for c in ALL_CARDS if any(lo <= value(c) <= hi for lo, hi in SPY_BANDS)),
        "key_spies": sum(1 for c in ALL_CARDS if is_face(c)),
        "win_faces": WIN_FACES,
    },
)
"""Where each refusal and ending is explained; the figures: each rank's value (§1.2), the
spies of the spy deck (§2.1), the key spies, the face cards (§9.2), and how many of them
win (§9.2)."""


def _count(count: int, noun: str = "card") -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _cards(cards: tuple[Card, ...] | None, count: int | None = None) -> str:
    if cards is None:
        return f"{count} hidden card{'s' if count != 1 else ''}"
    return " ".join(pretty(c) for c in cards) or "-"


def describe_event(event: events.Event) -> str:  # noqa: C901 (one case per event)
    """One line describing the event, e.g. ``counter 3♥ 4♠ against 5♣``."""
    match event:
        case events.DeckOfSpiesStarted():
            flags = event.flags
            return (
                f"table laid out: {event.spy_deck_count} spies, draw deck of"
                f" {event.draw_deck_count} (strict_necessity={flags.strict_necessity},"
                f" ace_counts_in_necessity={flags.ace_counts_in_necessity},"
                f" retire_multiple_ranks={flags.retire_multiple_ranks})"
            )
        case events.SpyRevealed(spy=spy, turn=turn):
            return f"turn {turn}: spy {pretty(spy)}"
        case events.CardsDrawn(cards=cards, count=count):
            return f"drew {_cards(cards, count)}"
        case events.DiscardReshuffled(count=count):
            return f"draw discard ({_count(count)}) shuffled into a new draw deck"
        case events.DrawDeckShuffled(count=count):
            return f"draw deck ({_count(count)}) shuffled"
        case events.SpyCountered(spy=spy, cards=cards):
            return f"counter {_cards(cards)} against {pretty(spy)}"
        case events.SpyRecruited(spy=spy, cards=cards, double_agent=ace):
            agent = f" (double agent {pretty(ace)})" if ace else ""
            return f"recruit {pretty(spy)} with {_cards(cards)}{agent}"
        case events.CardsRetired(cards=cards, count=count):
            return f"retire {_cards(cards, count)}"
        case events.SpyAssassinated(spy=spy, ace=ace, ace_zone=zone, discarded=discarded):
            where = zone.value.replace("_", " ")
            return (
                f"assassinate {pretty(spy)} with {pretty(ace)} from the {where};"
                f" hand discarded: {_cards(discarded)}"
            )
        case events.DeckOfSpiesEnded(result=result, owned_faces=faces):
            return f"game over: {result.value} with {faces} owned face cards"
        case _:
            assert_never(event)


def render_view(view: DeckOfSpiesView) -> str:
    """The table as a few lines of text."""
    who = "player" if view.seat == 0 else "spectator"
    lines = [
        f"Deck of Spies, turn {view.turn}, {view.phase.value} (as {who}, version {view.version})",
        f"  spy:          {pretty(view.top_spy) if view.top_spy else '-'}"
        f"   ({view.spies_left} left; still to come, in a hidden order:"
        f" {_cards(view.unseen_spies)})",
        f"  hand:         {_cards(view.hand, view.hand_count)}"
        + (f"   (total {view.hand_total})" if view.hand_total is not None else ""),
        f"  draw deck:    {_count(view.draw_deck_count)}"
        + (f" ({_cards(view.draw_deck_cards)})" if view.draw_deck_cards is not None else ""),
        f"  draw discard: {_cards(view.draw_discard)}",
        f"  spy discard:  {_count(view.spy_discard_count)} ({_cards(view.spy_discard)})",
        f"  removed:      {_cards(view.removed)}",
    ]
    if view.owned_faces is not None:
        lines.append(f"  owned faces:  {view.owned_faces} of 12 (7 win)")
    if view.result is not None:
        lines.append(f"  result:       {view.result.value}")
    return "\n".join(lines)
