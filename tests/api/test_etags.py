"""Entity tags on a game's summary, view and legal commands: ``If-None-Match`` with the tag of
the current version is 304 with no body, answered from the game's record without folding it;
a command, a rematch or another reader is a 200 with another tag."""

from __future__ import annotations

import random

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from spies_api.app import Runtime
from tests.support.api import Game, new_game, play_to_end, play_turn

READS = ("", "/view", "/legal")


def _get(
    client: TestClient[Litestar], game: Game, suffix: str, seat: int | None, tag: str | None
) -> tuple[int, str, bytes]:
    headers = dict(game.seats[seat]) if seat is not None else {}
    if tag is not None:
        headers["If-None-Match"] = tag
    response = client.get(game.url(suffix), headers=headers)
    return response.status_code, response.headers.get("etag", ""), response.content


@pytest.mark.parametrize("suffix", READS)
@pytest.mark.parametrize("seat", [0, None])
def test_a_repeat_is_304_with_no_body(
    client: TestClient[Litestar], suffix: str, seat: int | None
) -> None:
    game = new_game(client, "black-spy", 3, seed="etag-repeat")
    status, tag, body = _get(client, game, suffix, seat, None)
    assert status == 200 and body and tag.startswith('W/"'), (status, tag)
    status, again, body = _get(client, game, suffix, seat, tag)
    assert (status, again, body) == (304, tag, b"")
    assert _get(client, game, suffix, seat, f'"other", {tag}')[0] == 304  # one of a list
    assert _get(client, game, suffix, seat, tag.removeprefix("W/"))[0] == 304  # weak compare
    assert _get(client, game, suffix, seat, "*")[0] == 304
    assert _get(client, game, suffix, seat, '"other"')[0] == 200


@pytest.mark.parametrize("suffix", READS)
def test_a_command_makes_the_tag_stale(client: TestClient[Litestar], suffix: str) -> None:
    game = new_game(client, "black-spy", 3, seed="etag-command")
    _, tag, _ = _get(client, game, suffix, 1, None)
    play_turn(client, game, random.Random(3))
    status, newer, body = _get(client, game, suffix, 1, tag)
    assert status == 200 and body and newer != tag
    assert _get(client, game, suffix, 1, newer)[0] == 304


@pytest.mark.parametrize("suffix", ["/view", "/legal"])
def test_each_reader_has_its_own_tag_and_never_a_304_of_another(
    client: TestClient[Litestar], suffix: str
) -> None:
    game = new_game(client, "black-spy", 3, seed="etag-readers")
    readers: list[int | None] = [0, 1, 2, None]
    tags = {reader: _get(client, game, suffix, reader, None)[1] for reader in readers}
    assert len(set(tags.values())) == len(readers), tags
    for reader in readers:
        for other in readers:
            if other != reader:
                status, _, body = _get(client, game, suffix, reader, tags[other])
                assert status == 200 and body, (reader, other)


def test_a_rematch_makes_the_summary_stale(client: TestClient[Litestar]) -> None:
    """The rematch link is the one field of a summary that its game's version does not
    cover: the first rematch changes the finished game's tag."""
    game = new_game(client, "deck-of-spies", seed="etag-rematch")
    play_to_end(client, game, random.Random(4))
    _, tag, _ = _get(client, game, "", None, None)
    assert _get(client, game, "", None, tag)[0] == 304
    assert client.post(game.url("/rematch"), headers=game.seats[0]).status_code == 200
    status, newer, _ = _get(client, game, "", None, tag)
    assert status == 200 and newer != tag


@pytest.mark.parametrize("suffix", READS)
def test_a_304_folds_nothing(
    runtime: Runtime, client: TestClient[Litestar], suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the current tag the answer comes from the record: reading the game's state (its
    cached head, or a fold) would fail here."""
    game = new_game(client, "black-spy", 3, seed="etag-cheap")
    _, tag, _ = _get(client, game, suffix, 0, None)
    states = runtime.queries.states

    def no_state(*args: object, **kwargs: object) -> None:
        raise AssertionError("the state was read")

    for name in ("current", "head_of", "load"):
        monkeypatch.setattr(states, name, no_state)
    assert _get(client, game, suffix, 0, tag)[0] == 304
