"""The ``greedy`` bot of Spies & Lies: the best-looking command now, no look-ahead.

Everything is valued in steps of the Double Agent toward the enemy flag, a point on the
marker being worth a fraction of a step that grows with the day (10 points move it ``day``
steps, §7). The bot reads the opponent as a guesser who knows what is public:

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
from functools import lru_cache
from random import Random
from typing import Any, Final

from spies_bots.spies_and_lies.belief import (
    Row,
    consistent_rows,
    intel_left,
    marginal,
    pool,
    public_row,
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
from spies_core.spies_and_lies.options import DAYS, ReserveRule
from spies_core.spies_and_lies.resolution import DECEPTION_BONUS, MARSHAL_SABOTAGE, SOLDIER_POINTS
from spies_core.spies_and_lies.state import (
    ALL_RANKS,
    BOMB,
    CAPTAIN,
    COLONEL,
    GENERAL,
    INFILTRATION_AT,
    LIEUTENANT,
    MARSHAL,
    MAX_DECEPTION_TOKENS,
    MINER,
    MISSIONS,
    SCOUT,
    SERGEANT,
    SPY,
    MarshalOption,
    SoldierEffect,
)
from spies_core.spies_and_lies.view import SideView, SpiesAndLiesView

__all__ = [
    "Board",
    "activation_value",
    "choose",
    "guess_scores",
    "point_value",
]

CAPTURE: Final = 10.0
"""The value of taking the enemy flag, in steps: more than any position short of it."""
_EFFECT_POINTS: Final = {SPY: 0.5, SCOUT: 1.5, MINER: 0.5}
"""Rough worth, in points, of a round effect (§9) beyond its points."""
_BOMB_STEPS: Final = 0.3
"""Rough worth of the Bomb's effect: the next enemy card retreats (§9)."""
_TOKEN_POINTS: Final = 2.0
"""Rough worth of a deception token held: +4 when the guess misses, about half the time."""
_ALWAYS_DECEIVE: Final = 0.75
"""Chance of a miss from which a deception token is played even when tokens are scarce."""
_DEPLOY_SLACK: Final = 0.15
"""Deployments within this many steps of the best are drawn among, so the bot is not read."""
_DEPLOY_CHOICES: Final = 4


def point_value(day: int) -> float:
    """What one point on the marker is worth in steps on ``day`` (0.2, 0.25, 0.3)."""
    return 0.15 + 0.05 * min(day, DAYS)


class Board:
    """The public numbers of the game from one side's point of view, and a rough model of
    how points and moves change them (§7, §8), for valuing options."""

    __slots__ = ("day", "gate", "position", "rival", "tokens", "tower")

    def __init__(self, day: int, gate: int, position: int, tower: int, rival: int, tokens: int):
        self.day = day
        self.gate = gate
        self.position = position
        """The Double Agent toward the side's enemy flag."""
        self.tower = tower
        self.rival = rival
        self.tokens = tokens
        """Deception tokens held, or the most one may hold when no token can be gained."""

    @classmethod
    def of(cls, view: SpiesAndLiesView, side: int) -> Board:
        """The board as ``side`` sees it in ``view``."""
        position = view.double_agent if side == 0 else -view.double_agent
        ours, theirs = view.sides[side], view.sides[1 - side]
        tokens = ours.deception_tokens
        per_side = view.deception_reserve_rule is ReserveRule.PER_SIDE
        if not view.deception_reserve_left or (per_side and ours.reserve_taken):
            tokens = MAX_DECEPTION_TOKENS  # a Spy would gain no token ([I-9], [U-6])
        return cls(view.day, view.board_length, position, ours.tower, theirs.tower, tokens)

    def key(self) -> tuple[int, ...]:
        """The numbers the board is made of."""
        return (self.day, self.gate, self.position, self.tower, self.rival, self.tokens)

    def value(self, position: int, tower: int, rival: int) -> float:
        """The worth to the side of a position and markers, in steps."""
        if position > self.gate:
            return CAPTURE
        return position + point_value(self.day) * (tower - rival)

    def now(self) -> float:
        """The worth of the board as it is."""
        return self.value(self.position, self.tower, self.rival)

    def move(self, position: int, steps: int) -> int:
        """A move of the Double Agent (§8): stops in front of the gate; a move from there
        takes the flag (returned as a position beyond the gate)."""
        if position == self.gate:
            return position + 1
        return min(position + steps, self.gate)

    def gain(self, points: int, carry: bool = False) -> tuple[int, int]:
        """``(position, tower)`` after the side gains ``points`` (§7)."""
        total = self.tower + points
        if total < INFILTRATION_AT:
            return self.position, total
        position = self.move(self.position, self.day)
        return position, (total - INFILTRATION_AT if carry else 0)

    def points(self, points: int, carry: bool = False) -> float:
        """The change of worth when the side gains ``points``."""
        position, tower = self.gain(points, carry)
        return self.value(position, tower, self.rival) - self.now()

    def steps(self, steps: int) -> float:
        """The change of worth when the side moves the Double Agent ``steps``."""
        return self.value(self.move(self.position, steps), self.tower, self.rival) - self.now()

    def marshal(self, option: MarshalOption) -> float:
        """The change of worth of a Marshal option (§9, rank 10)."""
        if option is MarshalOption.POINTS:
            return self.points(SOLDIER_POINTS[MARSHAL])
        position, tower = self.gain(MARSHAL_SABOTAGE)
        return self.value(position, tower, max(0, self.rival - MARSHAL_SABOTAGE)) - self.now()


