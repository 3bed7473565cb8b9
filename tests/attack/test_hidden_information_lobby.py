"""Hidden information in the lobby: before the last open seat is taken, nothing is dealt.

Once, the creator of a lobby game saw its hand before anyone joined, so it could create
games until it liked a deal. For every registered game, a table is created with seat 0 the
creator's (a one-seat game: that seat open, the creator a spectator) and every other seat
open, on a live server. Until the last join, the creator's view (and a spectator's), legal
list, events, replay steps and event stream hold no game event and no card: the view is
exactly the core's view of the table before its deal (``before_deal``: its seats and
options, nothing drawn), ``dealt`` false. The last join deals,
and the creator's stream then brings the setup events as its seat may see them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from spies_api import Settings
from spies_api.service.answers import outgoing
from spies_core.registry import GAMES
from spies_core.step import Table, view_at
from spies_replay.meta import META_TYPES
from spies_replay.reading import read_events
from spies_replay.store.sqlite import SQLiteEventStore
from tests.support.streams import streaming_server

from .figures import record

GUARANTEE = "hidden-information"


def as_json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def stream_events(text: str) -> list[tuple[int, dict[str, Any]]]:
    found = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        lines = block.split("\n")
        ids = [int(line[4:]) for line in lines if line.startswith("id: ")]
        data = [line[6:] for line in lines if line.startswith("data: ")]
        if ids and data:
            found.append((ids[0], msgspec.json.decode(data[0])))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_before_the_last_join_the_creator_sees_nothing_dealt(tmp_path: Path, game: str) -> None:
    spec = GAMES[game]
    players = spec.min_players
    creator = 0 if players > 1 else None  # a one-seat table: the creator only watches
    seats = [
        {"type": "creator"} if seat == creator else {"type": "open"} for seat in range(players)
    ]
    settings = Settings(db_path=tmp_path / "spies.db", sse_keepalive_seconds=0.05)
    with streaming_server(settings) as server:
        http, raw = server.http, server.raw
        created = http.post("/games", json={"game": game, "seats": seats}).json()
        game_id = created["id"]
        token = None if creator is None else created["seats"][0]["token"]
        mine = {} if token is None else {"Authorization": f"Bearer {token}"}
        stream = raw.open(f"/games/{game_id}/events/stream", mine)
        watcher = raw.open(f"/games/{game_id}/events/stream")
        open_seats = [seat for seat in range(players) if seat != creator]
        answers: list[tuple[str, Any]] = []
        for seat in open_seats:
            version = http.get(f"/games/{game_id}").json()["version"]
            raw.wait(lambda v=version: stream.ids()[-1:] == [v] and watcher.ids()[-1:] == [v])
            for viewer, headers in ((creator, mine), (None, {})):
                view = http.get(f"/games/{game_id}/view", headers=headers).json()
                table = Table(players, {})
                initial = view_at(spec, spec.initial_state(), viewer, version, None, table)
                names = [held["name"] for held in http.get(f"/games/{game_id}").json()["seats"]]
                expected = as_json(initial) | {"clock": None, "dealt": False, "names": names}
                assert view == expected, (game, viewer)
                answers.append(("view", view))
                legal = http.get(f"/games/{game_id}/legal", headers=headers).json()
                assert legal["commands"] == [] and "waiting for players" in legal["note"]
                events = http.get(f"/games/{game_id}/events", headers=headers).json()
                answers += [("event", e) for e in events["events"]]
                for step in range(version + 1):
                    replayed = http.get(f"/games/{game_id}/replay/{step}", headers=headers)
                    assert replayed.json()["dealt"] is False
            summary = http.get(f"/games/{game_id}").json()
            assert summary["to_act"] == []
            answers += [("event", data) for _, data in stream_events(stream.text)]
            answers += [("event", data) for _, data in stream_events(watcher.text)]
            before = version
            joined_answer = http.post(f"/games/{game_id}/seats/{seat}/join", json={"name": "p"})
            assert joined_answer.status_code == 200, joined_answer.text
        leaked = [answer for kind, answer in answers if kind == "event"]
        assert {event["type"] for event in leaked} <= META_TYPES, "a game event before the deal"

        # the last join dealt: the creator's stream brings the deal as its seat may see it
        after = http.get(f"/games/{game_id}").json()
        assert after["to_act"], "the last join deals"
        raw.wait(lambda: stream.ids()[-1:] == [after["version"]])
        with SQLiteEventStore(settings.db_path) as store:
            logged = read_events(store, game_id, after=before + 1)
        sent = [data for seq, data in stream_events(stream.text) if seq > before + 1]
        assert sent == as_json(outgoing(spec, creator, logged, finished=False))
        assert any(event["type"] not in META_TYPES for event in sent)
    record(
        GUARANTEE,
        f"test_hidden_information_lobby.py::{game}",
        answers_before_the_deal=len(answers),
    )
