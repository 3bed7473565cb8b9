"""The ``greedy`` bot of Spies & Lies: the best-looking command now, no look-ahead.

Everything is valued in steps of the Double Agent toward the enemy flag, a point on the
marker being worth a fraction of a step that grows with the day (10 points move it ``day``
steps, §7; :mod:`.board`). The bot reads the opponent as a guesser who knows what is public
(:mod:`.guesser`):

- it guesses the rank with the best chance times stake, the chance coming from the
  deployments consistent with the view (:mod:`.belief`), the stake being the points of a
  correct guess plus the activation it denies (§6, §9);
- it deploys the four soldiers whose activations are worth most once the chance that such a
  guesser finds them is paid for, averaged over the intel cards still to come (§5.1, §5.2);
- it marks its Sergeant the way that hides it best, and plays a deception token where the
  guess looks likely to miss, or when tokens would otherwise go unused (§10);
- it takes the Marshal's or Captain's option that leaves the Double Agent and the markers
  best (§9).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Final

from spies_bots.spies_and_lies.belief import Row, consistent_rows, pool, public_row
from spies_bots.spies_and_lies.board import (
    Board,
    activation_value,
    activation_values,
    forced_retreat,
)
from spies_bots.spies_and_lies.guesser import (
    deployment_scores,
    flag_variants,
    guess_scores,
    guesser_table,
    row_value,
)
from spies_core.spies_and_lies.commands import (
    ChooseCaptain,
    ChooseMarshal,
    Command,
    ConfirmIntel,
    Deceive,
    DeclineDeception,
    Deploy,
    Guess,
    MarkSergeant,
)
from spies_core.spies_and_lies.deployment import legal_deployments
from spies_core.spies_and_lies.options import DAYS
from spies_core.spies_and_lies.resolution import SOLDIER_POINTS
from spies_core.spies_and_lies.state import CAPTAIN, MISSIONS, SERGEANT, MarshalOption
from spies_core.spies_and_lies.view import SideView, SpiesAndLiesView

__all__ = [
    "choose",
    "decide",
    "defences_left",
    "deploy_candidates",
    "miss_chance",
]

_ALWAYS_DECEIVE: Final = 0.75
"""Chance of a miss from which a deception token is played even when tokens are scarce."""
_DEPLOY_SLACK: Final = 0.15
"""Deployments within this many steps of the best are drawn among, so the bot is not read."""
_DEPLOY_CHOICES: Final = 4


def _own(view: SpiesAndLiesView) -> SideView:
    assert view.side is not None
    return view.sides[view.side]


def _deploy_rows(view: SpiesAndLiesView, legal: Sequence[Deploy]) -> list[Row]:
    """A full deployment standing for each legal ``deploy`` command: itself with 2 seats;
    the best completion for a first teammate, the teammate's pair first for a second."""
    side = _own(view)
    if view.players == 2:
        return [command.soldiers for command in legal]
    first = side.missions[0].rank
    if first is not None and side.missions[1].rank is not None:
        pair = (first, side.missions[1].rank)
        return [pair + command.soldiers for command in legal]
    return []


def deploy_candidates(
    view: SpiesAndLiesView, legal: Sequence[Deploy]
) -> list[tuple[float, Deploy]]:
    """Every legal ``deploy`` command with its worth, best first."""
    rows = _deploy_rows(view, legal)
    if rows:
        scored = list(zip(deployment_scores(view, rows), legal, strict=True))
    else:  # a first teammate: a pair is worth its best completion
        side = _own(view)
        full = list(legal_deployments(pool(side.exhausted)))
        best: dict[tuple[int, ...], float] = {}
        for row, score in zip(full, deployment_scores(view, full), strict=True):
            best[row[:2]] = max(score, best.get(row[:2], score))
        scored = [(best.get(command.soldiers, 0.0), command) for command in legal]
    scored.sort(key=lambda item: (-item[0], item[1].soldiers))
    return scored


def _deploy(view: SpiesAndLiesView, legal: Sequence[Deploy], rng: Random) -> Deploy:
    scored = deploy_candidates(view, legal)
    top = scored[0][0]
    near = [command for score, command in scored[:_DEPLOY_CHOICES] if score >= top - _DEPLOY_SLACK]
    return near[rng.randrange(len(near))]


