"""Commands over HTTP: a command of the game named by the path, how a body is decoded with
that game's commands, and the legal-commands and command answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from enum import StrEnum
from typing import Annotated, Any, Final

import msgspec

from spies_api.schemas.events import AnyEvent
from spies_api.schemas.per_game import PerGame, members_of, one_games, tag_of, union_of
from spies_core.decider import GameSpec, Outcome
from spies_core.registry import GAMES
from spies_replay.receipts import Receipt  # receipts
from spies_replay.store.records import GameStatus

__all__ = [
    "COMMAND_TYPES_BY_GAME",
    "CommandChoice",
    "CommandRequest",
    "CommandResponse",
    "GameCommand",
    "LEGAL_BY_GAME",
    "LegalCommands",
    "LegalForm",
    "SubmittedCommand",
    "command_decoder",
    "command_union",
]

COMMAND_TYPES_BY_GAME: Final[dict[str, frozenset[type[msgspec.Struct]]]] = {
    name: frozenset(members_of(spec.command_type)) for name, spec in GAMES.items()
}
"""The command classes of each registered game (to refuse another game's command)."""


GameCommand = Annotated[
    Any,
    PerGame(
        "Command",
        lambda spec: spec.command_type,
        "A command of `{game}`, tagged by `type`. Send it as `command` to"
        " `POST /games/{{id}}/commands` of a `{game}` game; `GET /games/{{id}}/legal` lists"
        " the ones the caller may send now.",
    ),
]
"""A command of one game: that game's command Struct."""


def command_union(game: str, games: Mapping[str, GameSpec[Any, Any, Any, Any, Any]] = GAMES) -> Any:
    """The commands a body sent to a game of ``game`` decodes to: the game's own, then the
    other games' commands whose tags it does not use (so that another game's command
    decodes, to be refused as ``wrong-game-command`` rather than as an unknown type)."""
    seen: dict[str, type[msgspec.Struct]] = {}
    for name in (game, *(other for other in games if other != game)):
        for cls in members_of(games[name].command_type):
            seen.setdefault(tag_of(cls), cls)
    return union_of(seen.values())


_COMMAND_DECODERS: Final[dict[str, msgspec.json.Decoder[Any]]] = {
    game: msgspec.json.Decoder(
        msgspec.defstruct(
            "CommandOf",
            [("command", command_union(game))],
            frozen=True,
            forbid_unknown_fields=True,
            module=__name__,
        )
    )
    for game in GAMES
}


def command_decoder(game: str) -> Callable[[bytes], Any]:
    """Decode ``{"command": {...}}`` with ``game``'s commands; returns the command.

    Raises:
        msgspec.ValidationError: not a command (paths name ``$.command``).
        KeyError: not a registered game.
    """
    decoder = _COMMAND_DECODERS[game]

    def decode(body: bytes) -> Any:
        return decoder.decode(body).command

    return decode


class CommandRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Body of ``POST /games/{id}/commands``."""

    command: Annotated[msgspec.Raw, GameCommand.__metadata__[0]]
    """One command of the game named by the path, tagged by ``type``: any item of
    ``GET /games/{id}/legal`` works. Each game has its own commands (``DeckOfSpiesCommand``,
    ``BlackSpyCommand``, ...); the same ``type`` may mean different commands in two games."""
    expected_version: int | None = None
    """The ``version`` of ``GET /games/{id}/legal`` the command was chosen from. The command
    is applied if the game is still at this version, or if it moved on but the seat has not
    acted since and its legal commands are still exactly those of this version (another
    seat acted in a phase where several act at once, someone joined, a seat was handed to a
    bot); otherwise 409 ``version-conflict`` with ``current_version``, so a request sent
    again is never applied twice. ``null`` or omitted: apply it to whatever the current
    version is."""
    expected_game_version: int | None = None
    """The strict check: refuse with 409 ``version-conflict`` unless the game is at exactly
    this version, whatever was recorded since (any seat's command, a join, a hand-over).
    May be sent with ``expected_version`` (both are checked)."""


class SubmittedCommand(msgspec.Struct, frozen=True, kw_only=True):
    """A command request decoded with its game's commands (what the pipeline applies).

    Encoded, it is the canonical form of the request (the ``Idempotency-Key`` fingerprint).
    """

    command: Any
    """One of the game's command Structs."""
    expected_version: int | None = None
    """The version the command was decided against, if the sender said (accepted while the
    seat has not acted since and its legal commands are unchanged)."""
    expected_game_version: int | None = None
    """The version the game must be at, exactly, if the sender said."""


class LegalForm(StrEnum):
    """How ``GET /games/{id}/legal`` lists the commands."""

    FULL = "full"
    """Every command, one by one (the default)."""
    COMPACT = "compact"
    """Commands that are every choice of some items of a list (a Black Spy pass: any 3 cards
    of the hand) as one ``choices`` item; the others one by one in ``commands``."""


class CommandChoice(msgspec.Struct, frozen=True, kw_only=True):
    """Many legal commands in one: ``command`` with ``field`` set to any ``choose`` items of
    ``of`` (each item at most as often as ``of`` holds it), in the order they have in ``of``.
    Every such command is legal, and these are all of them."""

    command: dict[str, Any]
    """The command's other fields, its ``type`` among them."""
    field: str
    """The field to fill, e.g. ``cards``."""
    choose: int
    """How many items to choose."""
    of: list[str]
    """The items to choose from, e.g. the cards of the hand."""


class LegalCommands(msgspec.Struct, frozen=True, kw_only=True):
    """The commands the caller may send now; each can be posted back as ``command``."""

    version: int
    """The game's version these commands apply to. Send it back as ``expected_version``:
    the command is still accepted after other seats' moves that left these commands as
    they are, until the seat itself acts (or as ``expected_game_version`` to require
    exactly this version)."""
    seat: int | None
    """The caller's seat; ``null`` for a spectator (no token)."""
    commands: list[GameCommand]
    """Exactly the commands the rules accept from the caller now, in the game's own command
    schema (``DeckOfSpiesCommand``, ...)."""
    note: str | None = None
    """Why ``commands`` is empty (a spectator, a seat not to act, a finished game); ``null``
    when there are commands."""
    choices: list[CommandChoice] | msgspec.UnsetType = msgspec.UNSET
    """Only with ``?form=compact`` (absent otherwise, so the full form is as it always
    was): the commands that are every choice of some items of a list, each group as one
    item (they are then not in ``commands``)."""


def _legal_of(name: str, spec: GameSpec[Any, Any, Any, Any, Any]) -> Any:
    """The legal-commands answer of one game: its ``commands`` are that game's."""
    own: Any = list[Annotated[Any, replace(GameCommand.__metadata__[0], only=name)]]
    return one_games(
        LegalCommands,
        {"commands": own},
        f"{spec.options_type.__name__.removesuffix('Options')}LegalCommands",
        doc=f"The commands the caller may send now in a game of {spec.title} (``{name}``).",
        module=__name__,
    )


LEGAL_BY_GAME: Final = union_of(_legal_of(name, spec) for name, spec in GAMES.items())
"""How ``LegalCommands`` is documented: one schema per game, whose ``commands`` are that
game's (the answer does not name its game: the path's game does)."""


class CommandResponse(msgspec.Struct, frozen=True, kw_only=True):
    """Answer to an accepted command: the new version and the caller's view of its events."""

    version: int
    """The game's version after the command: the seq of its last event."""
    status: GameStatus
    """``active`` while the game goes on, ``finished`` once this command ended it."""
    events: list[AnyEvent]
    """The events the command caused, in order, as the caller may see them (hidden cards
    of other seats are ``null``)."""
    outcome: Outcome | None = None
    """How the game ended, when this command ended it; ``null`` otherwise."""
    receipt: Receipt | None = None
    """The server's signed receipt of the game's log at this version (``docs/protocol.md``,
    receipts): keep it, and ``spies-replay verify --receipt`` shows whether a later export
    holds this head at this seq. Set on every answer of this server that appends."""
