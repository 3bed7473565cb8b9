"""The shape every game takes: a Decider of pure functions, bundled in a :class:`GameSpec`.

A game is rebuilt by folding its events, in order, through ``evolve``, starting from
``initial_state()``. Commands go through ``decide``, which validates them and returns the
events they cause; ``evolve`` then applies those events without checking them again.
Randomness enters only through the ``rng`` argument of ``start`` and ``decide``, and its
outcome (the order a shuffle produced) is written into the events, so ``evolve`` and
``fold`` never draw a number.

The generic layers (the replay log, the API, the conformance tests) see games only
through this module and the registry; they never name a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from types import ModuleType
from typing import Any, Final, Generic, Protocol, TypeVar

import msgspec

from spies_core.clock import ClockView
from spies_core.errors import InvalidOptionsError
from spies_core.reference import RuleReference

__all__ = [
    "AnySpec",
    "Decider",
    "GameSpec",
    "GameView",
    "GoldenCase",
    "Outcome",
    "Rng",
    "ROLES",
    "Seat",
    "Presentation",
    "SuiteHooks",
    "TwinDeals",
    "Types",
    "Visibility",
    "assemble",
    "fold",
    "parse_options",
    "seat_counts_text",
    "shuffled",
    "start_game",
]

Seat = int
"""A seat number, 0 to players - 1. ``None`` where a seat is expected means a spectator."""

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
V = TypeVar("V")
O = TypeVar("O")  # noqa: E741  (options type)
T = TypeVar("T")


class Rng(Protocol):
    """The only source of chance a rule may use.

    ``random.Random`` satisfies it (tests, benchmarks); the server passes a
    :class:`spies_core.rng.FairRng` derived from the game's committed seed.
    """

    def randrange(self, stop: int, /) -> int:
        """Return a uniformly chosen integer in ``[0, stop)``."""
        ...


def shuffled(rng: Rng, items: Iterable[T]) -> tuple[T, ...]:
    """Return ``items`` in a uniformly random order (Fisher-Yates, from the last index down).

    This is the one shuffle every game uses, so that re-deriving a deal from a revealed
    seed is the same loop in every game: for ``i`` from ``n - 1`` down to ``1``, swap item
    ``i`` with item ``rng.randrange(i + 1)``.

    >>> shuffled(Random(1), "abc")
    ('b', 'c', 'a')
    """
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished game ended, in terms every client understands."""

    winners: tuple[int, ...]
    """Seats that won, ascending; several when a win is shared (a Black Spy tie, a Spies &
    Lies team), none when nobody won (a lost Deck of Spies game, a draw)."""
    reason: str
    """Stable machine code of the way the game ended. Deck of Spies: ``owned-faces`` (the 36
    spies were dealt with; won with at least 7 owned face cards, Deck of Spies §9.2) or
    ``no-ace-left`` (an assassination was forced with no Ace left, Deck of Spies §9.3).
    Black Spy: ``threshold-reached`` (a total reached the threshold after a deal, Black
    Spy §7). Spies & Lies: ``flag-captured`` (Spies & Lies §12.1), ``territory`` (after
    day 3 the Double Agent stood in one side's territory, Spies & Lies §12.2) or
    ``infiltration`` (it stood on the centre: the higher marker won, or equal markers
    drew, Spies & Lies §12.2). Any game, ended by the log rather than its rules (nobody
    wins): ``aborted`` (an operator ended it) or ``abandoned`` (its open seats expired)."""
    draw: bool = False
    """True when the game ended without a winner by the rules' draw condition (Spies & Lies
    §12.2)."""
    scores: tuple[int, ...] = ()
    """Final score per seat where the game keeps one: Deck of Spies the owned face cards,
    Black Spy the penalty totals (lowest wins), Spies & Lies each seat's side's
    infiltration marker."""