def _own_row(view: SpiesAndLiesView, rng: Random) -> Row:
    """The side's deployment; a first teammate draws its teammate's unseen soldiers."""
    side = _own(view)
    known, _ = public_row(side.missions, out=False, seen=True)
    if all(known):
        return known
    unknown = (-1,) * MISSIONS
    rows = consistent_rows(pool(side.exhausted), known, unknown, ())
    return rows[rng.randrange(len(rows))]


def _mark(view: SpiesAndLiesView, rng: Random) -> MarkSergeant:
    """Put the token on the Sergeant, or not, as hides the deployment best (§5.2.3)."""
    side = _own(view)
    card = view.current_intel or ()
    row = _own_row(view, rng)
    board = Board.of(view, _own_side(view))
    values = activation_values(board, side.exhausted)
    correct = round(Board.of(view, 1 - _own_side(view)).points(2), 2)
    table = guesser_table(pool(side.exhausted), card, values, correct)
    best = max(
        flag_variants(row, card),
        key=lambda flags: row_value(row, flags, table, values, correct),
    )
    return MarkSergeant(token=bool(best[row.index(SERGEANT)]))


def _own_side(view: SpiesAndLiesView) -> int:
    assert view.side is not None
    return view.side


def miss_chance(view: SpiesAndLiesView) -> float:
    """The chance that the coming guess misses the viewer's card under attack: half the
    guessers as :func:`.guesser.guess_scores`, half guessing in proportion to the chances."""
    assert view.mission is not None
    side = _own(view)
    rank = side.missions[view.mission - 1].rank
    scored = guess_scores(view)
    if rank is None or not scored:
        return 0.5
    chance = next((c for _, r, c in scored if r == rank), 0.0)
    return 1.0 - 0.5 * (scored[0][1] == rank) - 0.5 * chance


def defences_left(view: SpiesAndLiesView) -> int:
    """Guess-turns the viewer's side still defends in the game, this one included."""
    assert view.mission is not None
    return MISSIONS - view.mission + 1 + MISSIONS * (DAYS - view.day)


def _deceive(view: SpiesAndLiesView) -> bool:
    """Play a token where the guess likely misses, or when tokens would go unused (§10)."""
    side = _own(view)
    assert view.mission is not None
    rank = side.missions[view.mission - 1].rank
    attacker = view.sides[1 - _own_side(view)]
    forced = rank is not None and forced_retreat(rank, attacker.effects)
    if forced and not view.deception_pays_on_forced_retreat:
        return False
    miss = miss_chance(view)
    if side.deception_tokens >= defences_left(view):
        return miss > 0
    return miss >= _ALWAYS_DECEIVE


def _captain(view: SpiesAndLiesView, legal: Sequence[ChooseCaptain]) -> ChooseCaptain:
    side = _own(view)
    board = Board.of(view, _own_side(view))

    def worth(command: ChooseCaptain) -> float:
        if command.borrow is None:
            return board.points(SOLDIER_POINTS[CAPTAIN])
        return activation_value(command.borrow, board, side.exhausted)

    return max(legal, key=lambda command: (worth(command), command.borrow is None))


def _marshal(view: SpiesAndLiesView) -> ChooseMarshal:
    board = Board.of(view, _own_side(view))
    best = max(MarshalOption, key=lambda option: (board.marshal(option), option))
    return ChooseMarshal(option=best)


def decide(view: SpiesAndLiesView, legal: Sequence[Command], rng: Random) -> Command:
    """The greedy command for ``view``; may be outside ``legal`` only if the view is odd."""
    first = legal[0]
    match first:
        case Deploy():
            return _deploy(view, [c for c in legal if isinstance(c, Deploy)], rng)
        case MarkSergeant():
            return _mark(view, rng)
        case ConfirmIntel():
            return first
        case Deceive() | DeclineDeception():
            return Deceive() if _deceive(view) else DeclineDeception()
        case Guess():
            scored = guess_scores(view)
            return Guess(rank=scored[0][1]) if scored else first
        case ChooseMarshal():
            return _marshal(view)
        case ChooseCaptain():
            return _captain(view, [c for c in legal if isinstance(c, ChooseCaptain)])
    return first


def choose(view: Any, legal: Sequence[Any], rng: Random) -> Any:
    """The ``greedy`` policy: :func:`decide`, kept to ``legal``."""
    command = decide(view, legal, rng)
    return command if command in legal else legal[0]
