"""An explicit ``options.deal`` lays out hidden cards, so it is secret until the end like
the seed: the public ``game_created`` event and the game record carry the options without it
and a salted commitment; ``seed_revealed`` discloses it; verify re-derives with it."""

from __future__ import annotations

from pathlib import Path
from random import Random

import msgspec

from spies_api.game import create_game, submit_command
from spies_core.cards import ALL_CARDS
from spies_core.registry import GAMES, get_game
from spies_replay.codec import FORMAT_3, codec_for, deal_commitment, genesis_hash, seal
from spies_replay.meta import GameCreated, SeedRevealed
from spies_replay.reading import read_events
from spies_replay.store.protocols import EventStore
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.transfer import export_lines, import_game
from spies_replay.verify import Rederivation, verify_game, verify_log

GAME = "deck-of-spies"
DEAL = {
    "spies": ["5C", *[c for c in ALL_CARDS if c[:-1] in {"5", "6"} and c != "5C"]],
    "draw": [c for c in ALL_CARDS if c[:-1] not in {"5", "6"}],
}
OPTIONS = {"strict_necessity": True, "deal": DEAL}


def _finish(store: EventStore) -> str:
    created = create_game(store, GAME, 1, OPTIONS, seed="deal-test")
    spec = get_game(GAME)
    state, version, rng = created.state, created.record.version, Random(1)
    while spec.outcome(state) is None:
        command = rng.choice(spec.legal_commands(state, 0))
        result = submit_command(store, created.record.id, 0, command, state=state, version=version)
        state, version = result.state, result.version
    return created.record.id


def test_deal_is_hidden_until_the_end_and_revealed_with_the_seed(tmp_path: Path) -> None:
    with SQLiteEventStore(tmp_path / "a.db") as store:
        created = create_game(store, GAME, 1, OPTIONS, seed="deal-test")
        first = created.events[0].event
        assert isinstance(first, GameCreated)
        assert "deal" not in first.options and "deal" not in created.record.options
        assert first.options == {"strict_necessity": True}
        assert first.deal_commitment == deal_commitment(b"deal-test", DEAL, FORMAT_3)
        assert store.secrets(created.record.id).deal == DEAL

        game_id = _finish(store)
        last = read_events(store, game_id)[-1].event
        assert isinstance(last, SeedRevealed) and last.deal == DEAL
        report = verify_game(store, game_id)
        assert report.ok and report.rederived is Rederivation.REVEALED_SEED


def test_active_game_with_a_deal_verifies_from_the_operator_seed(tmp_path: Path) -> None:
    with SQLiteEventStore(tmp_path / "a.db") as store:
        created = create_game(store, GAME, 1, OPTIONS, seed="deal-test")
        report = verify_game(store, created.record.id)
        assert report.ok and report.rederived is Rederivation.OPERATOR_SEED


def test_export_import_keeps_the_revealed_deal(tmp_path: Path) -> None:
    with SQLiteEventStore(tmp_path / "a.db") as store, SQLiteEventStore(tmp_path / "b.db") as other:
        game_id = _finish(store)
        import_game(other, export_lines(store, game_id))
        assert other.secrets(game_id).deal == DEAL
        assert verify_game(other, game_id).ok


def test_a_forged_revealed_deal_is_caught(tmp_path: Path) -> None:
    """Rewriting the revealed deal (and resealing the whole chain) breaks the commitment."""
    with SQLiteEventStore(tmp_path / "a.db") as store:
        game_id = _finish(store)
        record, rows, _ = store.read_game(game_id)
        codec = codec_for(get_game(GAME))
        events = [codec.event.decode(row.payload) for row in rows]
        forged = dict(DEAL, draw=list(reversed(DEAL["draw"])))
        events[-1] = msgspec.structs.replace(events[-1], deal=forged)
        resealed = seal(
            genesis_hash(game_id, FORMAT_3),
            1,
            events,
            recorded_at=rows[0].recorded_at,
            log=FORMAT_3,
        )
        record = msgspec.structs.replace(record, head_hash=resealed[-1].hash)
        result = verify_log(GAMES, record, resealed)
        assert not result.report.ok
        assert result.report.problem is not None
        assert result.report.problem.code == "deal-mismatch"
