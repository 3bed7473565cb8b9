"""The OpenAPI configuration of the app: the document's title, description, security scheme
and tags, and the docs page.

The app serves its document at ``/schema/openapi.json`` and interactive docs at ``/schema``
(Swagger UI, also at ``/schema/swagger``), whose scripts and style sheets come from the
package (``/assets/docs/``, see :mod:`spies_api.http.webapp`), never from a CDN. Only Swagger UI
is shipped (Redoc's bundle loads its logo from its CDN whatever the options). The committed copy,
``openapi/openapi.json``, is written by :mod:`spies_api.openapi.document`.
"""

from __future__ import annotations

import html
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Final

from litestar import Response, Router
from litestar.enums import MediaType
from litestar.exceptions import NotFoundException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme, Tag
from litestar.status_codes import HTTP_404_NOT_FOUND

from spies_api.settings import DEFAULTS, KIB

__all__ = [
    "DESCRIPTION",
    "PLAYER_TOKEN",
    "SEAT_TOKEN",
    "SWAGGER_INIT",
    "SwaggerWithoutInlineScript",
    "openapi_config",
]

_NO_FAVICON = "<link rel='icon' href='data:,'>"
"""Litestar's default favicon is on a CDN; the docs must load nothing from another host."""

SEAT_TOKEN = "seatToken"
"""The name of the bearer security scheme."""
PLAYER_TOKEN = "playerToken"
"""The name of the players' bearer security scheme."""

DESCRIPTION = """\
One engine for three spy-themed games (Deck of Spies, Black Spy, Stratego Spies & Lies).
Every action is an event in an append-only, hash-chained log; any state is rebuilt by
folding those events through the pure rules core.

**Seats and tokens.** `POST /games` returns one secret token per seat. Send it as
`Authorization: Bearer <token>` to act and to see your hidden cards; without it you are a
spectator. A token of another game is 403, any other bad token 401.

**Players (optional).** `POST /players` returns a player token: sent with `POST /games` or
a join, it makes the seats the player's, and `GET /players/me/games` gives their seat tokens
back to that player alone. A player token is not a seat token, nor a seat token a player's.

**Commands.** Post any item of `GET /games/{id}/legal` as `command`. Each game has its own
commands, tagged by `type` (`DeckOfSpiesCommand`, `BlackSpyCommand`, ...): the same `type`
may mean different commands in two games, and the path's game decides. Send
`expected_version` (the `version` of `/legal`) to refuse decisions made stale by a change of
your own legal commands (409 with `current_version`; another seat's move in a phase where
several act at once, a join or a hand-over does not refuse it), or
`expected_game_version` to refuse any other version of the game, and an `Idempotency-Key`
header to retry safely.

**Hidden information.** While a game is in progress, views, commands' events, the event
log, the stream and replays show each caller only what the rules let them see. Once it is
over, its log is public and can be exported with the revealed seed, and
`spies-replay import` / `verify` re-derive every shuffle from it.

**The log as a protocol.** The export (`GET /games/{id}/export`), the hash chain behind
`head_hash`, the seed commitment, the random stream every shuffle and deal is drawn from,
each command's events and what `verify` checks are defined byte for byte in
`docs/protocol.md` in the repository, with machine-readable test vectors in
`docs/protocol/vectors/`.

**Rules.** Descriptions cite the rule reference of the game a schema belongs to,
`docs/rules/<game>.md` in the repository: a section sign and a number name a section, `I-`
and a number an interpretation we chose.

**Errors** are RFC 9457 problem details (`application/problem+json`) with a stable `code`.

""" + (
    f"**Limits.** Request bodies over {DEFAULTS.max_body_bytes // KIB} KiB: 413"
    f" `body-too-large`. Pages: `GET /games` returns {DEFAULTS.games_page_default} games unless"
    f" `limit` says otherwise, at most {DEFAULTS.games_page_max}; `GET /games/{{id}}/events`"
    f" returns {DEFAULTS.events_page_default} events (a whole game) unless `limit` says"
    f" otherwise, at most {DEFAULTS.events_page_max}; a larger `limit` is lowered to the maximum"
    " (the answer's `limit` and `next_after` show it). Event streams: at most"
    f" {DEFAULTS.max_streams_per_game} spectators' open at once on one game, and"
    f" {DEFAULTS.max_streams_per_seat} of each seat (its next one ends its oldest); at most"
    f" {DEFAULTS.max_streams} in all, a tenth of them kept for seats; one more is 503"
    " `too-many-streams` with `Retry-After`; at most"
    f" {DEFAULTS.max_streams_per_client} of one client, seats' and spectators'"
    " together; one more is 429 `too-many-client-streams` with `Retry-After`. An"
    " `Idempotency-Key` has at most"
    f" {DEFAULTS.idempotency_key_max_length} characters. Rate limit: each client (an IPv4"
    f" address, an IPv6 /64) may send {DEFAULTS.rate_limit} (`spies-api --rate-limit`; a"
    " bucket that size, refilled at that rate); static files, pages, docs and the operators'"
    f" paths are counted in a bucket of their own, {DEFAULTS.free_paths_rate_limit}"
    " (`--free-paths-rate-limit`); over either, 429 `too-many-requests` with"
    f" `Retry-After`. A request head (request line and headers) over"
    f" {DEFAULTS.max_head_bytes // KIB} KiB is refused before the rest is read: 414"
    " `uri-too-long` in the request line, else 431 `headers-too-large` (`--max-head-bytes`);"
    " a request that is not HTTP/1.1 is 400 `bad-request`. A client may have at most"
    f" {DEFAULTS.max_bot_games_per_client} active bot games (with a bot seat, or a clock whose"
    " timeouts a bot plays); one more is 429 `too-many-bot-games` with `Retry-After`; the"
    " server admits a number of them, all clients together, sized to its machine: one more is"
    " 429 `server-bot-games-full` with `Retry-After`. A client may have created at most"
    f" {DEFAULTS.max_games_per_client} active games (a game waiting for players counts until"
    " it fills, ends or expires); one more is 429 `too-many-games` with `Retry-After`. A"
    " JSON body nested deeper than 64 levels is"
    " 400 `malformed-body`. These are the defaults of the server's settings; an operator may"
    " change them.\n"
)


