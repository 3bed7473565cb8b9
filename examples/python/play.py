"""Play one whole game through the Python client generated from ``openapi/openapi.json``.

The script holds every seat and plays a random legal command for whichever seat is to act,
until the game is over; then it prints one JSON object: the game's id, how many commands it
played, the outcome and the final view's phase (``--export FILE`` also saves the game's
log, which ``spies-replay import`` verifies).

A good client of a shared server: it paces its requests below the server's default rate
limit (``--rate``, requests a second), waits out a 429 or 503 for as long as its
``Retry-After`` says, and should it stop before the end (an error, Ctrl+C), hands its seats
to the ``random`` bot, which plays the game to its end instead of leaving it in everyone's
list. Generate and install the client in a virtual environment of its own, start a server,
and play (from the repository's root)::

    python3 -m venv .client && .client/bin/pip install -r examples/python/requirements.txt
    PATH="$PWD/.client/bin:$PATH" openapi-python-client generate --path openapi/openapi.json \\
        --meta setup --config examples/python/openapi-python-client.yaml \\
        --output-path build/spies-client --overwrite --fail-on-warning
    .client/bin/pip install ./build/spies-client
    spies-api &
    .client/bin/python examples/python/play.py --game black-spy --players 3 --seed demo
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import threading
import time
from typing import cast

import httpx
from spies_client import AuthenticatedClient, Client
from spies_client.api.games import create_game, export_game, get_game
from spies_client.api.play import get_legal_commands, get_view, post_command
from spies_client.api.seats import hand_seat_to_bot
from spies_client.models import (
    BlackSpyCreateGameRequest,
    BlackSpyLegalCommands,
    BlackSpySummary,
    BotRequest,
    CommandRequest,
    CommandResponse,
    DeckOfSpiesCreateGameRequest,
    DeckOfSpiesLegalCommands,
    DeckOfSpiesSummary,
    GameCreatedResponse,
    GameStatus,
    Problem,
    SpiesAndLiesCreateGameRequest,
    SpiesAndLiesLegalCommands,
    SpiesAndLiesSummary,
)

Create = DeckOfSpiesCreateGameRequest | BlackSpyCreateGameRequest | SpiesAndLiesCreateGameRequest
CREATE: dict[str, type[Create]] = {
    "deck-of-spies": DeckOfSpiesCreateGameRequest,
    "black-spy": BlackSpyCreateGameRequest,
    "spies-and-lies": SpiesAndLiesCreateGameRequest,
}
"""The body of ``POST /games`` for each game: its own class, with its own options."""

SUMMARIES = (DeckOfSpiesSummary, BlackSpySummary, SpiesAndLiesSummary)
"""A game's summary is of its game's class (tagged by ``game``), with that game's options."""

LEGAL = (DeckOfSpiesLegalCommands, BlackSpyLegalCommands, SpiesAndLiesLegalCommands)
"""The legal commands of a game are of its game's class, with that game's commands."""


RETRIED_STATUSES = (429, 503)
"""Answers that mean "not now": too many requests, or the server busy or draining."""

MAX_WAITS = 20
"""How many of those answers in a row one request waits out before giving up."""

MAX_RETRY_AFTER = 60.0
"""The longest single wait, in seconds, whatever a ``Retry-After`` says."""