class GameView(msgspec.Struct, frozen=True, kw_only=True):
    """What every game's view starts with; each game's view Struct subclasses it (tagged by
    ``game``) and adds the game's own fields after these. The core leaves ``version`` at
    0, as it does not count the log's events; :func:`spies_core.step.view_at` sets it."""

    version: int = 0
    """The game's version this view reflects: the number of events in the log (for a replay,
    the step's seq). Filled in by the API."""
    seat: int | None
    """The viewer's seat; ``null`` for a spectator (no token)."""
    clock: ClockView | None = None
    """The game's clock, as it was at this version (a replay) or is now: the time control
    and each seat's time left and deadline; ``null`` for a game without a clock. Filled in
    by the API."""
    names: list[str | None] = msgspec.field(default_factory=list)
    """Each seat's display name, by seat (``null``: a seat whose holder gave none, an open
    seat, a bot's seat), as the seats stood at this version; public, like the summary's
    ``seats``. Filled in by the API (empty where nobody has named the seats: a bot's or a
    simulator's view)."""
    dealt: bool = True
    """``false`` while nothing is dealt: the game is waiting for players (a game created
    with an open seat deals when its last open seat is taken), or a replay shows the step
    before its setup. The game's own fields then say only what the seats and the options
    decide (the built-in games' ``phase`` is then ``setup``, and says which fields): whatever
    the deal decides is empty, no card is shown and no seat is to act. Filled in by
    :func:`spies_core.step.view_at`."""


class TwinDeals(msgspec.Struct, frozen=True, kw_only=True):
    """Two explicit deals that one viewer cannot tell apart, for the hidden-information suites.

    Both are values of ``options.deal`` (JSON-like). They differ only in what ``viewer`` may
    not see (another seat's cards, the order of a deck), so two games created from them with
    the same seed must give that viewer the same answers for as long as its view agrees.
    """

    deal: Any
    """The first world's ``options.deal``."""
    twin: Any
    """The second world's ``options.deal``."""
    hidden: tuple[Any, ...]
    """Parts of the two deals (JSON-like values, e.g. a deck order or another seat's hand)
    that must never appear in an answer to the viewer before the game ends."""


class GoldenCase(msgspec.Struct, frozen=True, kw_only=True):
    """One golden log of a game: a finished game recorded once and replayed by every version.

    ``tests/fixtures/make_golden.py`` plays it with seeded random commands and writes
    ``<name>.jsonl``; the replay suites import, verify and replay it.
    """

    name: str
    """The file's stem, unique across games, e.g. ``black-spy-4p-classic``."""
    players: int
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    """The creation options, as a client would send them."""


# A game's spec is grouped by purpose: one frozen dataclass per group, and ``GameSpec``
# inherits them all, so every field keeps its flat name (``spec.decide``, ``spec.view``)
# while the class shows, group by group, what a game gives and who uses it.


@dataclass(frozen=True, kw_only=True)
class Decider(Generic[S, C, E, O]):
    """The game itself: the few pure functions the server, the replay and the bots call."""

    initial_state: Callable[[], S]
    """The empty state that the first event applies to."""
    start: Callable[[O, int, Rng], list[E]]
    """``start(options, players, rng)``: the setup events of a new game."""
    decide: Callable[[S, Seat, C, Rng], list[E]]
    """``decide(state, seat, command, rng)``: the events a command causes, or a ``RuleError``."""
    evolve: Callable[[S, E], S]
    """``evolve(state, event)``: apply a recorded fact; never validates user input."""
    legal_commands: Callable[[S, Seat], list[C]]
    """Exactly the commands ``decide`` accepts from that seat now."""
    to_act: Callable[[S], frozenset[Seat]]
    """Seats that may submit a command now (several during simultaneous phases)."""
    outcome: Callable[[S], Outcome | None]
    """``None`` while the game goes on."""
    players: Callable[[S], int]
    """Number of seats in the game."""
    forfeit: Callable[[S, Seat], Outcome] | None = None
    """``forfeit(state, seat)``: how the game ends when ``seat`` loses by running out of
    time (a time control with ``on_timeout`` ``forfeit``): the other side wins, or a solo
    game is lost. ``None``: no seat's leaving decides the game (Black Spy), so a time control
    may not forfeit it."""
    configured: Callable[[int, O], S] | None = None
    """``configured(players, options)``: the state of a game set up for that many seats
    with those options before anything is dealt (no rng: nothing the deal decides), which
    the view of a game waiting for its deal shows (:func:`spies_core.step.view_at`): its
    seats, flags and the figures they fix, and empty hands. ``None``: the initial state."""


@dataclass(frozen=True, kw_only=True)
class Visibility(Generic[S, E, V]):
    """What a viewer may see: the only way anything about a game in progress leaves it."""

    view: Callable[[S, Seat | None], V]
    """What a seat (or a spectator, ``None``) may see."""
    redact: Callable[[E, Seat | None], E | None]
    """The same rule for one event: the event as that viewer may see it, or ``None``."""


