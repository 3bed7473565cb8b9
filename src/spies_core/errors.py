"""The error taxonomy of the rules core.

Every error the core raises is a :class:`SpiesError` with a stable, kebab-case ``code``
that clients branch on; the message is for people and names the input and the situation
("card '7H' is not in your hand (spy is 9C)"). The API maps the classes to HTTP statuses in
one table (``spies_api.problems.errors``); the core itself never knows about HTTP.

- :class:`RuleError` (422): a well-formed command that the rules forbid now. Each game
  picks a code per rule (``unnecessary-card``, ``must-follow``, ...); the generic ones are
  :class:`NotYourTurnError`, :class:`GameOverError` and :class:`GameNotStartedError`.
- :class:`InvalidOptionsError` (422): bad ``players``, ``options`` or ``options.deal`` at
  creation, and variants we refuse (``unsupported-variant``).
- :class:`UnknownGameError` (404/422): no game of that id in the registry.
- :class:`CorruptLogError`: ``evolve`` met an event that cannot follow the state. That is a
  bug or a tampered log, never a user error.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "CorruptLogError",
    "GameNotStartedError",
    "GameOverError",
    "InvalidOptionsError",
    "NotYourTurnError",
    "RuleError",
    "SpiesError",
    "UnknownGameError",
]


class SpiesError(Exception):
    """Base class of every error raised by ``spies_core``.

    Attributes:
        code: stable machine-readable code, kebab-case.
        message: human-readable explanation naming the offending input.
    """

    default_code: ClassVar[str] = "spies-error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class RuleError(SpiesError, ValueError):
    """A well-formed command that the rules do not allow in this state."""

    default_code = "illegal-command"


class NotYourTurnError(RuleError):
    """The seat is not among those to act, or the command needs another seat."""

    default_code = "not-your-turn"


class GameOverError(RuleError):
    """The game has ended; no command is accepted any more."""

    default_code = "game-over"


class GameNotStartedError(RuleError):
    """A command reached a game whose setup events were never applied.

    Every game raises it, with the one code ``not-started``, when ``decide`` is given the
    initial state: the API and the replay log always apply ``start`` first, so only a
    caller of the core itself can meet it.
    """

    default_code = "not-started"


class InvalidOptionsError(SpiesError, ValueError):
    """Invalid ``players``, ``options`` or ``options.deal`` at game creation."""

    default_code = "invalid-options"


class UnknownGameError(SpiesError, LookupError):
    """No game with that id is registered."""

    default_code = "unknown-game"


class CorruptLogError(SpiesError):
    """An event cannot be applied to the state it follows (a bug or a tampered log)."""

    default_code = "corrupt-log"
