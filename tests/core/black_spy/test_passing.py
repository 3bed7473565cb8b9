"""The simultaneous pass of every deal (§3): the direction cycle, the exchange, the first
leader after it (§4.1), and its secrecy (§3.4, §3.5, §10.14)."""

from __future__ import annotations

from random import Random

import msgspec
import pytest
from msgspec.structs import replace

from spies_core.black_spy.commands import PassCards, PlayCard
from spies_core.black_spy.events import (
    BlackSpyCardsExchanged,
    BlackSpyCardsPassed,
    BlackSpyDealt,
    PassDirection,
)
from spies_core.black_spy.state import Phase, State
from tests.core.black_spy.helpers import (
    SPEC,
    BlackSpy,
    cards,
    fixed_deal,
    random_playout,
    split_deck,
)

LEFT, RIGHT, ACROSS = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS
OFFSET = {LEFT: 1, RIGHT: -1, ACROSS: 2}

CYCLES = {
    3: [LEFT, RIGHT],
    4: [LEFT, RIGHT, ACROSS],
    5: [LEFT, RIGHT],
    6: [LEFT, RIGHT],
}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_pass_cycle_over_several_deals(players: int) -> None:
    """§3.3, §10.1-10.3: 3, 5, 6 players alternate left, right; 4 players cycle left,
    right, across; no hold deal. Each seat's three cards reach the seat the direction names
    (§2.1, §10.4: left = (i + 1) mod n), all at once (§3.4)."""
    checked = 0
    for seed in range(6):
        game = random_playout(players, seed)
        cycle = CYCLES[players]
        hands: tuple[tuple[str, ...] | None, ...] = ()
        passed: dict[int, tuple[str, ...]] = {}
        for event in game.events:
            if isinstance(event, BlackSpyDealt):
                assert event.direction == cycle[(event.deal - 1) % len(cycle)]
                direction = event.direction
                hands = event.hands
                passed = {}
            elif isinstance(event, BlackSpyCardsPassed):
                assert event.cards is not None
                assert event.to_seat == (event.seat + OFFSET[direction]) % players
                hand = hands[event.seat]
                assert hand is not None and all(c in hand for c in event.cards)
                passed[event.seat] = event.cards
            elif isinstance(event, BlackSpyCardsExchanged):
                assert len(passed) == players, "exchange before every seat passed"
                for seat in range(players):
                    sender = (seat - OFFSET[direction]) % players
                    assert event.received[seat] == passed[sender]
                checked += 1
        assert len(game.deals) >= 2
    assert checked >= 12


def test_classic_always_passes_left() -> None:
    """Appendix A: the 1981 rules pass left every deal."""
    for players in (3, 4, 5, 6):
        game = random_playout(players, seed=1, options={"classic": True})
        assert len(game.deals) >= 3
        assert {d.direction for d in game.deals} == {LEFT}


def test_any_three_cards_may_be_passed_including_black_7s_and_red_1() -> None:
    """§3.2: any three cards, e.g. two black 7s and the red 1; the receiver of the red 1
    leads the first trick (§4.1)."""
    hands = split_deck(3)  # seat 2 holds black 1-11 and all six black 7s
    hands[0], hands[2] = hands[2], hands[0]  # seat 0 now holds the black cards...
    hands[0].remove("black-7")
    hands[0].append("red-1")  # ...and the red 1 instead of one black 7
    hands[1].remove("red-1")
    hands[1].append("black-7")
    game = BlackSpy.start(3, fixed_deal(hands, dealer=2))
    assert "red-1" in game.state.hands[0]
    pass_cards = "black-7 black-7 red-1"
    events = game.pass_all({0: pass_cards})
    assert isinstance(events[-1], BlackSpyCardsExchanged)
    assert events[-1].received[1] == cards(pass_cards)
    assert events[-1].leader == 1  # seat 1 received the red 1
    assert game.state.turn == 1 and game.state.leader == 1
    assert "red-1" in game.state.hands[1]


def test_red_1_holder_leads_when_kept() -> None:
    """§4.1: the red 1's holder after the exchange leads trick 1; §4.2 it need not lead it."""
    game = BlackSpy.start(4, seed=7)
    holder = next(s for s in range(4) if "red-1" in game.state.hands[s])
    chosen = {s: " ".join([c for c in game.state.hands[s] if c != "red-1"][:3]) for s in range(4)}
    events = game.pass_all(chosen)
    exchanged = events[-1]
    assert isinstance(exchanged, BlackSpyCardsExchanged) and exchanged.leader == holder
    legal = {c.card for c in game.legal(holder) if isinstance(c, PlayCard)}
    assert "red-1" in legal and len(legal) > 1
    assert all(not c.startswith("black") for c in legal)  # §4.3


def test_received_cards_cannot_be_passed_on() -> None:
    """§3.4: nothing is received before every seat has passed, so a seat cannot pass on a
    card passed to it in the same deal."""
    game = BlackSpy.start(3, seed=4)
    given = tuple(c for c in game.state.hands[0] if c != "black-7")[:3]
    game.act(0, PassCards(cards=given))
    own = tuple(c for c in game.state.hands[1] if c != "black-7")[:2]
    refusal = game.refused(1, PassCards(cards=(given[0], *own)))
    assert refusal.code == "card-not-in-hand"
    assert given[0] in refusal.message