def activation_value(rank: int, board: Board, exhausted: Sequence[int] = ()) -> float:
    """What the activation of the side's ``rank`` is worth to it now, in steps (§9)."""
    unit = point_value(board.day)
    if rank == LIEUTENANT:
        return board.steps(1)
    if rank == GENERAL:
        return board.steps(2)
    if rank == BOMB:
        return _BOMB_STEPS
    if rank == MARSHAL:
        return max(board.marshal(option) for option in MarshalOption)
    if rank == CAPTAIN:
        borrowed = [activation_value(r, board) for r in exhausted if r != CAPTAIN]
        return max([board.points(SOLDIER_POINTS[CAPTAIN]), *borrowed])
    value = board.points(SOLDIER_POINTS[rank], carry=rank == COLONEL)
    value += unit * _EFFECT_POINTS.get(rank, 0.0)
    if rank == SPY and board.tokens < MAX_DECEPTION_TOKENS:
        value += unit * _TOKEN_POINTS
    return value


def _values(board: Board, exhausted: tuple[int, ...]) -> tuple[float, ...]:
    """Activation values by rank (index 0 unused), rounded so that tables are shared."""
    return _values_of(board.key(), exhausted)


@lru_cache(maxsize=4096)
def _values_of(key: tuple[int, ...], exhausted: tuple[int, ...]) -> tuple[float, ...]:
    board = Board(*key)
    return (0.0, *(round(activation_value(r, board, exhausted), 2) for r in sorted(ALL_RANKS)))


def _forced(rank: int, effects: Sequence[SoldierEffect]) -> bool:
    """The guesser's effects force the card to retreat whatever the guess (§6 step 5)."""
    return (
        SoldierEffect.BOMB in effects
        or (rank == MARSHAL and SoldierEffect.SPY in effects)
        or (rank == BOMB and SoldierEffect.MINER in effects)
    )


def guess_scores(view: SpiesAndLiesView) -> list[tuple[float, int, float]]:
    """``(score, rank, chance)`` of each rank the target may be, best first.

    The score is the chance that the current target is that rank times what a correct guess
    of it gains the guesser: its points and the activation it denies (§6).
    """
    assert view.defender is not None and view.mission is not None
    guesser = 1 - view.defender % 2
    defender = view.sides[1 - guesser]
    attacker = view.sides[guesser]
    index = view.mission - 1
    known, tokens = public_row(defender.missions, out=True)
    rows = consistent_rows(pool(defender.exhausted), known, tokens, view.current_intel or ())
    mine = Board.of(view, guesser)
    theirs = Board.of(view, 1 - guesser)
    values = _values(theirs, defender.exhausted)
    correct = mine.points(4 if SoldierEffect.SCOUT in attacker.effects else 2)
    deceived = defender.missions[index].deception
    pays = view.deception_pays_on_forced_retreat
    bonus = theirs.points(DECEPTION_BONUS) if deceived else 0.0
    scored = []
    for rank, chance in marginal(rows, index):
        forced = _forced(rank, attacker.effects)
        denied = 0.0 if forced else values[rank]
        if pays or not forced:
            denied += bonus
        scored.append((chance * (correct + denied), rank, chance))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


# --------------------------------------------------------------------------------------
# how a guesser reads a deployment


Flags = tuple[int, ...]


def _flag_variants(row: Row, card: tuple[int, ...]) -> list[Flags]:
    flags = [int(rank in card) for rank in row]
    if SERGEANT not in row:
        return [tuple(flags)]
    at = row.index(SERGEANT)
    variants = []
    for token in (0, 1):
        flags[at] = token
        variants.append(tuple(flags))
    return variants


