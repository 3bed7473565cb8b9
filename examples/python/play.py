"""Play one whole game through the Python client generated from ``openapi/openapi.json``.

The script holds every seat and plays a random legal command for whichever seat is to act,
until the game is over; then it prints one JSON object: the game's id, how many commands it
played, the outcome and the final view's phase (``--export FILE`` also saves the game's
log, which ``spies-replay import`` verifies). Generate and install the client in a
virtual environment of its own, start a server, and play (from the repository's root)::

    python3 -m venv .client && .client/bin/pip install -r examples/python/requirements.txt
    .client/bin/openapi-python-client generate --path openapi/openapi.json --meta setup \\
        --config examples/python/openapi-python-client.yaml --output-path build/spies-client
    .client/bin/pip install ./build/spies-client
    spies-api &
    .client/bin/python examples/python/play.py --game black-spy --players 3 --seed demo
"""

from __future__ import annotations

import argparse
import json
import random

from spies_client import AuthenticatedClient, Client
from spies_client.api.games import create_game, export_game, get_game
from spies_client.api.play import get_legal_commands, get_view, post_command
from spies_client.models import (
    BlackSpyCreateGameRequest,
    CommandRequest,
    CommandResponse,
    DeckOfSpiesCreateGameRequest,
    GameCreatedResponse,
    GameStatus,
    GameSummary,
    LegalCommands,
    Problem,
    SpiesAndLiesCreateGameRequest,
)

Create = DeckOfSpiesCreateGameRequest | BlackSpyCreateGameRequest | SpiesAndLiesCreateGameRequest
CREATE: dict[str, type[Create]] = {
    "deck-of-spies": DeckOfSpiesCreateGameRequest,
    "black-spy": BlackSpyCreateGameRequest,
    "spies-and-lies": SpiesAndLiesCreateGameRequest,
}
"""The body of ``POST /games`` for each game: its own class, with its own options."""


def play(
    base_url: str, game: str, players: int | None, seed: str, export: str | None = None
) -> dict[str, object]:
    """Create a game whose seats are all ours, play it to the end and say how it ended."""
    public = Client(base_url=base_url, raise_on_unexpected_status=True)
    request = CREATE[game].from_dict({"game": game, "players": players, "seed": seed})
    created = create_game.sync(client=public, body=request)
    if not isinstance(created, GameCreatedResponse):
        raise SystemExit(f"the server refused to create the game: {created}")
    # One client per seat: each sends its seat's secret token as `Authorization: Bearer ...`.
    seats = {
        seat.seat: AuthenticatedClient(
            base_url=base_url, token=str(seat.token), raise_on_unexpected_status=True
        )
        for seat in created.seats
    }
    choose = random.Random(seed)
    played = 0
    while True:
        summary = get_game.sync(created.id, client=public)
        assert isinstance(summary, GameSummary), summary
        if summary.status == GameStatus.FINISHED:
            break
        seat = summary.to_act[0]
        legal = get_legal_commands.sync(created.id, client=seats[seat])
        assert isinstance(legal, LegalCommands), legal
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
    args = parser.parse_args()
    print(json.dumps(play(args.base_url, args.game, args.players, args.seed, args.export)))


if __name__ == "__main__":
    main()