@dataclass(frozen=True, kw_only=True)
class Presentation(Generic[E, V]):
    """The game in words, for people: its title, the replay tool's lines, the simulator's
    report."""

    title: str
    """Human-readable name."""
    describe_event: Callable[[E], str]
    """One line of text for a person, e.g. ``counter 3♥ 4♠ against 5♣``."""
    render_view: Callable[[V], str]
    """A view as a few lines of text for a terminal."""
    score_name: str = "score"
    """What :attr:`Outcome.scores` holds, in a few words that can head a column of a report
    (``spies-sim``), e.g. ``penalty points``; every registered game names its own."""
    reference: RuleReference = field(default=RuleReference(), hash=False)
    """The rule behind each refusal and ending, and the rules' figures a client shows (the
    ``REFERENCE`` of the game's ``text.py``). (Not hashed: it holds mappings.)"""


@dataclass(frozen=True, kw_only=True)
class Types(Generic[O]):
    """The game's message types and limits: what the API and the log decode and bound."""

    options_type: type[O]
    """msgspec Struct of the creation options (unknown fields refused)."""
    command_type: Any
    """The tagged union of commands (``tag_field="type"``)."""
    event_type: Any
    """The tagged union of events (``tag_field="type"``)."""
    view_type: Any
    """The Struct returned by ``view``."""
    state_type: Any
    """The state Struct (msgspec-encodable, for snapshots)."""
    seat_counts: frozenset[int]
    """Every number of seats the game can be played by, e.g. ``{2, 4}``; ``start_game``
    refuses any other (``invalid-players``)."""
    max_events: int
    """Upper bound on the events of one game; the conformance suite checks it."""

    @property
    def min_players(self) -> int:
        """The fewest seats the game is played by (the default of ``start_game``)."""
        return min(self.seat_counts)

    @property
    def max_players(self) -> int:
        """The most seats the game is played by."""
        return max(self.seat_counts)


@dataclass(frozen=True, kw_only=True)
class SuiteHooks(Generic[S, C]):
    """What the generic suites need to exercise any game without naming it (and verify's
    invariant check)."""

    check_invariants: Callable[[S], None]
    """Raise ``AssertionError`` when the state breaks a rule invariant (tests, verify)."""
    probe_commands: Callable[[S, Seat], Iterable[C]]
    """Plausible commands, legal and illegal, for the conformance suite to try."""
    scramble: Callable[[S, Seat | None, Random], S]
    """A state that differs from the given one only in what the viewer cannot see."""
    twin_deals: Callable[[int, Seat | None, Random], TwinDeals] | None = None
    """``twin_deals(players, viewer, rng)``: two explicit deals the viewer cannot tell apart
    (the HTTP hidden-information suite plays both); every registered game has one."""
    golden_cases: tuple[GoldenCase, ...] = field(default=(), hash=False)
    """The game's golden logs; every registered game has at least one. (Not hashed: options
    are dicts, and specs are cache keys.)"""


@dataclass(frozen=True, kw_only=True)
class GameSpec(
    Decider[S, C, E, O],
    Visibility[S, E, V],
    Presentation[E, V],
    Types[O],
    SuiteHooks[S, C],
    Generic[S, C, E, V, O],
):
    """One registered game, by its id: its :class:`Decider`, what a viewer may see
    (:class:`Visibility`), the game in words (:class:`Presentation`), its :class:`Types` and
    limits, and what the generic suites need (:class:`SuiteHooks`). Every field is read by its
    own name, e.g. ``spec.decide``, ``spec.view``, ``spec.max_events``.

    ``GameSpec`` is a dataclass, not a Struct, because it holds functions and is never
    serialised; ``assemble`` builds it from a game package's modules.
    """

    name: str
    """The game id used in URLs and stored with every game, e.g. ``deck-of-spies``."""


def parse_options(spec: GameSpec[Any, Any, Any, Any, O], raw: object) -> O:
    """Convert raw JSON-like options into the game's options Struct.

    Raises:
        InvalidOptionsError: unknown option (``unknown-option``) or wrong type
            (``invalid-options``).
    """
    options_type: Any = spec.options_type
    known = [field.encode_name for field in msgspec.structs.fields(options_type)]
    if isinstance(raw, dict) and (unknown := [key for key in raw if key not in known]):
        raise InvalidOptionsError(
            f"unknown option {unknown[0]!r} for {spec.name}; its options are"
            f" {', '.join(known) or 'none'}",
            code="unknown-option",
        )
    try:
        return msgspec.convert(raw if raw is not None else {}, spec.options_type)
    except msgspec.ValidationError as exc:
        text = str(exc)  # a nested unknown field, e.g. inside ``deal``
        code = "unknown-option" if text.startswith("Object contains unknown field") else None
        raise InvalidOptionsError(f"invalid options for {spec.name}: {text}", code=code) from exc