def _version() -> str:
    try:
        return version("spies-engine")
    except PackageNotFoundError:  # pragma: no cover  (a source tree that is not installed)
        return "0.0.0"


SWAGGER_INIT: Final = "swagger-init.js"
"""The docs page's own script (served by the web routes under the docs' assets path): it
starts Swagger UI on the document's URL, so that the page holds no inline script."""


class SwaggerWithoutInlineScript(SwaggerRenderPlugin):
    """Swagger UI as a page that works under the server's Content-Security-Policy: scripts
    and style sheets from the server's own paths only, no inline script or style; the
    document is fetched from ``/schema/openapi.json`` by :data:`SWAGGER_INIT` (its URL in the
    page's ``data-openapi`` attribute)."""

    def __init__(self, *, init_js_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.init_js_url = init_js_url

    def render(self, request: Any, openapi_schema: dict[str, Any]) -> bytes:
        """The page: the bundle, the preset and the starter script, all from the server."""
        title = html.escape(str(openapi_schema["info"]["title"]))
        document = html.escape(self.get_openapi_json_route(request), quote=True)
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{title}</title>"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="icon" href="data:,">'
            f'<link href="{self.css_url}" rel="stylesheet"></head>'
            f'<body><div id="swagger-container" data-openapi="{document}"></div>'
            f'<script src="{self.js_url}"></script>'
            f'<script src="{self.standalone_preset_js_url}"></script>'
            f'<script src="{self.init_js_url}"></script>'
            "</body></html>\n"
        ).encode()


def _problem_for_html_404(response: Response[Any]) -> Response[Any]:
    """Litestar answers a path under ``/schema`` that no page has (``/schema/redoc``) with an
    HTML page; the API answers every unknown path with its ``not-found`` problem instead."""
    if response.status_code == HTTP_404_NOT_FOUND and response.media_type == MediaType.HTML:
        raise NotFoundException
    return response


def openapi_config(docs_assets: str) -> OpenAPIConfig:
    """The app's OpenAPI configuration (docs at ``/schema``), its pages loading their
    scripts and style sheets from ``docs_assets`` (the server's own path)."""
    return OpenAPIConfig(
        title="Spies engine API",
        version=_version(),
        description=DESCRIPTION,
        path="/schema",
        openapi_router=Router(
            "/schema",
            route_handlers=[],
            include_in_schema=False,
            dto=None,
            return_dto=None,
            after_request=_problem_for_html_404,
        ),
        render_plugins=[
            SwaggerWithoutInlineScript(
                init_js_url=f"{docs_assets}/{SWAGGER_INIT}",
                path=["/", "/swagger"],
                js_url=f"{docs_assets}/swagger-ui-bundle.js",
                css_url=f"{docs_assets}/swagger-ui.css",
                standalone_preset_js_url=f"{docs_assets}/swagger-ui-standalone-preset.js",
                favicon=_NO_FAVICON,
            ),
        ],
        components=Components(
            security_schemes={
                SEAT_TOKEN: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A seat token from POST /games; omit it to be a spectator.",
                ),
                PLAYER_TOKEN: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description=(
                        "A player token from POST /players (player.…): the seats created or"
                        " joined with it are the player's. Not a seat token."
                    ),
                ),
            }
        ),
        tags=[
            Tag(name="games", description="Create, list, summarise and export games."),
            Tag(name="play", description="Views, legal commands, commands and replays."),
            Tag(name="events", description="The event log, paged and live."),
            Tag(
                name="seats",
                description="Join a game, hand a seat to a bot and take it back, a seat's stream"
                " ticket, a rematch; the bots and the receipts' keys.",
            ),
            Tag(
                name="players",
                description="An optional identity that owns the seats it creates or joins.",
            ),
            Tag(
                name="operations",
                description="For operators: liveness and readiness (not the game API: no"
                " token; not counted by the rate limit, but by the bucket of the free paths).",
            ),
        ],
        use_handler_docstrings=False,
        create_examples=False,
    )
