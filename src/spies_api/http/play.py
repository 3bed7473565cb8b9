"""``/games/{id}/...``: the caller's view, legal commands, commands and replays."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, get
from litestar.enums import MediaType
from litestar.params import Body, FromPath, HeaderParameter, PathParameter, QueryParameter

from spies_api.http.body import body_post
from spies_api.http.dependencies import Provided
from spies_api.openapi.examples import COMMAND_REQUEST_EXAMPLES
from spies_api.openapi.operations import documented
from spies_api.schemas import AnyView, CommandRequest, LegalCommands
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


class PlayController(Controller):
    """What a seat sees and does."""

    path = "/games/{game_id:str}"
    tags = ["play"]

    @get("/view", sync_to_thread=True, **documented("getView"))
    def get_view(self, caller: Provided[Caller], queries: Provided[GameQueries]) -> AnyView:
        """The caller's view."""
        return queries.view(caller.game_id, caller.seat)

    @get("/legal", sync_to_thread=True, **documented("getLegalCommands"))
    def get_legal(self, caller: Provided[Caller], queries: Provided[GameQueries]) -> LegalCommands:
        """The caller's legal commands."""
        return queries.legal(caller.game_id, caller.seat)

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