def start_game(
    spec: GameSpec[Any, Any, E, Any, Any], players: int | None, raw_options: object, rng: Rng
) -> list[E]:
    """Validate ``players`` and ``options`` and return the game's setup events.

    ``players`` defaults to the game's minimum.

    Raises:
        InvalidOptionsError: ``invalid-players`` for a seat count not in the game's
            ``seat_counts``, or whatever the game's ``start`` raises for its options.
    """
    count = spec.min_players if players is None else players
    if count not in spec.seat_counts:
        raise InvalidOptionsError(
            f"{spec.name} is played by {seat_counts_text(spec.seat_counts)}, not {count}",
            code="invalid-players",
        )
    return spec.start(parse_options(spec, raw_options), count, rng)


def seat_counts_text(counts: Iterable[int]) -> str:
    """The seat counts in words: ``1 player``, ``3 to 6 players``, ``2 or 4 players``.

    >>> seat_counts_text({4, 2})
    '2 or 4 players'
    """
    ordered = sorted(counts)
    low, high = ordered[0], ordered[-1]
    if low == high:
        return f"{low} player{'' if low == 1 else 's'}"
    if len(ordered) == high - low + 1:
        return f"{low} to {high} players"
    return f"{', '.join(map(str, ordered[:-1]))} or {high} players"


def fold(spec: GameSpec[S, Any, E, Any, Any], events: Sequence[E] | Iterable[E]) -> S:
    """Rebuild a state by applying ``events`` in order to the game's initial state."""
    state = spec.initial_state()
    evolve = spec.evolve
    for event in events:
        state = evolve(state, event)
    return state


ROLES: Final[Mapping[str, tuple[str, ...]]] = {
    "rules": ("start", "decide"),
    "evolve": ("initial_state", "evolve", "outcome", "players"),
    "legal": ("legal_commands", "probe_commands"),
    "state": ("to_act", "check_invariants"),
    "view": ("view", "redact", "scramble"),
    "text": ("describe_event", "render_view"),
    "fixtures": ("twin_deals",),
}
"""Which module of a game package each function of its :class:`GameSpec` comes from: the
package shape that every game has (``tests/core/test_package_shape.py`` checks it)."""


def assemble(
    *,
    name: str,
    title: str,
    seat_counts: Iterable[int],
    options_type: type[Any],
    view_type: type[Any],
    modules: Iterable[ModuleType],
    score_name: str = "score",
) -> GameSpec[Any, Any, Any, Any, Any]:
    """A game's :class:`GameSpec` from the modules of its package, by their roles.

    Args:
        name: the game id.
        title: the human-readable name.
        seat_counts: every number of seats the game is played by.
        options_type: the options Struct (``<Game>Options`` in ``options.py``).
        view_type: the view Struct (``<Game>View`` in ``view.py``).
        modules: the package's modules, each named after its role: ``commands`` (its
            ``Command`` union), ``events`` (its ``Event`` union), ``state`` (``State``,
            ``MAX_EVENTS``), and each module of :data:`ROLES` with its functions;
            ``fixtures`` also gives ``GOLDEN_CASES``, ``evolve`` may give ``forfeit`` and
            ``configured``, and
            ``text`` its ``REFERENCE``.
        score_name: what the outcome's scores hold, for reports.
    """
    by_role = {module.__name__.rsplit(".", 1)[-1]: module for module in modules}
    functions = {
        function: getattr(by_role[role], function)
        for role, names in ROLES.items()
        for function in names
    }
    state = by_role["state"]
    forfeit = getattr(by_role["evolve"], "forfeit", None)
    configured = getattr(by_role["evolve"], "configured", None)
    return GameSpec(
        name=name,
        title=title,
        seat_counts=frozenset(seat_counts),
        max_events=state.MAX_EVENTS,
        options_type=options_type,
        command_type=by_role["commands"].Command,
        event_type=by_role["events"].Event,
        view_type=view_type,
        state_type=state.State,
        golden_cases=by_role["fixtures"].GOLDEN_CASES,
        score_name=score_name,
        forfeit=forfeit,
        configured=configured,
        reference=getattr(by_role["text"], "REFERENCE", RuleReference()),
        **functions,
    )


AnySpec = GameSpec[Any, Any, Any, Any, Any]
"""A game's spec whatever its types: what generic code (registry, replay, API, bots) holds."""
