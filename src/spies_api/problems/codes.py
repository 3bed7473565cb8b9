"""Every ``code`` the API can answer, with its status and meaning: the table of ``docs/api.md``.

Each entry names the exception class that carries the code, so its status is not written here
but computed by the one error table (:func:`spies_api.problems.table.problem_for`). A test checks
that the catalogue holds every code the source raises (less :data:`NOT_ANSWERED`, the codes
that never reach an HTTP client) and that ``docs/api.md`` holds :func:`markdown_table`
exactly. ``python -m spies_api.problems.codes`` prints the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from litestar.exceptions import HTTPException

from spies_api.problems import errors as api_errors
from spies_api.problems.rule_codes import RULE_CODES
from spies_api.problems.table import problem_for
from spies_api.schemas import NAME_MAX
from spies_api.settings import DEFAULTS, KIB
from spies_bots import UnknownBotError
from spies_core import errors as core_errors
from spies_core.clock import CLOCK_LIMITS
from spies_replay import errors as replay_errors

__all__ = ["ERROR_CODES", "NOT_ANSWERED", "ErrorCode", "markdown_table", "sample_of", "status_of"]

HTTP_INTERNAL_ERROR: Final = 500


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """One code of the API.

    Attributes:
        code: the stable ``code`` of the problem document.
        source: the exception class that carries it, or the HTTP status Litestar raises
            (a route, method or media type error), or ``"database-busy"``.
        meaning: what it means, and what to do.
    """

    code: str
    source: type[core_errors.SpiesError] | int | str
    meaning: str


def status_of(entry: ErrorCode) -> int:
    """The HTTP status the API answers with this code (from the one error table)."""
    if entry.source == HTTP_INTERNAL_ERROR:  # problem_for would log a sample bug
        return HTTP_INTERNAL_ERROR
    status, problem, _ = problem_for(sample_of(entry))
    assert problem["code"] == entry.code, (problem["code"], entry.code)
    return status


def sample_of(entry: ErrorCode) -> BaseException:
    source: Any = entry.source
    if isinstance(source, int):
        return HTTPException(status_code=source)
    if isinstance(source, str):
        return replay_errors.StoreBusyError("spies.db")
    if isinstance(source, type) and issubclass(source, api_errors.RetryLaterError):
        return source("a sample", retry_after=1)
    if source is api_errors.NotReadyError:
        return api_errors.NotReadyError("a sample", reason="draining")
    if source is replay_errors.StoreUnavailableError:
        return replay_errors.StoreUnavailableError("spies.db", "a sample")
    if source is replay_errors.StoreFullError:
        return replay_errors.StoreFullError("spies.db")
    if source is replay_errors.VersionConflictError:
        return replay_errors.VersionConflictError("g", 1, 2)
    if source is replay_errors.DeadlinePassedError:
        return replay_errors.DeadlinePassedError("g", 0, "2026-01-01T00:00:00.000000Z", 3)
    if source is replay_errors.SeqOutOfRangeError:
        return replay_errors.SeqOutOfRangeError("g", 9, 1)
    if source in (replay_errors.GameNotFoundError, replay_errors.GameNotFinishedError):
        return source("g")  # type: ignore[no-any-return]
    return source("a sample", code=entry.code)  # type: ignore[no-any-return]


ERROR_CODES: Final[tuple[ErrorCode, ...]] = (
    # -- the request ------------------------------------------------------------------------
    ErrorCode(
        "malformed-body",
        api_errors.MalformedBodyError,
        "The body is empty, not JSON, has a wrong type, a missing or unknown field, or a"
        " command of an unknown type; `detail` shows the shape to send.",
    ),
    ErrorCode(
        "invalid-parameter",
        api_errors.InvalidParameterError,
        "A query parameter or header that cannot be used; `errors` lists them and `detail`"
        " says what each takes.",
    ),
    ErrorCode(
        "unauthorized",
        api_errors.UnauthorizedError,
        "A command without a seat token, a malformed `Authorization` header, or a token of"
        " no seat: send `Authorization: Bearer <token>` from `POST /games`.",
    ),
    ErrorCode(
        "unknown-player",
        api_errors.UnauthorizedError,
        "A player token (`player.…`) the server does not know, or another token (a seat's)"
        " where a player token is needed (`GET /players/me/games`): create a player with"
        " `POST /players`; a seat token never works there, nor a player token on a game.",
    ),
    ErrorCode(
        "invalid-stream-ticket",
        api_errors.UnauthorizedError,
        "A stream's `?ticket=` that is unknown, used, expired or of another game (a ticket"
        " opens one stream, once, on the process that issued it): ask for a new one with"
        " `POST /games/{id}/seats/{seat}/stream-ticket`.",
    ),
    ErrorCode(
        "token-in-url",
        api_errors.InvalidParameterError,
        "A seat token in a URL (`?token=`), refused unread: send it as `Authorization:"
        " Bearer <token>`, or open a seat's stream with a ticket.",
    ),
    ErrorCode("forbidden", api_errors.ForbiddenError, "A seat token of another game."),
    ErrorCode(
        "not-your-seat", api_errors.ForbiddenError, "A seat's own action with another seat's token."
    ),
    ErrorCode(
        "bad-request",
        400,
        "A request refused before it reaches the API, a malformed one; one that is not"
        " well-formed HTTP/1.1 (its request line, a header or its chunked body) also closes"
        " the connection.",
    ),
    ErrorCode("not-found", 404, "No such path (see `/schema` for the paths)."),
    ErrorCode("method-not-allowed", 405, "The path does not take this method."),
    ErrorCode("not-acceptable", 406, "The `Accept` header asks for a type the API cannot send."),
    ErrorCode(
        "body-too-large",
        413,
        f"The body is over the size limit ({DEFAULTS.max_body_bytes // KIB} KiB by default).",
    ),
    ErrorCode(
        "uri-too-long",
        414,
        "A request line (the URL) that runs past the bound on a request's head"
        f" (`--max-head-bytes`, {DEFAULTS.max_head_bytes // KIB} KiB by default); the"
        " connection closes.",
    ),
    ErrorCode("unsupported-media-type", 415, "A body of a media type the API cannot read."),
    ErrorCode(
        "too-many-requests",
        429,
        "Over the per-client rate limit (`--rate-limit`; pages, docs, static files and the"
        " operators' paths: `--free-paths-rate-limit`); retry after `Retry-After` seconds.",
    ),
    ErrorCode(
        "headers-too-large",
        431,
        "Request headers that run past the bound on a request's head (`--max-head-bytes`,"
        f" {DEFAULTS.max_head_bytes // KIB} KiB by default, the request line included); the"
        " connection closes.",
    ),
    # -- games and the log ------------------------------------------------------------------
    ErrorCode("game-not-found", replay_errors.GameNotFoundError, "No game with that id."),
    ErrorCode(
        "seq-out-of-range",
        replay_errors.SeqOutOfRangeError,
        "A step outside 0 (before the first event) to the game's version.",
    ),
    ErrorCode(
        "replay-seat-hidden",
        api_errors.ReplaySeatHiddenError,
        "A replay `as` a seat of a game in progress without that seat's token: its hidden"
        " cards are secret until the end.",
    ),
    ErrorCode(
        "version-conflict",
        replay_errors.VersionConflictError,
        "`expected_game_version` is not the game's version, or `expected_version` is not and"
        " the seat acted since or its legal commands changed since (another command was"
        " recorded first);"
        " the problem carries `current_version`: fetch `/legal` again and resend.",
    ),
    ErrorCode(
        "game-not-finished",
        replay_errors.GameNotFinishedError,
        "Export or rematch of a game in progress (its seed and hidden cards are still secret).",
    ),
    # -- seats ------------------------------------------------------------------------------
    ErrorCode(
        "seat-not-found", replay_errors.SeatNotFoundError, "The game has no seat of that number."
    ),
    ErrorCode(
        "seat-taken",
        replay_errors.SeatTakenError,
        "The seat is not open (another join got there first).",
    ),
    ErrorCode("no-open-seat", replay_errors.NoOpenSeatError, "The game has no open seat left."),
    ErrorCode(
        "seat-not-handed",
        replay_errors.SeatNotHeldError,
        "Taking back a seat no bot plays for it, or handing over a seat that is a bot's from"
        " the start.",
    ),
    ErrorCode(
        "handed-seat-not-moved",
        api_errors.TakeBackTooEarlyError,
        "Taking back a seat that has not moved since it was handed to its bot (by its holder,"
        " or on time): take it back once it has moved (its bot moves when the seat is next to"
        " act).",
    ),
    ErrorCode(
        "invalid-seats",
        api_errors.InvalidSeatsError,
        "A create request's `seats` that is not one entry per seat.",
    ),
    ErrorCode(
        "deadline-passed",
        replay_errors.DeadlinePassedError,
        "The seat's clock ran out before its command arrived: the timeout is recorded instead"
        " (the time control's bot moves, or the seat forfeits); the answer has"
        " `current_version`.",
    ),
    ErrorCode(
        "invalid-clock",
        api_errors.InvalidClockError,
        "A `clock` the game cannot run: not an object, an unknown field, a number of seconds"
        f" out of its range (`turn_seconds` at least {CLOCK_LIMITS.min_turn_seconds:g},"
        f" `budget_seconds` at least {CLOCK_LIMITS.min_budget_seconds:g}, `increment_seconds`"
        f" at least 0, each at most {CLOCK_LIMITS.max_seconds:g}: a week) or not a number,"
        " neither `turn_seconds` nor `budget_seconds`,"
        " `increment_seconds` without a budget, an `on_timeout` other than `bot` or"
        " `forfeit`, `forfeit` in a game that no seat's leaving decides (Black Spy), or an"
        " `abandon_after` that is not a whole number of at least 1 with `on_timeout` `bot`.",
    ),
    ErrorCode(
        "fixed-deal-with-open-seat",
        api_errors.UnfairDealError,
        "A client `seed` or `options.deal` in a game with an open seat: the creator would know"
        " what a joiner is dealt. A chosen seed or deal is for games whose every person seat"
        " the creator holds (bot seats allowed); leave both out for a game others join.",
    ),
    ErrorCode(
        "unknown-commitment",
        api_errors.UnknownCommitmentError,
        "A `commitment_id` this server never gave (or one deleted long after it expired).",
    ),
    ErrorCode(
        "commitment-used",
        api_errors.CommitmentUsedError,
        "A `commitment_id` already used: each commitment is used by one `POST /games`, the"
        " first that names it, even one refused for another reason; ask for a new one.",
    ),
    ErrorCode(
        "commitment-expired",
        api_errors.CommitmentExpiredError,
        "A `commitment_id` past its `expires_at` (`--commitment-ttl`); ask for a new one.",
    ),
    ErrorCode(
        "invalid-entropy",
        api_errors.InvalidEntropyError,
        "`entropy` that is not 16 to 64 bytes as hex (32 to 128 hex digits), or, at"
        " creation, `entropy` without a `commitment_id` or a `commitment_id` without"
        " `entropy`.",
    ),
    ErrorCode(
        "entropy-not-accepted",
        replay_errors.EntropyNotAcceptedError,
        "Entropy where no mixed seed takes it: with a `seed` or an `options.deal` (the"
        " creator chose the cards), or a joiner's to a game not created with a commitment"
        " (its `seed_source` is not `mixed`).",
    ),
    ErrorCode(
        "invalid-name",
        api_errors.InvalidNameError,
        f"A display name that is not 1 to {NAME_MAX} printable characters.",
    ),
    ErrorCode(
        "unknown-bot", UnknownBotError, "No bot of that name, or it does not play that game."
    ),
    ErrorCode(
        "idempotency-key-reused",
        api_errors.IdempotencyKeyReusedError,
        "An `Idempotency-Key` sent again with another body or by another seat.",
    ),
    # -- creating a game --------------------------------------------------------------------
    ErrorCode(
        "unknown-game",
        core_errors.UnknownGameError,
        "Not a registered game; the detail lists them (`deck-of-spies`, `black-spy`,"
        " `spies-and-lies`).",
    ),
    ErrorCode(
        "unknown-option",
        core_errors.InvalidOptionsError,
        "An option the game does not have; the detail lists its options.",
    ),
    ErrorCode(
        "invalid-options",
        core_errors.InvalidOptionsError,
        "An option of the wrong type or out of range.",
    ),
    ErrorCode(
        "invalid-players",
        core_errors.InvalidOptionsError,
        "A number of players the game is not played by.",
    ),
    ErrorCode(
        "invalid-deal",
        core_errors.InvalidOptionsError,
        "An explicit `options.deal` that is not a complete, valid deal for the game.",
    ),
    ErrorCode(
        "invalid-seed",
        core_errors.InvalidOptionsError,
        "A `seed` that cannot be used (an empty string).",
    ),
    ErrorCode(
        "unsupported-variant",
        core_errors.InvalidOptionsError,
        "A rules variant the engine does not support (Black Spy).",
    ),
    # -- commands: the rules (any game, then each game's own) -----------------------------
    *(ErrorCode(code, source, meaning) for code, source, meaning in RULE_CODES),
    # -- the server -------------------------------------------------------------------------
    ErrorCode(
        "too-many-bot-games",
        api_errors.TooManyBotGamesError,
        "The client (by address) already has as many active bot games (with a bot seat, or a"
        " clock whose timeouts a bot plays) as allowed (`--max-bot-games-per-client`); finish"
        " one, or let one wait on a person for `bot_game_idle_seconds`, then retry"
        " (`Retry-After` says when to look again).",
    ),
    ErrorCode(
        "server-bot-games-full",
        api_errors.ServerBotGamesFullError,
        "The server already runs as many active bot games as it allows, all clients together"
        " (`--max-bot-games`); retry after `Retry-After`.",
    ),
    ErrorCode(
        "too-many-commitments",
        api_errors.TooManyCommitmentsError,
        "The client (by address) holds as many unused, unexpired seed commitments as"
        " allowed (`--max-commitments-per-client`), or the server does in all"
        " (`--max-commitments`); use one or let them expire, then retry after"
        " `Retry-After`.",
    ),
    ErrorCode(
        "too-many-players",
        api_errors.TooManyPlayersError,
        "The client (by address) created as many players as allowed in a while"
        " (`--player-rate-limit`); retry after `Retry-After`.",
    ),
    ErrorCode(
        "too-many-games",
        api_errors.TooManyGamesError,
        "The client (by address) already has as many active games it created as allowed"
        " (`--max-games-per-client`): games waiting for players until they fill, end or"
        " expire, and other games until they end or go idle; retry after `Retry-After`.",
    ),
    ErrorCode(
        "too-many-streams",
        api_errors.TooManyStreamsError,
        "The game has as many open spectator streams as allowed, or the server as many"
        " streams (a seat's own stream is still served within the server's share kept for"
        " seats); retry after `Retry-After`.",
    ),
    ErrorCode(
        "too-many-client-streams",
        api_errors.TooManyClientStreamsError,
        "The client (by address) already holds as many open event streams, its seats' and"
        " its spectators' together, as the server allows one client"
        " (`--max-streams-per-client`); close one, or retry after `Retry-After`.",
    ),
    ErrorCode(
        "database-busy",
        "database-busy",
        "Another process keeps the database locked; retry after `Retry-After`.",
    ),
    ErrorCode(
        "not-ready",
        api_errors.NotReadyError,
        "`GET /readyz` only: this process should not be sent traffic now; `reason` says why"
        " (`draining`: it is shutting down; `store-unavailable`, `database-busy`: its database;"
        " `migrations-pending`: the schema is older than this code).",
    ),
    ErrorCode(
        "store-unavailable",
        replay_errors.StoreUnavailableError,
        "The database cannot be reached for now (a server restarting, a connection lost, a"
        " disk error); nothing of the request was written. Retry after `Retry-After`, with"
        " the same `Idempotency-Key` for a command; the server reconnects by itself.",
    ),
    ErrorCode(
        "storage-full",
        replay_errors.StoreFullError,
        "The database's disk is full: nothing of the request was written (reads still"
        " work). Retry after `Retry-After`, once the operator has freed space.",
    ),
    ErrorCode(
        "internal-error",
        HTTP_INTERNAL_ERROR,
        "A bug; it is logged with its traceback, and the answer never carries its text.",
    ),
)
"""Every code the API can answer, grouped as in ``docs/api.md``."""

NOT_ANSWERED: Final = frozenset(
    {
        "corrupt-log",  # a bug or a tampered log: answered as internal-error
        "game-exists",  # import and explicit ids, spies-replay only
        "idempotency-key-exists",  # internal; answered as the stored response or -reused
        "invalid-export",  # spies-replay import only
        "duplicate-key",  # an invalid-export's code, spies-replay import only
        "unknown-field",  # an invalid-export's code, spies-replay import and verify --file only
        "invalid-seat",  # spies-replay --as only (the API takes seats from tokens)
        "orphan-events",  # a verify problem code, spies-replay only
        "ok",  # a log field, not an error
        "replay-error",  # the base class's code
        "schema-too-new",  # at start-up, before anything is served
        "seed-missing",  # verify and export of a log without its seed, spies-replay only
        "store-closed",  # at shutdown, after the store is closed: answered as internal-error
        "tampered-log",  # spies-replay import only
        "illegal-bot-command",  # a bot's bug, in spies-sim and the bot tests
        "record-diverged",  # spies-sim only
        "checkpoint-failed",  # spies-sim only
        "rematch-exists",  # internal: the caller gets the existing rematch
        "usage",  # spies-sim only
        "unavailable",  # a framework 503; none is raised (the API's own 503s have codes)
    }
)
"""Codes in the source that never reach an HTTP client, and why."""


def markdown_table() -> str:
    """The table of ``docs/api.md``: code, status, meaning."""
    lines = ["| code | status | meaning |", "|------|-------:|---------|"]
    lines += [f"| `{entry.code}` | {status_of(entry)} | {entry.meaning} |" for entry in ERROR_CODES]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(markdown_table(), end="")
