"""Views and redaction (§3.5, §5.9, §10.8): own hand, own pass, received cards after the
exchange, the current trick, completed tricks as public history, piles, scores, whose turn;
a spectator sees only public facts. Also the text rendering."""

from __future__ import annotations

from random import Random

import msgspec

from spies_core.black_spy.commands import PlayCard
from spies_core.black_spy.events import BlackSpyDealt, BlackSpyStarted, BlackSpyTrickWon
from spies_core.black_spy.state import Phase
from spies_core.black_spy.view import CompletedTrick, PlayedCard
from tests.core.black_spy.helpers import SPEC, BlackSpy, position, random_playout


def test_view_during_the_pass() -> None:
    """A seat sees its own hand only; everybody sees hand sizes and who has passed."""
    game = BlackSpy.start(4, seed=1)
    for seat in range(4):
        v = SPEC.view(game.state, seat)
        assert v.seat == seat and v.hand == game.state.hands[seat]
        assert v.phase is Phase.PASSING and v.to_act == (0, 1, 2, 3) and v.turn is None
        assert v.hand_sizes == (15, 15, 15, 15) and v.passed == (False,) * 4
        assert v.deal == 1 and v.pass_direction == "left" and v.threshold == 150
    spectator = SPEC.view(game.state, None)
    assert spectator.hand is None and spectator.my_pass is None and spectator.received is None
    assert spectator.pass_to is None and spectator.hand_sizes == (15,) * 4


def test_view_during_trick_play_shows_the_trick_history_piles_and_turn() -> None:
    """§5.9, §10.8: played cards are public: the current trick with seats in play order,
    completed tricks (winner, cards, points), pile sizes and points, totals, whose turn."""
    game = BlackSpy.start(3, seed=2)
    game.pass_all()
    leader = game.state.turn
    assert leader is not None
    first = game.legal(leader)[0]
    assert isinstance(first, PlayCard)
    game.play(leader, first.card)
    v = SPEC.view(game.state, None)
    assert v.trick == (PlayedCard(seat=leader, card=first.card),)
    assert v.trick_number == 1 and v.leader == leader and v.turn == (leader + 1) % 3
    assert v.to_act == ((leader + 1) % 3,)
    # Finish the trick with legal cards.
    events = []
    while game.state.trick:
        seat = game.state.turn
        assert seat is not None
        command = game.legal(seat)[0]
        assert isinstance(command, PlayCard)
        new = game.play(seat, command.card)
        events += new
    won = events[-1]
    assert isinstance(won, BlackSpyTrickWon)
    v = SPEC.view(game.state, 1)
    assert v.trick == () and v.trick_number == 2 and v.turn == won.winner
    assert v.tricks == (
        CompletedTrick(
            number=1,
            cards=tuple(PlayedCard(seat=(leader + i) % 3, card=c) for i, c in enumerate(won.cards)),
            winner=won.winner,
            points=won.points,
        ),
    )
    assert v.pile_sizes[won.winner] == 3 and sum(v.pile_sizes) == 3
    assert v.pile_points[won.winner] == won.points
    assert v.hand_sizes == (19, 19, 19)
    assert v.received is not None and v.my_pass is not None


def test_view_at_the_end() -> None:
    """The finished game shows the winners, totals and every deal's scores."""
    game = random_playout(4, seed=5)
    final = game.states[-1]
    v = SPEC.view(final, None)
    assert v.phase is Phase.OVER and v.to_act == () and v.turn is None
    assert v.winners == final.winners and v.totals == final.totals
    assert len(v.deal_scores) == len(game.scored)


def test_dealt_event_shows_a_seat_only_its_own_hand() -> None:
    """Hidden hands: a seat sees its own; a spectator none, but the hand size."""
    events = BlackSpy.start(5, seed=3).events
    started, dealt = events
    assert isinstance(started, BlackSpyStarted) and isinstance(dealt, BlackSpyDealt)
    assert SPEC.redact(started, None) == started
    for seat in range(5):
        mine = SPEC.redact(dealt, seat)
        assert isinstance(mine, BlackSpyDealt)
        assert mine.hands[seat] == dealt.hands[seat]
        assert all(h is None for s, h in enumerate(mine.hands) if s != seat)
    public = SPEC.redact(dealt, None)
    assert isinstance(public, BlackSpyDealt)
    assert public.hands == (None,) * 5 and public.hand_size == 12


