"""What a seat can know of the hidden soldiers, and worlds sampled consistently with it.

A side's soldiers are the ten ranks less its exhausted ones (its *pool*); on any day its four
deployed soldiers are one of the legal deployments of that pool (§5.1.2), and each of them
agrees with what is public: the ranks turned face up and, once the tokens are out, the intel
token on every card but the Sergeant (§5.2). :func:`consistent_rows` lists those deployments;
every reading of the hidden soldiers in this package goes through it, so a bot's beliefs and
its sampled worlds never contradict its view.

:func:`determinise` builds a whole :class:`~spies_core.spies_and_lies.state.State` from a
view: the hidden soldiers drawn from the consistent deployments, the hidden intel deck drawn
from the cards not yet seen, the day-1 starter drawn while it is hidden. The seat's own view
of that state is the view it was built from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from random import Random

from spies_core.decider import shuffled
from spies_core.spies_and_lies.deployment import legal_deployments
from spies_core.spies_and_lies.options import SpiesAndLiesOptions
from spies_core.spies_and_lies.state import (
    ALL_RANKS,
    MISSIONS,
    SERGEANT,
    Mission,
    Phase,
    SideState,
    Stage,
    State,
)
from spies_core.spies_and_lies.view import MissionView, SideView, SpiesAndLiesView

__all__ = [
    "Prior",
    "Row",
    "consistent_rows",
    "determinise",
    "intel_left",
    "marginal",
    "pool",
    "public_row",
    "tokens_out",
]

Row = tuple[int, ...]
"""Four ranks, under missions 1-4."""

Prior = Callable[[int, tuple[Row, ...]], Sequence[float] | None]
"""``prior(side, rows)``: how likely each of ``side``'s consistent deployments ``rows`` is
(any positive weights), or ``None`` for all alike."""

UNKNOWN = -1
"""An intel token not (yet) seen, in the ``tokens`` of :func:`consistent_rows`."""


def pool(exhausted: Sequence[int]) -> tuple[int, ...]:
    """The ranks a side may deploy today: all but its exhausted soldiers (§5.1.1)."""
    return tuple(rank for rank in sorted(ALL_RANKS) if rank not in exhausted)


def tokens_out(view: SpiesAndLiesView) -> bool:
    """The intel tokens of the day are revealed (§5.2.4)."""
    return view.phase in (Phase.MISSION, Phase.OVER)


def public_row(
    missions: Sequence[MissionView], out: bool, seen: bool = False
) -> tuple[Row, tuple[int, ...]]:
    """What is known of one side's missions: ``(known, tokens)``.

    ``known`` holds each mission's rank, 0 when unknown; ``tokens`` its intel token as 1 or 0,
    :data:`UNKNOWN` when not revealed. With ``seen`` the ranks the viewer may see face down
    count as known; otherwise only the ranks turned face up, as the opponent knows them.
    """
    known = tuple((m.rank or 0) if (m.face_up or seen) else 0 for m in missions)
    tokens = tuple(
        int(m.intel) if out and m.deployed and m.intel is not None else UNKNOWN for m in missions
    )
    return known, tokens


@lru_cache(maxsize=16384)
def consistent_rows(
    ranks: tuple[int, ...], known: Row, tokens: tuple[int, ...], card: tuple[int, ...]
) -> tuple[Row, ...]:
    """The legal deployments of ``ranks`` that agree with ``known`` ranks and ``tokens``.

    Args:
        ranks: the side's pool, ascending.
        known: per mission the rank known to be there, 0 when unknown.
        tokens: per mission 1 (token), 0 (none) or :data:`UNKNOWN`; the Sergeant may carry
            either (§5.2.3).
        card: the current intel card (empty before one is turned).
    """
    found = []
    for row in legal_deployments(ranks):
        for index in range(MISSIONS):
            rank = row[index]
            want = known[index]
            if want:
                if rank != want:
                    break
                continue
            token = tokens[index]
            if token != UNKNOWN and rank != SERGEANT and (rank in card) != bool(token):
                break
        else:
            found.append(row)
    return tuple(found)


@lru_cache(maxsize=16384)
def marginal(rows: tuple[Row, ...], index: int) -> tuple[tuple[int, float], ...]:
    """The chance of each rank under mission ``index`` when every row is as likely."""
    counts = Counter(row[index] for row in rows)
    total = len(rows)
    return tuple((rank, count / total) for rank, count in sorted(counts.items()))


def intel_left(view: SpiesAndLiesView) -> Counter[tuple[int, ...]]:
    """The intel cards not seen yet (the hidden deck), as a multiset."""
    left = Counter(tuple(card) for card in view.intel_cards)
    seen = [*view.old_intel, *([view.current_intel] if view.current_intel else [])]
    for card in seen:
        if left[tuple(card)] > 0:
            left[tuple(card)] -= 1
    return +left


def _sample_row(
    side: SideView, view: SpiesAndLiesView, rng: Random, prior: Prior | None
) -> Row | None:
    """A deployment consistent with what ``view`` shows of ``side``, or ``None`` when every
    deployed soldier is visible."""
    missions = side.missions
    if all(m.rank is not None or not m.deployed for m in missions):
        return None
    known, tokens = public_row(missions, tokens_out(view), seen=True)
    rows = consistent_rows(pool(side.exhausted), known, tokens, view.current_intel or ())
    weights = prior(side.side, rows) if prior is not None and len(rows) > 1 else None
    if weights is None:
        return rows[rng.randrange(len(rows))]
    return rng.choices(rows, weights)[0]


def _side_state(
    side: SideView, view: SpiesAndLiesView, rng: Random, prior: Prior | None
) -> SideState:
    row = _sample_row(side, view, rng, prior)
    out = tokens_out(view)
    missions = []
    for index, seen in enumerate(side.missions):
        if not seen.deployed:
            missions.append(Mission())
            continue
        rank = seen.rank if seen.rank is not None else (row[index] if row else None)
        if out:
            intel = bool(seen.intel)
        else:
            # Before the tokens are out only a Sergeant's secret mark is stored (§5.2.3).
            marked = any(seat in view.intel_marked for seat in side.seats)
            intel = rank == SERGEANT and marked and rng.randrange(2) == 1
        missions.append(
            Mission(
                rank=rank,
                face_up=seen.face_up,
                retreated=seen.retreated,
                intel=intel,
                deception=seen.deception,
            )
        )
    deployed = {m.rank for m in missions if m.rank is not None}
    hand = side.hand
    if hand is None:
        hand = tuple(rank for rank in pool(side.exhausted) if rank not in deployed)
    effects = {str(effect) for effect in side.effects}
    return SideState(
        hand=hand,
        exhausted=side.exhausted,
        missions=tuple(missions),
        tower=side.tower,
        deception_tokens=side.deception_tokens,
        reserve_taken=side.reserve_taken,
        scout="scout" in effects,
        spy="spy" in effects,
        miner="miner" in effects,
        bomb="bomb" in effects,
        double_damage=side.double_damage,
    )


def _history(view: SpiesAndLiesView) -> tuple[tuple[tuple[Mission, ...], ...], ...]:
    return tuple(
        tuple(
            tuple(
                Mission(
                    rank=m.rank,
                    face_up=m.face_up,
                    retreated=m.retreated,
                    intel=bool(m.intel),
                    deception=m.deception,
                )
                for m in missions
            )
            for missions in record.missions
        )
        for record in view.history
    )


def determinise(view: SpiesAndLiesView, rng: Random, prior: Prior | None = None) -> State:
    """A whole state that shows ``view`` to its seat, its hidden parts drawn with ``rng``.

    Hidden soldiers are drawn among the deployments consistent with the view, as ``prior``
    weighs them (uniformly without one), the intel deck from the cards not yet seen, and the
    day-1 starter while it is hidden.
    """
    deck = [card for card, count in sorted(intel_left(view).items()) for _ in range(count)]
    options = SpiesAndLiesOptions(
        board_length=view.board_length,
        intel_cards=view.intel_cards,
        deception_pays_on_forced_retreat=view.deception_pays_on_forced_retreat,
        deception_reserve=view.deception_reserve_rule,
    )
    starter = view.starting_side
    return State(
        players=view.players,
        options=options,
        phase=view.phase,
        day=view.day,
        starter=rng.randrange(2) if starter is None else starter,
        sides=tuple(_side_state(side, view, rng, prior) for side in view.sides),
        intel_deck=shuffled(rng, deck)[: view.intel_deck_size],
        old_intel=view.old_intel,
        current_intel=view.current_intel,
        reserve=view.deception_reserve_left,
        double_agent=view.double_agent,
        turn=0 if view.turn is None else view.turn - 1,
        stage=Stage.DECEPTION if view.stage is None else view.stage,
        intel_marked=view.intel_marked,
        history=_history(view),
        winner=view.winner,
        end_reason=view.end_reason,
    )