@lru_cache(maxsize=256)
def _pattern_counts(
    ranks: tuple[int, ...], card: tuple[int, ...]
) -> tuple[tuple[tuple[Flags, Row], dict[int, float]], ...]:
    """For every intel-token pattern and ranks already turned up, the chance of each rank at
    the next mission when every legal deployment of ``ranks`` is as likely."""
    counts: dict[tuple[Flags, Row], dict[int, int]] = {}
    for row in legal_deployments(ranks):
        for flags in _flag_variants(row, card):
            for index in range(MISSIONS):
                key = (flags, row[:index])
                counter = counts.get(key)
                if counter is None:
                    counter = counts[key] = {}
                rank = row[index]
                counter[rank] = counter.get(rank, 0) + 1
    found = []
    for key, counter in counts.items():
        total = sum(counter.values())
        found.append((key, {rank: count / total for rank, count in counter.items()}))
    return tuple(found)


@lru_cache(maxsize=512)
def _guesser_table(
    ranks: tuple[int, ...], card: tuple[int, ...], values: tuple[float, ...], correct: float
) -> dict[tuple[Flags, Row], tuple[int, dict[int, float]]]:
    """:func:`_pattern_counts` with the guess of a guesser who knows only that: the best
    chance times stake, as :func:`guess_scores`."""
    table = {}
    for key, chances in _pattern_counts(ranks, card):
        guess = max(chances, key=lambda r: (chances[r] * (correct + values[r]), -r))
        table[key] = (guess, chances)
    return table


def _row_value(
    row: Row,
    flags: Flags,
    table: dict[tuple[Flags, Row], tuple[int, dict[int, float]]],
    values: tuple[float, ...],
    correct: float,
) -> float:
    """The worth of ``row`` to its owner against the modelled guesser: each card either is
    found (the guesser gains ``correct``) or activates (§6). Half the guessers are taken to
    play the table's guess, half to guess in proportion to the chances."""
    total = 0.0
    for index in range(MISSIONS):
        guess, chances = table[flags, row[:index]]
        rank = row[index]
        found = 0.5 * (guess == rank) + 0.5 * chances.get(rank, 0.0)
        total += (1 - found) * values[rank] - found * correct
    return total


def _best_flags_value(
    row: Row,
    card: tuple[int, ...],
    table: dict[tuple[Flags, Row], tuple[int, dict[int, float]]],
    values: tuple[float, ...],
    correct: float,
) -> float:
    return max(_row_value(row, f, table, values, correct) for f in _flag_variants(row, card))


@lru_cache(maxsize=256)
def _all_scores(
    ranks: tuple[int, ...],
    values: tuple[float, ...],
    correct: float,
    deck: tuple[tuple[tuple[int, ...], int], ...],
) -> dict[Row, float]:
    total = sum(count for _, count in deck)
    scores = dict.fromkeys(legal_deployments(ranks), 0.0)
    for card, count in deck:
        table = _guesser_table(ranks, card, values, correct)
        weight = count / total
        for row in scores:
            scores[row] += weight * _best_flags_value(row, card, table, values, correct)
    return scores


def deployment_scores(
    view: SpiesAndLiesView, rows: Sequence[Row], side: int | None = None
) -> list[float]:
    """The worth of each full deployment in ``rows`` to ``side`` (the viewer's by default),
    averaged over the intel cards it could not see when deploying (§5.2), against a guesser
    reading it from what is public."""
    if side is None:
        assert view.side is not None
        side = view.side
    team = view.sides[side]
    board = Board.of(view, side)
    values = _values(board, team.exhausted)
    correct = round(Board.of(view, 1 - side).points(2), 2)
    left = intel_left(view)
    if view.current_intel is not None:
        left[tuple(view.current_intel)] += 1
    deck = tuple(sorted(left.items()))
    scores = _all_scores(pool(team.exhausted), values, correct, deck)
    return [scores[row] for row in rows]


# --------------------------------------------------------------------------------------
# the decisions


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
    values = _values(board, side.exhausted)
    correct = round(Board.of(view, 1 - _own_side(view)).points(2), 2)
    table = _guesser_table(pool(side.exhausted), card, values, correct)
    best = max(
        _flag_variants(row, card),
        key=lambda flags: _row_value(row, flags, table, values, correct),
    )
    return MarkSergeant(token=bool(best[row.index(SERGEANT)]))


def _own_side(view: SpiesAndLiesView) -> int:
    assert view.side is not None
    return view.side


def miss_chance(view: SpiesAndLiesView) -> float:
    """The chance that the coming guess misses the viewer's card under attack: half the
    guessers as :func:`guess_scores`, half guessing in proportion to the chances."""
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
    forced = rank is not None and _forced(rank, attacker.effects)
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
