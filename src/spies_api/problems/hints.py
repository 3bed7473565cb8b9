"""What a refused request should have been: one line for a person, saying what to send.

The decoders and validators say what is wrong (``Invalid value 'play' - at
`$.command.type```); these functions add what to do: the shape a body takes, the command
types of the game, the values a parameter takes, how to send a token. Used by
:mod:`spies_api.http.body` (bodies) and :mod:`spies_api.problems.errors` (parameters, an
empty body).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any, Final

import msgspec

from spies_api.schemas import (
    COMMAND_TYPES_BY_GAME,
    BotRequest,
    BotSeatRequest,
    CommandRequest,
    CreateGameRequest,
    CreatorSeatRequest,
    JoinRequest,
    OpenSeatRequest,
)
from spies_replay.store.records import GameStatus

__all__ = [
    "BODY_SHAPES",
    "EMPTY_BODY",
    "NO_METHOD",
    "NO_PATH",
    "PARAMETER_HINTS",
    "SPECTATOR_LEGAL_NOTE",
    "WAITING_NOTE",
    "command_types",
    "explain_body",
    "explain_parameters",
]

COMMAND_SHAPE: Final = '{"command": {"type": "...", ...}, "expected_version": N}'
CREATE_SHAPE: Final = (
    '{"game": "deck-of-spies", "players": N, "options": {...}, "seed": "...", "seats": [...],'
    ' "clock": {...}}'
)
JOIN_SHAPE: Final = '{"name": "..."}'
BOT_SHAPE: Final = '{"bot": "random"}'

BODY_SHAPES: Final[dict[type[Any], str]] = {
    CommandRequest: COMMAND_SHAPE,
    CreateGameRequest: CREATE_SHAPE,
    JoinRequest: JOIN_SHAPE,
    BotRequest: BOT_SHAPE,
}
"""The shape of each request body, as shown in a hint."""

EMPTY_BODY: Final = (
    f"the request body is empty; POST /games takes {CREATE_SHAPE} (only game is required),"
    f" POST /games/{{id}}/commands takes {COMMAND_SHAPE} (any item of GET /games/{{id}}/legal"
    f" as command), the joins take {JOIN_SHAPE} and a bot seat takes {BOT_SHAPE}"
)

NO_PATH: Final = "no such path; the API's paths are listed at /schema"
NO_METHOD: Final = "this path does not take this method; see /schema for its methods"

SPECTATOR_LEGAL_NOTE: Final = (
    "a spectator has no commands; send the seat's token (from POST /games) as"
    " 'Authorization: Bearer <token>' to get that seat's legal commands"
)

WAITING_NOTE: Final = (
    "the game is waiting for players: nothing is dealt until its last open seat is taken"
    " (GET /games/{id} lists its seats; POST /games/{id}/join takes one)"
)

PARAMETER_HINTS: Final[dict[str, str]] = {
    "status": f"one of {', '.join(status.value for status in GameStatus)} (lower case)",
    "game": "a game id, e.g. deck-of-spies",
    "limit": "a whole number, at least 1",
    "offset": "a whole number, at least 0",
    "before": "a game id: the next_before of the previous page",
    "after": "a seq, a whole number, at least 0",
    "last_event_id": "the seq of the last event received (its id: line)",
    "idempotency_key": "at least 1 character",
}
"""What each parameter takes, keyed by Litestar's parameter key."""

_HEADER_NAMES: Final = {"last_event_id": "Last-Event-ID", "idempotency_key": "Idempotency-Key"}


def _tag(command_type: type[msgspec.Struct]) -> str:
    return str(command_type.__struct_config__.tag)


def command_types(game: str | None) -> list[str]:
    """The command types (``type`` tags) of ``game``, or of every game when ``None``."""
    games = [game] if game in COMMAND_TYPES_BY_GAME else list(COMMAND_TYPES_BY_GAME)
    return sorted({_tag(cls) for name in games for cls in COMMAND_TYPES_BY_GAME[name]})


