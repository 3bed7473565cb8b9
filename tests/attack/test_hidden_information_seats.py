"""Hidden information over the seat paths: joins, hand-overs to bots, bots, rematches.

A Black Spy game with a creator seat, two seats joined from the lobby and a bot seat is
played over HTTP against a real ``spies-api`` process; one joined seat is handed to a bot
and taken back; at the end every holder asks for the rematch. Then:

- every token is in exactly the answers that hand it out (create, join, rematch and its
  repeat), and in no other answer and no log line; no token hash is in any answer;
- no answer given while the game was in progress, and no log line, holds the seed or a
  hidden list (another seat's hand, a deck order) that its viewer may not see.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import msgspec

from spies_core.registry import GAMES
from spies_replay.meta import is_meta
from spies_replay.reading import read_events, redact_for
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import hash_token
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.servers import ServerProcess

from .figures import record

GUARANTEE = "hidden-information"
_encoder = msgspec.json.Encoder()


class Answers:
    """Every answer body, with its viewer and whether the game was still in progress."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.texts: list[tuple[int | None, bool, str]] = []
        self.active = True

    def call(
        self, method: str, path: str, viewer: int | None, token: str | None, **kwargs: Any
    ) -> httpx.Response:
        headers = None if token is None else {"Authorization": f"Bearer {token}"}
        response = self.http.request(method, path, headers=headers, **kwargs)
        # The answer that ends the game (its events, the summary after) reveals the seed.
        in_progress = self.active and '"status":"finished"' not in response.text
        self.texts.append((viewer, in_progress, response.text))
        return response


def hidden_lists(store: EventStore, game_id: str, viewer: int | None) -> set[str]:
    """The seed, and every list of eight items or more that redaction hides from the viewer."""
    spec = GAMES[store.get_game(game_id).game]
    secrets = store.secrets(game_id)
    assert secrets is not None
    found = {secrets.seed.hex()}
    for stored in read_events(store, game_id):
        if is_meta(stored.event):
            continue
        shown = redact_for(spec, stored.event, viewer)
        seen = {} if shown is None else msgspec.structs.asdict(shown)
        for name, value in msgspec.structs.asdict(stored.event).items():
            if isinstance(value, (list, tuple)) and len(value) >= 8 and seen.get(name) != value:
                found.add(_encoder.encode(value).decode())
    return found


def play(answers: Answers, game_id: str, tokens: dict[int, str], rng: random.Random) -> None:
    """Play the human seats at random until the end, handing seat 1 to a bot for a while
    and reading the log as every viewer now and then."""
    for turn in range(20_000):
        summary = answers.call("GET", f"/games/{game_id}", None, None).json()
        if summary["status"] == "finished":
            break
        if turn == 30:
            answers.call(
                "POST", f"/games/{game_id}/seats/1/bot", 1, tokens[1], json={"bot": "random"}
            )
        if turn == 60:
            answers.call("DELETE", f"/games/{game_id}/seats/1/bot", 1, tokens[1])
        if turn % 25 == 0:
            for seat, token in tokens.items():
                answers.call("GET", f"/games/{game_id}/events", seat, token)
            answers.call("GET", f"/games/{game_id}/events", None, None)
        humans = [seat for seat in summary["to_act"] if seat in tokens]
        if not humans:
            continue
        seat = rng.choice(humans)
        legal = answers.call("GET", f"/games/{game_id}/legal", seat, tokens[seat]).json()
        if not legal["commands"]:
            continue
        body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
        answers.call("POST", f"/games/{game_id}/commands", seat, tokens[seat], json=body)
    else:
        raise AssertionError("the game did not end")


def test_no_token_and_no_hidden_card_leaves_through_the_seat_paths(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    db, log = tmp_path / "seats.db", tmp_path / "server.log"
    server = ServerProcess(db, log)
    servers.append(server)
    server.start()
    handed_out: dict[str, int] = {}  # token -> how many answers hand it out
    with httpx.Client(base_url=server.base, timeout=30) as http:
        answers = Answers(http)
        seats = [
            {"type": "creator", "name": "Ada"},
            {"type": "open"},
            {"type": "bot", "bot": "random"},
            {"type": "open"},
        ]
        created = answers.call(
            "POST", "/games", 0, None, json={"game": "black-spy", "players": 4, "seats": seats}
        ).json()
        game_id = created["id"]
        tokens: dict[int, str] = {0: created["seats"][0]["token"]}
        handed_out[tokens[0]] = 1
        answers.call("GET", "/games?open=true", None, None)
        answers.call("GET", "/bots", None, None)
        joined = answers.call(
            "POST", f"/games/{game_id}/seats/1/join", 1, None, json={"name": "Grace"}
        ).json()
        tokens[1] = joined["token"]
        joined = answers.call(
            "POST", f"/games/{game_id}/join", 3, None, json={"name": "Bob"}
        ).json()
        tokens[3] = joined["token"]
        for token in (tokens[1], tokens[3]):
            handed_out[token] = 1
        answers.call("POST", f"/games/{game_id}/join", None, None, json={"name": "Eve"})
        play(answers, game_id, tokens, random.Random(11))
        answers.active = False
        rematch_tokens = []
        for seat, token in tokens.items():
            first = answers.call("POST", f"/games/{game_id}/rematch", seat, token).json()
            again = answers.call("POST", f"/games/{game_id}/rematch", seat, token).json()
            # the receipt signs the next game's head at the time of asking (bots may move)
            assert {**first, "receipt": None} == {**again, "receipt": None}
            handed_out[first["token"]] = 2
            rematch_tokens.append(first["token"])
        answers.call("GET", f"/games/{first['id']}", None, None)
        answers.call("GET", f"/games/{game_id}/export", None, None)
    server.stop()
    logs = log.read_text()

    for token, count in handed_out.items():
        holding = [text for _, _, text in answers.texts if token in text]
        assert len(holding) == count, f"a token is in {len(holding)} answers, not {count}"
        assert token not in logs
        digest = hash_token(token)
        assert all(digest not in text for _, _, text in answers.texts)
        assert digest not in logs
    with SQLiteEventStore(db) as store:
        secrets = {viewer: hidden_lists(store, game_id, viewer) for viewer in (None, 0, 1, 2, 3)}
    checked = 0
    for viewer, active, text in answers.texts:
        if active:
            leaked = [secret for secret in secrets[viewer] if secret in text]
            assert not leaked, f"an answer to {viewer} holds a hidden list or the seed"
            checked += 1
    game_lines = [line for line in logs.splitlines() if game_id in line]
    assert game_lines
    for line in game_lines:
        assert not [secret for secret in secrets[None] if secret in line]
    record(
        GUARANTEE,
        "test_hidden_information_seats.py::test_no_token_and_no_hidden_card_leaves_through_the_seat_paths",
        answers=len(answers.texts),
        checked_in_progress=checked,
        tokens=len(handed_out),
        log_lines=len(game_lines),
    )