def test_pass_counts_and_hand_sizes_during_the_pass() -> None:
    """§3.1: three cards leave the hand when passed, and three arrive at the exchange."""
    game = BlackSpy.start(5, seed=1)
    game.act(3, PassCards(cards=game.state.hands[3][:3]))
    assert [len(h) for h in game.state.hands] == [12, 12, 12, 9, 12]
    assert SPEC.to_act(game.state) == frozenset({0, 1, 2, 4})
    pass_all_remaining(game)
    assert [len(h) for h in game.state.hands] == [12] * 5
    assert SPEC.to_act(game.state) == frozenset({game.state.leader})


def pass_all_remaining(game: BlackSpy) -> list[object]:
    """When every seat yet to pass passes its first three cards."""
    events: list[object] = []
    for seat in range(game.state.players):
        if game.state.passes[seat] is None:
            events += game.act(seat, PassCards(cards=game.state.hands[seat][:3]))
    return events


def test_passes_may_come_in_any_order() -> None:
    """§10.14: passing is simultaneous; the last pass, whoever makes it, hands all over."""
    for order in ([0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0]):
        game = BlackSpy.start(4, seed=9)
        dealt = game.state.hands
        for i, seat in enumerate(order):
            events = game.act(seat, PassCards(cards=game.state.hands[seat][-3:]))
            assert isinstance(events[0], BlackSpyCardsPassed)
            assert (len(events) == 2) == (i == 3)
        assert game.state.phase is Phase.PLAYING
        for seat in range(4):
            assert game.state.passes[seat] == dealt[seat][-3:]
            assert all(c in game.state.hands[(seat + 1) % 4] for c in dealt[seat][-3:])


# --- secrecy (§3.4, §3.5) -----------------------------------------------------------------


def random_pass(state: State, seat: int, rng: Random) -> PassCards:
    """A random legal pass of ``seat``."""
    command = rng.choice(SPEC.legal_commands(state, seat))
    assert isinstance(command, PassCards)
    return command


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_seat_sees_nothing_of_other_passes_until_all_have_passed(players: int) -> None:
    """§3.4, §3.5: whatever the other seats pass, a seat's view (and a spectator's) is the
    same until every seat has passed, before and after its own pass; the events it may see
    are the same too."""
    base = BlackSpy.start(players, seed=players).state
    rng = Random(players)
    for viewer in range(players):
        others = [s for s in range(players) if s != viewer]
        # Others pass first (all of them), then the viewer has passed and one other has not.
        for keep_one_open in (False, True):
            seen: set[bytes] = set()
            spectator: set[bytes] = set()
            redacted: set[str] = set()
            for _ in range(6):
                game = BlackSpy.at(base)
                if keep_one_open:
                    game.act(viewer, PassCards(cards=base.hands[viewer][:3]))
                log = []
                for seat in others[: len(others) - keep_one_open]:
                    events = game.act(seat, random_pass(game.state, seat, rng))
                    log += events
                assert game.state.phase is Phase.PASSING
                seen.add(view_json(game.state, viewer))
                spectator.add(view_json(game.state, None))
                redacted.add(repr([SPEC.redact(e, viewer) for e in log]))
            assert len(seen) == 1, f"seat {viewer} sees what others passed"
            assert len(spectator) == 1
            assert len(redacted) == 1


def view_json(state: State, viewer: int | None) -> bytes:
    """The view as JSON bytes (hashable)."""
    return msgspec.json.encode(SPEC.view(state, viewer))


def test_own_pass_is_visible_at_once_received_cards_only_after_the_exchange() -> None:
    """§3.4: the view shows the seat's own pass as soon as made, and what it received
    only once every seat has passed; nobody else sees either."""
    game = BlackSpy.start(3, seed=2)
    mine = game.state.hands[0][:3]
    game.act(0, PassCards(cards=mine))
    v = SPEC.view(game.state, 0)
    assert v.my_pass == mine and v.received is None and v.pass_to == 1 and v.pass_from == 2
    assert SPEC.view(game.state, 1).my_pass is None
    assert SPEC.view(game.state, None).my_pass is None
    game.act(1, PassCards(cards=game.state.hands[1][:3]))
    assert SPEC.view(game.state, 1).received is None
    from_2 = game.state.hands[2][:3]
    events = game.act(2, PassCards(cards=from_2))
    assert SPEC.view(game.state, 0).received == from_2
    assert SPEC.view(game.state, 1).received == mine
    assert SPEC.view(game.state, None).received is None
    exchange = events[-1]
    assert isinstance(exchange, BlackSpyCardsExchanged)
    assert SPEC.redact(exchange, 0) == replace(exchange, received=(from_2, None, None))
    assert SPEC.redact(exchange, None) == replace(exchange, received=(None, None, None))


def test_pass_event_is_hidden_from_everybody_but_the_passer() -> None:
    """§3.5: others (the receiver included) learn only that the seat has passed."""
    game = BlackSpy.start(4, seed=2)
    events = game.act(1, PassCards(cards=game.state.hands[1][:3]))
    (passed,) = events
    assert isinstance(passed, BlackSpyCardsPassed)
    assert SPEC.redact(passed, 1) == passed
    for viewer in (0, 2, 3, None):
        hidden = SPEC.redact(passed, viewer)
        assert isinstance(hidden, BlackSpyCardsPassed)
        assert hidden.cards is None and hidden.seat == 1 and hidden.to_seat == 2