def _kind(value: object) -> str:
    match value:
        case None:
            return "null"
        case bool():
            return "a boolean"
        case int() | float():
            return "a number"
        case str():
            return "a string"
        case list():
            return "an array"
        case _:
            return "an object"


def _closest(word: str, choices: Iterable[str]) -> str:
    options = list(choices)
    same_case = [choice for choice in options if choice.lower() == word.lower()]
    close = same_case or difflib.get_close_matches(word, options, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def explain_body(
    model_type: type[Any], raw: bytes, error: str, game_of: Callable[[], str | None]
) -> str:
    """One line on a body that did not decode: what is wrong and what to send instead.

    Args:
        model_type: the body's Struct.
        raw: the body as received.
        error: the decoder's message.
        game_of: the game of the request's path (``None`` when unknown); called only for
            a command of an unknown type.
    """
    shape = BODY_SHAPES.get(model_type, "a JSON object")
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return f"the body is not JSON ({error}); send {shape}"
    except RecursionError:  # nested deeper than the decoder goes
        return f"{error}; the body is {shape}"
    if not isinstance(value, dict):
        return f"the body must be a JSON object, not {_kind(value)}: {shape}"
    fields = [field.encode_name for field in msgspec.structs.fields(model_type)]
    if model_type is CommandRequest:
        hint = _explain_command(value, game_of)
        if hint is not None:
            return hint
    if model_type is CreateGameRequest and (hint := _explain_seats(value)) is not None:
        return hint
    unknown = [key for key in value if key not in fields]
    if unknown:
        return (
            f"unknown field {unknown[0]!r}{_closest(unknown[0], fields)}; the body's fields are"
            f" {', '.join(fields)}: {shape}"
        )
    return f"{error}; the body is {shape}"


def _explain_command(value: dict[str, Any], game_of: Callable[[], str | None]) -> str | None:
    if "command" not in value and "type" in value:
        return (
            'the command must be wrapped in "command": send {"command": '
            + msgspec.json.encode(value).decode()
            + '}, optionally with "expected_version"'
        )
    command = value.get("command")
    if not isinstance(command, dict):
        return None
    kind = command.get("type")
    if kind is None:
        return f'the command has no "type"; the body is {COMMAND_SHAPE}'
    game = game_of()
    types = command_types(game)
    if isinstance(kind, str) and kind in types:
        return None
    of = f" of {game}" if game is not None else ""
    return (
        f"unknown command type {kind!r}{_closest(str(kind), types)}; the command types{of} are"
        f" {', '.join(types)}; GET /games/{{id}}/legal lists the commands you may send now"
    )


_SEAT_TYPES: Final = sorted(
    _tag(cls) for cls in (CreatorSeatRequest, OpenSeatRequest, BotSeatRequest)
)


def _explain_seats(value: dict[str, Any]) -> str | None:
    seats = value.get("seats")
    if not isinstance(seats, list):
        return None
    for index, seat in enumerate(seats):
        kind = seat.get("type") if isinstance(seat, dict) else None
        if isinstance(seat, dict) and kind not in _SEAT_TYPES:
            return (
                f"seats[{index}] has the type {kind!r}{_closest(str(kind), _SEAT_TYPES)}; a seat"
                f' is one of {", ".join(_SEAT_TYPES)}, e.g. {{"type": "bot", "bot":'
                ' "random"}'
            )
    return None


def explain_parameters(errors: list[Any]) -> str | None:
    """One line on invalid parameters (Litestar's ``errors``), with what each one takes."""
    parts = []
    for error in errors:
        if not isinstance(error, dict):
            continue
        key = str(error.get("key", ""))
        source = error.get("source", "request")
        source = str(getattr(source, "value", source))
        hint = PARAMETER_HINTS.get(key)
        parts.append(
            f"{source} parameter {_HEADER_NAMES.get(key, key)}: {error.get('message', 'invalid')}"
            + (f"; expected {hint}" if hint else "")
        )
    return "; ".join(parts) or None
