"""Compressed answers: an answer over ``compress_min_bytes`` is gzipped for a client that
takes gzip, the same JSON once decoded; a small one is not; the kept answers (the web
client's bundle) are gzipped once, not twice; and the event stream is never compressed, so
each message still arrives as it is sent."""

from __future__ import annotations

import dataclasses
import random

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api import Settings
from spies_api.app import create_app
from tests.support.api import new_game, parse_sse, play_turn
from tests.support.streams import streaming_server

GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}


def _raw(client: TestClient[Litestar], url: str, headers: dict[str, str]) -> httpx.Response:
    """The answer, decoded by httpx (``num_bytes_downloaded`` is its size as sent)."""
    return client.get(url, headers=headers)


def test_a_passing_legal_list_is_gzipped_and_decodes_to_the_same_answer(
    client: TestClient[Litestar],
) -> None:
    game = new_game(client, "black-spy", 3, seed="gzip-pass")
    seat = client.get(game.url()).json()["to_act"][0]
    url, headers = game.url("/legal"), game.seats[seat]
    plain = _raw(client, url, {**headers, **IDENTITY})
    squeezed = _raw(client, url, {**headers, **GZIP})
    assert "content-encoding" not in plain.headers
    assert squeezed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in squeezed.headers["vary"].lower()
    assert "authorization" in squeezed.headers["vary"].lower()  # the tag's Vary is kept
    assert squeezed.json() == plain.json()  # httpx gunzipped it, once
    assert plain.num_bytes_downloaded == len(plain.content)
    assert squeezed.num_bytes_downloaded * 4 < plain.num_bytes_downloaded
    assert squeezed.headers["etag"] == plain.headers["etag"]  # weak: one tag for both


def test_a_small_answer_is_not_compressed(client: TestClient[Litestar]) -> None:
    response = _raw(client, "/healthz", GZIP)
    assert response.status_code == 200
    assert "content-encoding" not in response.headers


def test_the_web_bundle_is_gzipped_once(app: Litestar) -> None:
    """The assets are gzipped by the kept answers, never again by the app's compression."""
    with TestClient(app=app) as client:  # the pages and assets are not in the document
        page = client.get("/").text
        script = next(part.split('"')[0] for part in page.split('src="')[1:])
        answers = [_raw(client, script, GZIP) for _ in range(2)]  # filled, then kept
    for response in answers:
        assert response.status_code == 200 and response.headers["content-encoding"] == "gzip"
        assert response.num_bytes_downloaded < len(response.content)
        assert not response.content.startswith(b"\x1f\x8b")  # gunzipped once: no gzip left


def test_compression_off_sends_every_answer_as_it_is(settings: Settings) -> None:
    off = dataclasses.replace(settings, compress_min_bytes=None)
    with TestClient(app=create_app(off)) as client:
        game = new_game(client, "black-spy", 3, seed="gzip-off")
        response = _raw(client, game.url("/legal"), {**game.seats[0], **GZIP})
        assert "content-encoding" not in response.headers


@pytest.mark.parametrize("accept", ["gzip", "gzip, deflate, br"])
def test_the_event_stream_is_not_compressed_and_flushes_each_message(
    settings: Settings, accept: str
) -> None:
    """A compressor would hold the stream's messages back until it had enough of them: the
    stream of a client that takes gzip is sent as it is, each message when it happens."""
    with streaming_server(settings) as served:
        game = new_game(served.http, "black-spy", 3, seed="gzip-stream")  # type: ignore[arg-type]
        stream = served.raw.open(
            game.url("/events/stream"), {**game.seats[0], "Accept-Encoding": accept}
        )
        assert stream.status == 200
        assert "content-encoding" not in stream.headers
        served.raw.wait(lambda: any(m.get("event") == "snapshot" for m in parse_sse(stream.text)))
        before = len(stream.ids())
        play_turn(served.http, game, random.Random(5))  # type: ignore[arg-type]
        served.raw.wait(lambda: len(stream.ids()) > before)  # the game goes on: not ended
        assert not stream.ended