class PacedTransport(httpx.BaseTransport):
    """httpx's transport, paced and patient: at most ``rate`` requests a second (the server
    counts per client address, so one transport serves every seat), and a 429 or 503 is sent
    again after its ``Retry-After`` (the generated client has no retry of its own).

    Attributes:
        waits: how many answers were waited out, for the caller to report.
    """

    def __init__(self, rate: float) -> None:
        self._inner = httpx.HTTPTransport()
        self._interval = 1.0 / rate if rate > 0 else 0.0
        self._next = time.monotonic()
        self._lock = threading.Lock()
        self.waits = 0

    def _pace(self) -> None:
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self._interval
        if start > now:
            time.sleep(start - now)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``, paced; wait out and resend a 429 or 503 with ``Retry-After``."""
        for _ in range(MAX_WAITS):
            self._pace()
            response = self._inner.handle_request(request)
            after = response.headers.get("Retry-After")
            if response.status_code not in RETRIED_STATUSES or after is None:
                return response
            response.read()
            response.close()
            self.waits += 1
            try:
                seconds = float(after)
            except ValueError:  # an HTTP date: wait a second and ask again
                seconds = 1.0
            time.sleep(min(max(seconds, 0.0), MAX_RETRY_AFTER))
        self._pace()
        return self._inner.handle_request(request)

    def close(self) -> None:
        """Close the connections."""
        self._inner.close()


def play(
    base_url: str,
    game: str,
    players: int | None,
    seed: str,
    export: str | None = None,
    rate: float = 40.0,
) -> dict[str, object]:
    """Create a game whose seats are all ours, play it to the end and say how it ended.

    ``rate`` paces the requests (requests a second; 0: unpaced, relying on ``Retry-After``).
    """
    transport = PacedTransport(rate)
    http = {"transport": transport}
    public = Client(base_url=base_url, raise_on_unexpected_status=True, httpx_args=http)
    request = CREATE[game].from_dict({"game": game, "players": players, "seed": seed})
    # The generator types an operation with any security as taking an AuthenticatedClient,
    # though `POST /games` also takes no token (its security lists `{}`): without a player
    # token the plain client is what it takes.
    created = create_game.sync(client=cast(AuthenticatedClient, public), body=request)
    if not isinstance(created, GameCreatedResponse):
        raise SystemExit(f"the server refused to create the game: {created}")
    # One client per seat: each sends its seat's secret token as `Authorization: Bearer ...`.
    seats = {
        seat.seat: AuthenticatedClient(
            base_url=base_url,
            token=str(seat.token),
            raise_on_unexpected_status=True,
            httpx_args=http,
        )
        for seat in created.seats
    }
    try:
        result = _play_to_the_end(created, public, seats, seed, export)
    except BaseException:
        _leave_to_bots(created.id, seats)
        raise
    return {**result, "waits": transport.waits}


def _leave_to_bots(game_id: str, seats: dict[int, AuthenticatedClient]) -> None:
    """Hand every seat we hold to the ``random`` bot: the game plays itself to its end on
    the server rather than waiting for ever on a client that is gone."""
    for seat, client in seats.items():
        # best effort on the way out: the error that stopped the game is the one reported
        with contextlib.suppress(Exception):
            hand_seat_to_bot.sync(game_id, seat, client=client, body=BotRequest(bot="random"))


def _play_to_the_end(
    created: GameCreatedResponse,
    public: Client,
    seats: dict[int, AuthenticatedClient],
    seed: str,
    export: str | None,
) -> dict[str, object]:
    """Play a random legal command for whichever seat is to act until the game is over."""
    choose = random.Random(seed)
    played = 0
    while True:
        summary = get_game.sync(created.id, client=public)
        assert isinstance(summary, SUMMARIES), summary
        if summary.status == GameStatus.FINISHED:
            break
        seat = summary.to_act[0]
        legal = get_legal_commands.sync(created.id, client=seats[seat])
        assert isinstance(legal, LEGAL), legal
        # Any item of the legal list can be posted back as it is; `expected_version`
        # refuses it (409) should the game have moved on meanwhile.
        chosen = choose.choice(legal.commands)
        command = CommandRequest(command=chosen, expected_version=legal.version)
        answer = post_command.sync(created.id, client=seats[seat], body=command)
        if not isinstance(answer, CommandResponse):
            raise SystemExit(f"seat {seat}'s command {command.to_dict()} was refused: {answer}")
        played += 1
    view = get_view.sync(created.id, client=seats[0])  # seat 0's view, now of the finished game
    assert view is not None and not isinstance(view, Problem), view
    assert summary.outcome is not None
    if export is not None:  # JSON Lines: the header, then every event with its hash
        log = export_game.sync(created.id, client=public)
        assert isinstance(log, str), log
        with open(export, "w", encoding="utf-8") as file:
            file.write(log)
    return {
        "id": created.id,
        "game": created.game,
        "players": created.players,
        "commands": played,
        "version": summary.version,
        "outcome": summary.outcome.to_dict(),
        "final_phase": str(view.phase),
    }


def main() -> None:
    """Parse the command line, play one game, print how it ended as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="deck-of-spies", choices=sorted(CREATE))
    parser.add_argument("--players", type=int, default=None, help="default: the game's minimum")
    parser.add_argument("--seed", default="python-client", help="makes the game reproducible")
    parser.add_argument("--export", metavar="FILE", help="save the finished game's log here")
    parser.add_argument(
        "--rate",
        type=float,
        default=40.0,
        help="requests a second at most (the server's default limit is 50); 0: unpaced",
    )
    args = parser.parse_args()
    result = play(args.base_url, args.game, args.players, args.seed, args.export, args.rate)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
