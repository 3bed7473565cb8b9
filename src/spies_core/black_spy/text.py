"""Black Spy for people: one line per event, a few lines per view (terminal, replay tool)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, assert_never

from spies_core.black_spy import events
from spies_core.black_spy.cards import (
    DISTINCT_CARDS,
    RED_1,
    Card,
    Colour,
    card,
    is_good_spy,
    points,
    rank,
)
from spies_core.black_spy.state import PASS_SIZE
from spies_core.black_spy.view import BlackSpyView, PlayedCard
from spies_core.reference import RuleReference

__all__ = ["REFERENCE", "describe_event", "render_view"]

_GOOD_SPY: Final = next(c for c in DISTINCT_CARDS if is_good_spy(c))

REFERENCE: Final = RuleReference(
    refusals={
        "not-your-turn": "§5.1",
        "illegal-command": "§5.2",
        "card-not-in-hand": "§5.1",
        "wrong-pass-count": "§3.1",
        "already-passed": "§3.1",
        "passing-not-over": "§3.4",
        "must-follow": "§5.2",
        "black-lead-first-trick": "§4.3",
    },
    endings={"threshold-reached": "§7"},
    figures={
        "colours": tuple(colour.value for colour in Colour),
        "star_card": RED_1,
        "pass_size": PASS_SIZE,
        "spy_rank": rank(_GOOD_SPY),
        "black_spy_points": points(card(Colour.BLACK, rank(_GOOD_SPY)), good_spies=True),
        "good_spy_points": points(_GOOD_SPY, good_spies=True),
    },
)
"""Where each refusal and ending is explained; the figures: the colours in their order
(§1.1), the card whose holder leads first (§1.6), the cards a pass holds (§3.1), the spies'
rank and the points of a black and of a coloured spy (§6.2)."""


def _cards(cards: Sequence[Card] | None) -> str:
    return "(hidden)" if cards is None else " ".join(cards) or "-"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats)


def _scores(values: Sequence[int]) -> str:
    return " ".join(f"{v:+d}" for v in values)


def _rules(event: events.BlackSpyStarted) -> str:
    if event.flags.classic:
        return "classic 1981 rules"
    return "modern rules" + (", no good spies" if event.flags.no_good_spies else "")


def describe_event(event: events.Event) -> str:
    """One line of text, e.g. ``seat 2 won trick 3: red-4 red-9 black-4 (1 point)``."""
    match event:
        case events.BlackSpyStarted():
            how = "given" if event.fixed_deal else "drawn"
            return (
                f"Black Spy for {event.players} players, {_rules(event)};"
                f" first dealer seat {event.dealer} ({how})"
            )
        case events.BlackSpyDealt():
            mine = [f"seat {s}: {_cards(h)}" for s, h in enumerate(event.hands) if h is not None]
            shown = f"; {'; '.join(mine)}" if mine else ""
            return (
                f"deal {event.deal}: seat {event.dealer} dealt {event.hand_size} cards each,"
                f" pass {event.direction.value}{shown}"
            )
        case events.BlackSpyCardsPassed():
            return f"seat {event.seat} passed {_cards(event.cards)} to seat {event.to_seat}"
        case events.BlackSpyCardsExchanged():
            got = [f"seat {s} got {_cards(c)}" for s, c in enumerate(event.received) if c]
            shown = f" ({'; '.join(got)})" if got else ""
            return f"passes handed over{shown}; seat {event.leader} leads"
        case events.BlackSpyCardPlayed():
            return f"seat {event.seat} played {event.card}"
        case events.BlackSpyTrickWon():
            unit = "point" if abs(event.points) == 1 else "points"
            return (
                f"seat {event.winner} won trick {event.trick}: {_cards(event.cards)}"
                f" ({event.points} {unit})"
            )
        case events.BlackSpyDealScored():
            moon = "" if event.moon is None else f"; seat {event.moon} shot the moon"
            return (
                f"deal {event.deal} scored {_scores(event.scores)}{moon};"
                f" totals {' '.join(map(str, event.totals))}"
            )
        case events.BlackSpyGameEnded():
            return (
                f"game over at {event.threshold}: {_seats(event.winners)} won with"
                f" {min(event.totals)}; totals {' '.join(map(str, event.totals))}"
            )
        case _:
            assert_never(event)


def _trick(cards: Sequence[PlayedCard]) -> str:
    return " ".join(f"{p.card}({p.seat})" for p in cards) or "-"


def render_view(v: BlackSpyView) -> str:
    """A view as a few lines of text for a terminal."""
    who = "spectator" if v.seat is None else f"seat {v.seat}"
    lines = [
        f"Black Spy, {v.players} players, {who}: deal {v.deal}, dealer seat {v.dealer},"
        f" pass {v.pass_direction.value}, phase {v.phase.value}",
        "totals: "
        + "  ".join(f"{s}:{t}" for s, t in enumerate(v.totals))
        + f"  (game ends at {v.threshold})",
        "hands:  " + "  ".join(f"{s}:{k}" for s, k in enumerate(v.hand_sizes)),
        "piles:  "
        + "  ".join(
            f"{s}:{k} card{'' if k == 1 else 's'}/{p} pt{'' if p in (1, -1) else 's'}"
            for s, (k, p) in enumerate(zip(v.pile_sizes, v.pile_points, strict=True))
        ),
    ]
    if v.hand is not None:
        lines.append(f"hand: {_cards(v.hand)}")
    if v.my_pass is not None:
        lines.append(f"passed to seat {v.pass_to}: {_cards(v.my_pass)}")
    if v.received is not None:
        lines.append(f"received from seat {v.pass_from}: {_cards(v.received)}")
    if v.tricks:
        last = v.tricks[-1]
        lines.append(f"last trick {last.number}: {_trick(last.cards)}, won by seat {last.winner}")
    if v.trick_number:
        lines.append(f"trick {v.trick_number}: {_trick(v.trick)}")
    if v.winners:
        lines.append(f"game over: {_seats(v.winners)} won")
    elif v.to_act:
        lines.append(f"to act: {_seats(v.to_act)}")
    return "\n".join(lines)
