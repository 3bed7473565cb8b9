"""``--checkpoint FILE``: a long run made resumable.

Each game's result is appended to ``FILE`` (JSON lines, after a first line naming the run) as
it is played, and a run started again with the same ``FILE`` plays only the games the file
lacks. Since a game's result depends on the seed and its index alone, the report of a run
finished in several sittings equals that of one uninterrupted run, its timings apart. A file
written by another run (another game, seats, seed or options) is refused; a line cut short by
a kill is dropped.
"""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import Any, BinaryIO, Final

import msgspec

from spies_sim.errors import UsageError
from spies_sim.games import GameResult, Run

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint"]

CHECKPOINT_FORMAT = 1

_json = msgspec.json.Encoder()


class _Header(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The first line of a checkpoint file: the run its results belong to."""

    spies_sim_checkpoint: int
    game: str
    seats: tuple[str, ...]
    seed: str
    options: dict[str, Any]


class _Saved(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One game's result, one line of a checkpoint file."""

    index: int
    winners: tuple[int, ...]
    draw: bool
    reason: str
    scores: tuple[int, ...]
    commands: int
    events: int
    sides: tuple[int | None, ...]
    times: tuple[tuple[float, ...], ...]


_KEPT_AS_THEY_ARE: Final = tuple(name for name in _Saved.__struct_fields__ if name != "times")
"""The fields of a result that a checkpoint line keeps as they are (times change form)."""


class Checkpoint:
    """The results of a run so far, in a file that each new result is appended to."""

    def __init__(
        self, path: Path, header: _Header, results: dict[int, GameResult], keep: int
    ) -> None:
        self.path = path
        self.results = results
        """The games already played, by index."""
        self._header = header
        self._keep = keep
        """The length of the file's sound part: 0 for a new file."""
        self._file: BinaryIO | None = None

    @classmethod
    def read(cls, path: Path, run: Run) -> Checkpoint:
        """Read what ``path`` holds for ``run``; nothing is written yet.

        Raises:
            UsageError: the file is not a checkpoint, belongs to another run, or is damaged.
        """
        header = _Header(
            spies_sim_checkpoint=CHECKPOINT_FORMAT,
            game=run.game,
            seats=run.bots,
            seed=run.seed,
            options=run.options,
        )
        if path.is_dir():
            raise UsageError(f"--checkpoint {path} is a directory, not a file")
        try:
            data = path.read_bytes() if path.exists() else b""
        except OSError as exc:
            raise UsageError(f"--checkpoint {path}: {exc.strerror or exc}") from None
        lines = data.split(b"\n")
        if not data:
            return cls(path, header, {}, 0)
        try:
            found = msgspec.json.decode(lines[0], type=_Header)
        except msgspec.DecodeError:
            raise UsageError(f"--checkpoint {path} is not a spies-sim checkpoint file") from None
        if found != header:
            raise UsageError(
                f"--checkpoint {path} holds another run ({found.game}, seats"
                f" {','.join(found.seats)}, seed {found.seed!r}, options"
                f" {_json.encode(found.options).decode()}); give another file or that run's"
                " arguments"
            )
        results: dict[int, GameResult] = {}
        keep = len(lines[0]) + 1
        for number, line in enumerate(lines[1:], start=2):
            last = number == len(lines)
            try:
                saved = msgspec.json.decode(line, type=_Saved)
            except msgspec.DecodeError:
                if last:  # an empty tail, or a line cut short when the run was killed
                    break
                raise UsageError(f"--checkpoint {path}: line {number} is damaged") from None
            keep += len(line) + 1
            results.setdefault(saved.index, _from_saved(saved))
        return cls(path, header, results, keep)

    def open(self) -> None:
        """Start appending: write the header to a new file, or drop a cut-off last line."""
        if self._keep == 0:
            self._file = self.path.open("wb")
            self._file.write(_json.encode(self._header) + b"\n")
        else:
            self._file = self.path.open("r+b")
            self._file.truncate(self._keep)
            self._file.seek(self._keep)
        self._file.flush()

    def append(self, result: GameResult) -> None:
        """Add one game's result to the file."""
        saved = _Saved(
            times=tuple(tuple(t) for t in result.times),
            **{name: getattr(result, name) for name in _KEPT_AS_THEY_ARE},
        )
        assert self._file is not None, "open() first"
        self._file.write(_json.encode(saved) + b"\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()


def _from_saved(saved: _Saved) -> GameResult:
    return GameResult(
        times=tuple(array("d", t) for t in saved.times),
        **{name: getattr(saved, name) for name in _KEPT_AS_THEY_ARE},
    )
