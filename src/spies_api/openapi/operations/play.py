"""The operations of play: a seat's view, its legal commands, a command, a replay step."""

from __future__ import annotations

from typing import Final

from spies_api.openapi.examples import COMMAND_RESPONSE_EXAMPLE, LEGAL_EXAMPLE, VIEW_EXAMPLE
from spies_api.openapi.operations.common import (
    IDEMPOTENT_REPLAYED,
    OPTIONAL_SEAT_TOKEN,
    SEAT_TOKEN_REQUIRED,
    Operation,
    if_none_match_answers,
    ok,
)
from spies_api.openapi.problems import BODY, ON_A_GAME, SEAT_CALLER, problems
from spies_api.schemas import AnyView, CommandResponse, LegalCommands
from spies_core.errors import RuleError

_NOT_MODIFIED, _TAGGED_HEADERS = if_none_match_answers()

__all__ = ["PLAY_OPERATIONS"]


_VIEW_DESCRIPTION: Final = (
    "The game's view struct (tagged by `game`) with `version` and `seat` (`null` for a"
    " spectator): the seat's own hidden cards and what the rules make public, never another"
    " seat's hidden cards or a deck's order while the game is in progress. Before the deal"
    " (`dealt: false`, `phase` `setup`) only what the seats and options decide is filled in;"
    " once the game is over (`phase` `over`) nothing is secret and every caller's view shows"
    " every seat's cards."
)

PLAY_OPERATIONS: Final[dict[str, Operation]] = {
    "getView": Operation(
        summary="The caller's view",
        description=_VIEW_DESCRIPTION,
        security=OPTIONAL_SEAT_TOKEN,
        headers=_TAGGED_HEADERS,
        responses={
            200: ok(AnyView, "The view now.", ("Seat 0 of a Deck of Spies game", VIEW_EXAMPLE)),
            **_NOT_MODIFIED,
            **problems(*ON_A_GAME, *SEAT_CALLER),
        },
    ),
    "getLegalCommands": Operation(
        summary="The caller's legal commands",
        description=(
            "Exactly the commands the rules accept from the caller now; each item can be"
            " posted back unchanged as `command`. Empty for a spectator, a seat not to act,"
            " and a finished game. With `?form=compact`, commands that are every choice of"
            " some items of a list (a Black Spy pass: any 3 cards of the hand, hundreds of"
            " commands) come as one `CommandChoice` in `choices`: `command` with `field` set"
            " to any `choose` items of `of`, in the order of `of`."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        headers=_TAGGED_HEADERS,
        responses={
            200: ok(
                LegalCommands,
                "The version they apply to, and the commands.",
                ("Two of seat 0's commands", LEGAL_EXAMPLE),
            ),
            **_NOT_MODIFIED,
            **problems(*ON_A_GAME, *SEAT_CALLER),
        },
    ),
    "postCommand": Operation(
        summary="Send a command",
        description=(
            "Applies one command of the token's seat. With `expected_version` (the `version`"
            " of `/legal` the command was chosen from), the command is applied if the game is"
            " still at that version, or if it moved on without a command of the seat and"
            " without changing its legal commands: another seat's move in a phase where"
            " several seats act at once (Black Spy's passing, Spies & Lies' intel), a join, a"
            " hand-over, a clock update. Otherwise it is refused (409 `version-conflict`, with"
            " `current_version`): a request sent again is never applied twice. With"
            " `expected_game_version`, the strict check, any other version of the game refuses"
            " it, whatever was recorded since. Commands on one game"
            " are applied one at a time. Returns the new version and the new events as the"
            " seat may see them; a refused command appends nothing. A replayed"
            " `Idempotency-Key` answer carries the header `Idempotent-Replayed: true`."
        ),
        security=SEAT_TOKEN_REQUIRED,
        headers={200: {"Idempotent-Replayed": IDEMPOTENT_REPLAYED}},
        responses={
            200: ok(
                CommandResponse,
                "The command was applied (or replayed from its Idempotency-Key).",
                ("A counter", COMMAND_RESPONSE_EXAMPLE),
            ),
            **problems(
                *BODY,
                *SEAT_CALLER,
                "game-not-found",
                "version-conflict",
                "deadline-passed",
                RuleError,
                "idempotency-key-reused",
                "storage-full",
                notes={
                    "deadline-passed": "the seat's clock ran out before the command",
                    "idempotency-key-reused": "an `Idempotency-Key` sent again with another body",
                },
                examples={422: "not-your-turn"},
            ),
        },
    ),
    "getReplay": Operation(
        summary="A seat's view after an event",
        description=(
            "The caller's view as it was after event `seq` (0: before the first event)."
            " The same hidden-information rule as the view applies. With `as`, the view of"
            " that seat instead: anyone may choose any seat once the game is finished (its"
            " whole log is public then); while it is in progress, only with that seat's own"
            " token (otherwise 403 `replay-seat-hidden`, which reveals nothing)."
        ),
        security=OPTIONAL_SEAT_TOKEN,
        responses={
            200: ok(
                AnyView,
                "The view at that step, `version` = `seq`.",
                ("Seat 0 after event 4", VIEW_EXAMPLE),
            ),
            **problems(
                *ON_A_GAME,
                *SEAT_CALLER,
                "replay-seat-hidden",
                "seq-out-of-range",
                "seat-not-found",
                notes={
                    "replay-seat-hidden": "`as` another seat of a game in progress",
                    "seat-not-found": "`as`",
                },
            ),
        },
    ),
}
"""The operations of play, by operation id."""
