"""``GET /metrics``: off by default; on, the engine's counters in Prometheus's text format,
every label from a fixed vocabulary, so no client can grow the number of series."""

from __future__ import annotations

import re
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from spies_api.settings import Settings
from tests.support.waiting import until

from .helpers import app_on, first_legal, new_game


def series(client: TestClient[Litestar]) -> dict[str, float]:
    """Every sample of ``/metrics`` by its name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    samples = {}
    for line in answer.text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def value(samples: dict[str, float], pattern: str) -> float:
    found = [v for name, v in samples.items() if re.fullmatch(pattern, name)]
    assert len(found) == 1, (pattern, [n for n in samples if n.startswith(pattern[:20])])
    return found[0]


def test_metrics_are_off_by_default(tmp_path: Path) -> None:
    assert not Settings().metrics_on
    with TestClient(app_on(tmp_path)) as client:
        assert client.get("/metrics").status_code == 404
        assert "/metrics" not in client.get("/schema/openapi.json").json()["paths"]


def test_the_engines_metrics_count_commands_appends_conflicts_and_requests(
    tmp_path: Path,
) -> None:
    with TestClient(app_on(tmp_path, metrics=True)) as client:
        before = series(client)
        game_id, seat = new_game(client)
        body = first_legal(client, game_id, seat)
        assert client.post(f"/games/{game_id}/commands", json=body, headers=seat).is_success
        stale = client.post(f"/games/{game_id}/commands", json=body, headers=seat)
        assert stale.json()["code"] == "version-conflict"
        after = series(client)

    def grew(pattern: str) -> float:
        old = [v for name, v in before.items() if re.fullmatch(pattern, name)]
        return value(after, pattern) - (old[0] if old else 0.0)

    game = 'game="deck-of-spies"'
    assert grew(rf'spies_commands_total\{{code="",{game},outcome="accepted"\}}') == 1
    assert grew(rf'spies_commands_total\{{code="version-conflict",{game},outcome="refused"\}}') == 1
    assert grew(rf"spies_command_duration_seconds_count\{{{game}\}}") == 2
    assert grew(rf'spies_appends_total\{{{game},kind="command"\}}') == 1
    assert grew(rf'spies_appends_total\{{{game},kind="created"\}}') == 1
    assert grew(r"spies_version_conflicts_total") == 1
    route = r'app_name="spies-api",method="POST",path="/games/\{game_id\}/commands"'
    assert grew(rf'spies_requests_total\{{{route},status_code="409"\}}') == 1
    assert "spies_open_streams" in after


def test_clients_cannot_grow_the_number_of_series(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path, metrics=True)) as client:
        game_id, seat = new_game(client)

        def hostile_round(n: int) -> None:
            client.get(f"/no/such/path/{n}")
            client.get(f"/games/missing-{n}")
            client.get(f"/games/missing-{n}/view", headers={"Authorization": f"Bearer t{n}"})
            client.post(f"/games/missing-{n}/commands", json={"command": {"type": f"x{n}"}})
            client.post(
                f"/games/{game_id}/commands",
                json={"command": {"type": f"made-up-{n}"}, "expected_version": n},
                headers={**seat, "Idempotency-Key": f"key-{n}"},
            )
            client.get(f"/games?game=game-{n}&status=s{n}")
            client.get(f"/games/{game_id}/replay/{1000 + n}", headers={"X-Anything": str(n)})
            client.request(f"BREW{n % 3}", f"/games/{n}")

        hostile_round(0)  # each route and status seen once
        counted = series(client)
        for n in range(1, 120):
            hostile_round(n)
        now = series(client)
    assert set(now) == set(counted), sorted(set(now) ^ set(counted))
    labels = "".join(now)
    assert "missing-" not in labels and "made-up" not in labels and "key-" not in labels
    assert "/no/such" not in labels


def test_bot_decisions_are_counted_by_bot_and_game(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path, metrics=True, scheduler_poll_seconds=0.05)) as client:
        pattern = r'spies_bot_decisions_total\{bot="random",game="black-spy",outcome="chosen"\}'
        before = [v for name, v in series(client).items() if re.fullmatch(pattern, name)]
        seats = [{"type": "bot", "bot": "random"}] * 4
        created = client.post("/games", json={"game": "black-spy", "players": 4, "seats": seats})
        assert created.status_code == 201, created.text

        def counted() -> bool:  # the bots play the game
            now = [v for name, v in series(client).items() if re.fullmatch(pattern, name)]
            return bool(now) and now[0] > (before[0] if before else 0)

        until(counted, every=0.05, what="a bot decision counted")
        seconds = series(client)
        assert any(
            name.startswith('spies_bot_decision_seconds_count{bot="random",game="black-spy"}')
            for name in seconds
        )