def test_public_events_are_not_redacted() -> None:
    """Plays, tricks, scores and the end are public facts."""
    game = random_playout(3, seed=7)
    for event in game.events:
        if event.__struct_config__.tag in {
            "black_spy_card_played",
            "black_spy_trick_won",
            "black_spy_deal_scored",
            "black_spy_game_ended",
        }:
            for viewer in (0, 1, 2, None):
                assert SPEC.redact(event, viewer) == event


def test_redacted_events_never_carry_other_seats_cards() -> None:
    """Over a whole game, no redacted event holds a card of a hand, pass or received set
    that the viewer may not know: checked by the JSON of hidden fields."""
    game = random_playout(4, seed=9)
    for event in game.events:
        for viewer in (0, 1, 2, 3, None):
            redacted = SPEC.redact(event, viewer)
            assert redacted is not None
            raw = msgspec.to_builtins(redacted)
            for key in ("hands", "received"):
                if key in raw:
                    for seat, cards in enumerate(raw[key]):
                        assert cards is None or seat == viewer
            if raw["type"] == "black_spy_cards_passed":
                assert (raw["cards"] is None) == (viewer != raw["seat"])


def test_scramble_changes_hidden_cards_but_not_the_view() -> None:
    """The conformance contract: a scrambled state looks the same to the viewer."""
    game = BlackSpy.start(4, seed=4)
    rng = Random(0)
    for viewer in (0, 2, None):
        other = SPEC.scramble(game.state, viewer, rng)
        assert SPEC.view(other, viewer) == SPEC.view(game.state, viewer)
        assert other.hands != game.state.hands
        if viewer is not None:
            assert other.hands[viewer] == game.state.hands[viewer]
        SPEC.check_invariants(other)


def test_views_and_state_survive_json() -> None:
    """Views and states are plain JSON (the API serves views; the log snapshots states)."""
    game = random_playout(3, seed=1)
    for state in game.states[::25]:
        encoded = msgspec.json.encode(state)
        assert msgspec.json.decode(encoded, type=SPEC.state_type) == state
        for viewer in (0, 1, 2, None):
            v = SPEC.view(state, viewer)
            assert msgspec.json.decode(msgspec.json.encode(v), type=SPEC.view_type) == v
    assert msgspec.to_builtins(SPEC.view(game.states[0], 0))["game"] == "black-spy"


def test_text_describes_every_event_and_renders_views() -> None:
    """One line per event (redacted or not) and a few lines per view."""
    game = random_playout(4, seed=2)
    lines = {SPEC.describe_event(e) for e in game.events[:120]}
    assert any(line.startswith("Black Spy for 4 players") for line in lines)
    assert any("passed" in line and "(hidden)" not in line for line in lines)
    assert any(" won trick " in line for line in lines)
    redacted = SPEC.redact(game.events[2], None)
    assert redacted is not None
    assert "(hidden)" in SPEC.describe_event(redacted)
    assert "scored" in SPEC.describe_event(game.scored[0])
    assert "game over" in SPEC.describe_event(game.events[-1])
    for state in (game.states[0], game.states[10], game.states[-1]):
        for viewer in (0, None):
            text = SPEC.render_view(SPEC.view(state, viewer))
            assert text.startswith("Black Spy, 4 players")
    assert "hand:" in SPEC.render_view(SPEC.view(game.states[10], 0))


def test_scores_of_a_finished_trick_show_in_pile_points() -> None:
    """Pile points are the points of the tricks taken this deal (before any moon)."""
    game = BlackSpy.at(
        position(["black-7 blue-1", "black-7 blue-2", "green-7 blue-3", "black-5 blue-4"])
    )
    game.finish_trick(["black-7", "black-7", "green-7", "black-5"])
    v = SPEC.view(game.state, None)
    assert v.pile_points == (16, 0, 0, 0)
