"""A front end on another origin: a page served elsewhere creates, plays and follows a game
with ``fetch`` and ``EventSource`` alone (CORS for the origin the operator lists, a seat's
stream opened with a ticket)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from spies_api import Settings
from tests.support.servers import serve_in_thread
from tests.web.helpers import DESKTOP

PAGE = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>A stranger's front end</title></head>
<body><script>
window.play = async (api) => {
  const seen = [];
  const json = async (answer) => {
    if (!answer.ok) throw new Error(answer.status + " " + (await answer.text()));
    return answer.json();
  };
  const call = (path, token, body) => fetch(api + path, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...(body === undefined ? {} : {"Content-Type": "application/json"}),
      ...(token ? {Authorization: "Bearer " + token} : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await call("/games", null, {game: "deck-of-spies", seed: "cross-origin"});
  const location = answer.headers.get("Location");
  const created = await json(answer);
  const token = created.seats[0].token;
  const game = created.id;
  const {ticket} = await json(await call(`/games/${game}/seats/0/stream-ticket`, token, {}));
  const ended = new Promise((resolve, reject) => {
    const source = new EventSource(`${api}/games/${game}/events/stream?ticket=${ticket}`);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      seen.push({id: Number(message.lastEventId), type: event.type});
      if (event.type === "seed_revealed") { source.close(); resolve(); }
    };
    source.onerror = () => { source.close(); reject(new Error("stream failed")); };
  });
  for (let moves = 0; moves < 2000; moves++) {
    const summary = await json(await call(`/games/${game}`));
    if (summary.status === "finished") break;
    const legal = await json(await call(`/games/${game}/legal`, token));
    await json(await call(`/games/${game}/commands`, token, {command: legal.commands[0]}));
  }
  await ended;
  const summary = await json(await call(`/games/${game}`));
  return {location, game, version: summary.version, status: summary.status, seen};
};
</script></body></html>
"""


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: Any) -> None:
        del args  # quiet


@pytest.fixture
def front() -> Iterator[str]:
    """The origin of a page served by another server than the API."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_on_another_origin_plays_and_follows_a_game(
    browser: Browser, front: str, tmp_path: Path
) -> None:
    settings = Settings(
        db_path=tmp_path / "cors.db",
        sse_keepalive_seconds=1.0,
        sse_poll_seconds=0.2,
        cors_origins=(front,),
        log_json=True,
    )
    with serve_in_thread(settings) as (api, _app):
        assert front != api  # two origins (another port): the browser applies CORS
        context = browser.new_context(viewport=DESKTOP)
        context.set_default_timeout(60_000)
        errors: list[str] = []
        try:
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(front + "/")
            result = page.evaluate("(api) => window.play(api)", api)
        finally:
            context.close()
    assert errors == []
    assert result["status"] == "finished"
    assert result["location"] == f"/games/{result['game']}"  # an exposed header
    seen = result["seen"]
    assert [event["id"] for event in seen] == list(range(1, result["version"] + 1))
    assert seen[-1]["type"] == "seed_revealed"


def test_a_page_on_an_unlisted_origin_cannot_read_the_api(
    browser: Browser, front: str, tmp_path: Path
) -> None:
    settings = Settings(db_path=tmp_path / "cors.db", log_json=True)  # no origin listed
    with serve_in_thread(settings) as (api, _app):
        context = browser.new_context(viewport=DESKTOP)
        try:
            page = context.new_page()
            page.goto(front + "/")
            outcome = page.evaluate(
                "(api) => fetch(api + '/games').then(() => 'read', (e) => 'refused: ' + e)", api
            )
        finally:
            context.close()
    assert outcome.startswith("refused")
