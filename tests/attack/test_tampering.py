"""Tampering, exhaustively: every edit, deletion, insertion and reordering of the stored
events of real games is reported by verify at the exact seq.

``tests/replay/test_verify.py`` tampers with the database file (triggers dropped) of a small
test game; here every seq of a finished and of an active game of every registered game, and
of a game in progress whose seats bots play (their moves re-run by verify), is tampered with,
in memory, and :func:`spies_replay.verify.verify_log` (what
``verify_game`` and ``import`` run) must name that seq. Each tamper is tried twice: as is
(the hash chain breaks) and by a careful attacker who then recomputes every hash and the
game's head (only re-running the commands from the seed can tell).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from spies_api.game import create_game, submit_command
from spies_bots import BOTS
from spies_core.registry import GAMES
from spies_replay.store.protocols import EventStore
from spies_replay.store.records import EventRow, GameRecord, GameStatus
from spies_replay.store.sqlite import SQLiteEventStore
from spies_replay.verify import verify_log
from tests.support.botgames import REGISTERED, play_with_bots, rechain

from .figures import record

GUARANTEE = "tampering"

Rows = list[EventRow]


def played(store: EventStore, name: str, finish: bool, rng: random.Random) -> str:
    """A game of ``name`` at its largest seat count, to its end or part of the way."""
    spec = GAMES[name]
    created = create_game(store, name, spec.max_players, seed=f"tamper-{name}-{finish}")
    game_id = created.record.id
    state = created.state
    limit = spec.max_events if finish else 12
    for _ in range(limit):
        if spec.outcome(state) is not None:
            break
        moves = [(s, c) for s in sorted(spec.to_act(state)) for c in spec.legal_commands(state, s)]
        seat, command = rng.choice(moves)
        state = submit_command(store, game_id, seat, command).state
    assert (store.get_game(game_id).status == GameStatus.FINISHED) == finish
    return game_id


def _mutate(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value[1:], value[0]] if len(set(map(repr, value))) > 1 else [*value, *value[:1]]
    if isinstance(value, dict):
        return {**value, "tampered": True}
    return 0


def edit(rows: Rows, index: int) -> Rows | None:
    """Change one field of the payload at ``index`` (the first field whose change shows)."""
    row = rows[index]
    data = msgspec.json.decode(row.payload)
    for name in sorted(key for key in data if key != "type"):
        changed = {**data, name: _mutate(data[name])}
        if changed != data:
            new = msgspec.json.encode(changed).decode()
            return [*rows[:index], msgspec.structs.replace(row, payload=new), *rows[index + 1 :]]
    return None


def delete(rows: Rows, index: int) -> Rows:
    return [*rows[:index], *rows[index + 1 :]]


def insert(rows: Rows, index: int) -> Rows:
    """A copy of the previous row (or, at the start, of the next) put in at ``index``."""
    source = rows[index - 1] if index > 0 else rows[1]
    shifted = [msgspec.structs.replace(r, seq=r.seq + 1) for r in rows[index:]]
    return [*rows[:index], msgspec.structs.replace(source, seq=index + 1), *shifted]


def swap(rows: Rows, index: int) -> Rows | None:
    """The rows at ``index`` and ``index + 1`` exchanged (in place of each other), each
    keeping the time of its place, as a careful attacker would: the times still run
    forward."""
    if index + 1 >= len(rows) or rows[index].payload == rows[index + 1].payload:
        return None
    a, b = rows[index], rows[index + 1]
    first = msgspec.structs.replace(b, recorded_at=a.recorded_at)
    second = msgspec.structs.replace(a, recorded_at=b.recorded_at)
    return [*rows[:index], first, second, *rows[index + 2 :]]


TAMPERS: dict[str, Callable[[Rows, int], Rows | None]] = {
    "edit": edit,
    "delete": delete,
    "insert": insert,
    "reorder": swap,
}


@pytest.fixture(scope="module")
def logs(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[GameRecord, Rows, bytes | None]]:
    db = tmp_path_factory.mktemp("tamper") / "tamper.db"
    rng = random.Random(7)
    found = {}
    with SQLiteEventStore(Path(db)) as store:
        for name in GAMES:
            for finish in (True, False):
                game_id = played(store, name, finish, rng)
                record_, rows, secrets = store.read_game(game_id)
                seed = None if secrets is None else secrets.seed
                found[f"{name}-{'finished' if finish else 'active'}"] = (record_, rows, seed)
            bots = [bot for bot in ("random", "greedy") if name in BOTS[bot].policies]
            seats = [bots[seat % len(bots)] for seat in range(GAMES[name].max_players)]
            game_id = play_with_bots(store, name, seats, seed=f"tamper-{name}-bots", commands=12)
            record_, rows, secrets = store.read_game(game_id)
            assert secrets is not None and any(row.bot for row in rows)
            found[f"{name}-bots"] = (record_, rows, secrets.seed)
    return found


def cases() -> list[Any]:
    return [
        pytest.param(f"{name}-{state}", tamper, id=f"{name}-{state}-{tamper}")
        for name in GAMES
        for state in ("finished", "active", "bots")
        for tamper in TAMPERS
    ]


def first_difference(original: Rows, tampered: Rows) -> int:
    """The first seq whose stored content differs: where the log stops being the true one."""
    for index, (a, b) in enumerate(zip(original, tampered, strict=False)):
        if (a.seq, a.type, a.payload, a.actor, a.command, a.recorded_at, a.bot) != (
            b.seq,
            b.type,
            b.payload,
            b.actor,
            b.command,
            b.recorded_at,
            b.bot,
        ):
            return index + 1
    return min(len(original), len(tampered)) + 1


def commuting(rows: Rows, index: int) -> bool:
    """Rows ``index`` and ``index + 1`` start commands of two different seats (simultaneous
    ones, e.g. two passes or two deployments): swapped, they may be another valid history
    of the same game, which re-running the commands cannot tell from the real one."""
    a, b = rows[index], rows[index + 1]
    return a.command is not None and b.command is not None and a.actor != b.actor


def truncated(record_: GameRecord, rows: Rows, index: int) -> bool:
    """Deleting row ``index`` leaves the log of a game in progress as it was one command
    earlier: the row is the last, and the whole batch of the last command."""
    last = rows[index]
    return (
        record_.status == GameStatus.ACTIVE and index == len(rows) - 1 and last.command is not None
    )


@pytest.mark.parametrize(("log", "tamper"), cases())
def test_every_tamper_is_reported_at_its_seq(
    logs: dict[str, tuple[GameRecord, Rows, bytes | None]], log: str, tamper: str
) -> None:
    """As is, each tamper is named at the first seq that differs (the hash chain). With the
    chain recomputed, re-running the commands names it there too, or at the first seq where
    the log stops being a valid history (a deleted event that only the next command's
    events miss); never earlier. Two rechained tampers cannot be told from a real log by
    the log alone: two simultaneous commands of two seats swapped (another valid history),
    and the last command of a game in progress deleted whole (the log as it was one command
    earlier). Those are counted apart, and the head hash the server published, given to
    verify, names every one of them (``published-head-mismatch``)."""
    record_, rows, seed = logs[log]
    clean = verify_log(GAMES, record_, rows, seed=seed, bots=REGISTERED)
    assert clean.report.ok, clean.report.problem
    figures = {"exact": 0, "later": 0, "valid_alternative_history": 0, "truncated": 0}
    tried = 0
    misses: list[str] = []
    for index in range(len(rows)):
        tampered = TAMPERS[tamper](rows, index)
        if tampered is None:
            continue
        for careful in (False, True):
            head, shown = rechain(record_, tampered) if careful else (record_, tampered)
            seq = first_difference(rows, shown)
            report = verify_log(GAMES, head, shown, seed=seed, bots=REGISTERED).report
            tried += 1
            where = f"{tamper} at seq {index + 1} (rechained={careful})"
            found = report.problem.seq if report.problem is not None else None
            if report.ok:
                anchored = verify_log(GAMES, head, shown, seed=seed, head=record_.head_hash)
                problem = anchored.report.problem
                if problem is None or problem.code != "published-head-mismatch":
                    misses.append(f"{where} not detected, not even against the published head")
                elif careful and tamper == "reorder" and commuting(rows, index):
                    figures["valid_alternative_history"] += 1
                elif careful and tamper == "delete" and truncated(record_, rows, index):
                    figures["truncated"] += 1
                else:
                    misses.append(f"{where} not detected")
            elif found == seq:
                figures["exact"] += 1
            elif careful and found is not None and found > seq:
                figures["later"] += 1
            else:
                assert report.problem is not None
                misses.append(f"{where}: expected seq {seq}, got {found}: {report.problem.code}")
    assert not misses, "\n".join(misses[:20])
    record(
        GUARANTEE,
        f"test_tampering.py::test_every_tamper_is_reported_at_its_seq[{log}-{tamper}]",
        seqs_tampered_with=len(rows),
        tampers_tried=tried,
        detected_at_first_changed_seq=figures["exact"],
        detected_later_rechained=figures["later"],
        undetectable_valid_reorders=figures["valid_alternative_history"],
        undetectable_truncations=figures["truncated"],
        caught_by_the_published_head=figures["valid_alternative_history"] + figures["truncated"],
    )


@pytest.mark.parametrize("name", list(GAMES))
def test_every_bot_mark_stripped_is_caught_at_the_first_bot_move(
    logs: dict[str, tuple[GameRecord, Rows, bytes | None]], name: str
) -> None:
    """A careful attacker strips the marks and rechains: the bots' moves would pass as a
    person's, but the seat events say bots hold those seats from creation."""
    record_, rows, seed = logs[f"{name}-bots"]
    first = next(row.seq for row in rows if row.bot is not None)
    report = verify_log(GAMES, *rechain(record_, rows, keep_marks=False), seed=seed).report
    assert report.problem is not None
    assert (report.problem.seq, report.problem.code) == (first, "bot-mark-missing")
