"""``spies-replay copy --from SRC --to DST``: every game, in progress or finished, moves
between any two backends with its hashes, seed, seat tokens, idempotency records and
rematch link intact, and ``verify --all`` passes on the copy; players and their seats move
too, never into an export. SQLite to SQLite always;
SQLite to PostgreSQL (and back) when ``SPIES_TEST_POSTGRES_URL`` is set."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from spies_api.game import IdempotencyRequest, create_game, submit_command
from spies_api.service.keys import ReceiptKeys
from spies_api.service.players import player_seat_token
from spies_replay.cli import main
from spies_replay.meta import SeatState, SeatType
from spies_replay.reading import load_state
from spies_replay.receipts import new_key
from spies_replay.store.keyring import add_key, ensure_key, read_keys
from spies_replay.store.players import add_player, find_player, owned_seats
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import SeatOwner, hash_token
from spies_replay.store.sql import SqlEventStore
from spies_replay.transfer import export_lines
from tests.support.backends import BACKENDS, Backend, fresh_backend
from tests.support.counter import finish, new_game, play
from tests.support.countergame import GAMES, Bump


@pytest.fixture(params=BACKENDS)
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    (tmp_path / "target").mkdir()
    with fresh_backend(request.param, tmp_path / "target") as found:
        yield found


@pytest.fixture
def source(tmp_path: Path) -> Iterator[Backend]:
    with fresh_backend("sqlite", tmp_path) as found:
        yield found


def fill(store: EventStore) -> dict[str, str]:
    """A finished game with its rematch in progress, one with an open seat, an idempotency
    record; returns the tokens to check."""
    first = new_game(store, target=6)
    finish(store, first.record.id)
    rematch = create_game(
        store, "counter", 2, {"target": 30}, rematch_of=first.record.id, games=GAMES
    )
    version = play(store, rematch.record.id, 4)
    key = IdempotencyRequest("k1", "f1")
    turn = load_state(store, rematch.record.id, games=GAMES).state.turn
    submit_command(
        store, rematch.record.id, turn, Bump(by=1), version=version, idempotency=key, games=GAMES
    )
    # a lobby game waits, undealt, for its open seat
    seats = [SeatState(seat=0), SeatState(seat=1, type=SeatType.OPEN)]
    lobby = create_game(
        store, "counter", 2, {}, seats=seats, tokens={0: "lobby-token"}, games=GAMES
    )
    return {"rematch": rematch.record.id, "lobby": lobby.record.id, "first": first.record.id}


def cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(list(args), games=GAMES, stdin=io.StringIO(""))
    return status, capsys.readouterr().out


def test_copy_moves_every_game_with_its_hashes(
    source: Backend, target: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    with source.open() as store:
        ids = fill(store)
        before = {g: store.get_game(g) for g in store.game_ids()}
    status, out = cli("copy", "--from", source.location, "--to", target.location, capsys=capsys)
    assert status == 0, out
    assert out.splitlines()[-1] == "3 copied, 0 already there, 0 different (left alone)"
    status, out = cli("--db", target.location, "verify", "--all", capsys=capsys)
    assert status == 0 and out.splitlines()[-1] == "3 games verified, 0 with problems", out
    with target.open() as copied:
        assert {g: copied.get_game(g) for g in copied.game_ids()} == before
        assert copied.rematch_links(ids["rematch"]) == (ids["first"], None)
        assert copied.check_token(ids["lobby"], "lobby-token") == 0
        assert copied.seat_states(ids["lobby"])[1].type is SeatType.OPEN
        record = copied.get_idempotency(ids["rematch"], "k1")
        assert record is not None
        assert msgspec.json.decode(record.result)["seqs"] == [14, 15]  # kept as written
        loaded = load_state(copied, ids["rematch"], games=GAMES)  # the copy plays on
        seat = next(iter(GAMES["counter"].to_act(loaded.state)))
        submit_command(copied, ids["rematch"], seat, Bump(by=1), version=loaded.seq, games=GAMES)
    status, out = cli("copy", "--from", source.location, "--to", target.location, capsys=capsys)
    assert status == 1
    assert out.splitlines()[-1] == "0 copied, 2 already there, 1 different (left alone)"


def test_copy_json_names_each_game(
    source: Backend, target: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    with source.open() as store:
        fill(store)
    status, out = cli(
        "--json", "copy", "--from", source.location, "--to", target.location, capsys=capsys
    )
    answer = msgspec.json.decode(out)
    assert status == 0 and answer["ok"] is True
    assert [game["outcome"] for game in answer["games"]] == ["copied"] * 3


def test_copy_carries_the_receipt_signing_keys(
    source: Backend, target: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    """Receipts signed over the source keep verifying against the target's keys: the keys
    move with the games, the source's current key still signing in a target without one."""
    with source.open() as store:
        assert isinstance(store, SqlEventStore)
        old = ensure_key(store, new_key)
        current = add_key(store, *new_key())
    status, out = cli("copy", "--from", source.location, "--to", target.location, capsys=capsys)
    assert status == 0, out
    with target.open() as copied:
        assert isinstance(copied, SqlEventStore)
        rows = read_keys(copied)
        assert {(row.key_id, row.current) for row in rows} == {
            (old.key_id, False),
            (current.key_id, True),
        }
        assert ReceiptKeys.open(copied).signer.key_id == current.key_id


def test_copy_carries_players_and_their_seats_never_into_an_export(
    source: Backend, target: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player keeps its way back to its seats on the copy: the player (its token's hash)
    and its seats (their salts) move with the games, so the player's token still derives
    each seat's token; a seat of a game the target holds differently stays behind, and an
    export of the game names no player."""
    player_token, salt = "player.ada-token", "ada-salt"
    seat_token = player_seat_token(player_token, salt)
    with source.open() as store:
        assert isinstance(store, SqlEventStore)
        ada = add_player(store, "ada-player", hash_token(player_token), "Ada", "2026-01-01Z")
        add_player(store, "bo", hash_token("player.bo-token"), None, "2026-01-02Z")
        for game_id in ("kept", "clashing"):
            create_game(
                store,
                "counter",
                2,
                {"target": 6},
                game_id=game_id,
                tokens={0: seat_token},
                owners={0: SeatOwner(ada.player_id, salt)},
                games=GAMES,
            )
        finish(store, "kept")
        export = b"".join(export_lines(store, "kept"))
    assert b"ada-player" not in export and salt.encode() not in export
    with target.open() as there:  # another game under one of the ids
        create_game(there, "counter", 2, {}, game_id="clashing", games=GAMES)
    status, out = cli(
        "--json", "copy", "--from", source.location, "--to", target.location, capsys=capsys
    )
    answer = msgspec.json.decode(out)
    assert status == 1 and (answer["players"], answer["owned_seats"]) == (2, 1)
    with target.open() as copied:
        assert isinstance(copied, SqlEventStore)
        assert find_player(copied, hash_token(player_token)) == ada
        seats, total = owned_seats(copied, "ada-player", limit=10, offset=0)
        assert total == 1 and [(s.game_id, s.seat, s.token_salt) for s in seats] == [
            ("kept", 0, salt)
        ]
        assert copied.check_token("kept", seat_token) == 0  # the way back still opens it
    status, out = cli("copy", "--from", source.location, "--to", target.location, capsys=capsys)
    assert "0 players and 0 of their seats copied" in out.splitlines()  # run again: nothing new
