"""``/games/{id}/...``: the caller's view, legal commands, commands and replays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from litestar import Controller, Response, get
from litestar.enums import MediaType
from litestar.params import Body, FromPath, HeaderParameter, PathParameter, QueryParameter

from spies_api.http.body import body_post
from spies_api.http.dependencies import Provided
from spies_api.http.etags import IfNoneMatch, Tagged, entity_tag, is_fresh, not_modified, tagged
from spies_api.openapi.examples import COMMAND_REQUEST_EXAMPLES
from spies_api.openapi.operations import documented
from spies_api.schemas import AnyView, CommandRequest, LegalCommands, LegalForm
from spies_api.service.auth import Caller
from spies_api.service.commands import Commands
from spies_api.service.queries import GameQueries
from spies_api.settings import DEFAULTS

__all__ = ["PlayController"]

IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        min_length=1,
        description=(
            "Retry safely: the same key and body return the first response without applying"
            " the command again; the same key with another body is 422. At most the server's"
            f" `--idempotency-key-max-length` characters ({DEFAULTS.idempotency_key_max_length}"
            " unless set otherwise); a longer key is 400."
        ),
    ),
]
Form = Annotated[
    LegalForm,
    QueryParameter(
        name="form",
        description=(
            "`full` (the default): every command in `commands`. `compact`: commands that are"
            " every choice of some items of a list (a Black Spy pass: any 3 cards of the"
            " hand) as one item of `choices`, the others in `commands`."
        ),
    ),
]
AsSeat = Annotated[
    int | None,
    QueryParameter(
        name="as",
        description=(
            "View as this seat rather than the token's: any seat of a finished game,"
            " only the token's own seat of a game in progress."
        ),
    ),
]


def _tagged_read(
    kind: Tagged,
    caller: Caller,
    queries: GameQueries,
    if_none_match: str | None,
    read: Callable[[str, int | None], Any],
    extra: str = "",
) -> Response[Any]:
    """``read`` for the caller with its entity tag, or 304 when ``If-None-Match`` names the
    tag of the game's current version (checked on its record, before anything is folded)."""
    private = caller.seat is not None
    if if_none_match is not None:
        version = queries.version(caller.game_id)
        tag = entity_tag(kind, caller.game_id, version, caller.seat, extra)
        if is_fresh(if_none_match, tag):
            return not_modified(tag, private=private)
    answer = read(caller.game_id, caller.seat)
    tag = entity_tag(kind, caller.game_id, answer.version, caller.seat, extra)
    return tagged(answer, tag, private=private)


class PlayController(Controller):
    """What a seat sees and does."""

    path = "/games/{game_id:str}"
    tags = ["play"]

    @get("/view", sync_to_thread=True, **documented("getView"))
    def get_view(
        self,
        caller: Provided[Caller],
        queries: Provided[GameQueries],
        if_none_match: IfNoneMatch = None,
    ) -> Response[AnyView]:
        """The caller's view."""
        return _tagged_read(Tagged.VIEW, caller, queries, if_none_match, queries.view)

    @get("/legal", sync_to_thread=True, **documented("getLegalCommands"))
    def get_legal(
        self,
        caller: Provided[Caller],
        queries: Provided[GameQueries],
        if_none_match: IfNoneMatch = None,
        form: Form = LegalForm.FULL,
    ) -> Response[LegalCommands]:
        """The caller's legal commands."""

        def read(game_id: str, seat: int | None) -> LegalCommands:
            return queries.legal(game_id, seat, form)

        return _tagged_read(Tagged.LEGAL, caller, queries, if_none_match, read, str(form))

    @body_post("/commands", CommandRequest, "postCommand")
    async def post_command(
        self,
        data: Annotated[CommandRequest, Body(examples=COMMAND_REQUEST_EXAMPLES)],
        caller: Provided[Caller],
        commands: Provided[Commands],
        idempotency_key: IdempotencyKey = None,
    ) -> Response[bytes]:
        """Send a command."""
        reply = await commands.run(caller, data, idempotency_key)
        headers = {"Idempotent-Replayed": "true"} if reply.replayed else None
        return Response(reply.body, media_type=MediaType.JSON, headers=headers)

    @get("/replay/{seq:int}", sync_to_thread=True, **documented("getReplay"))
    def get_replay(
        self,
        game_id: FromPath[str],  # first, so the document lists the path's parameters in order
        seq: Annotated[int, PathParameter(description="The step: an event's seq.")],
        caller: Provided[Caller],
        queries: Provided[GameQueries],
        as_seat: AsSeat = None,
    ) -> AnyView:
        """A seat's view after an event."""
        return queries.replay(game_id, caller.seat, seq, as_seat=as_seat)
