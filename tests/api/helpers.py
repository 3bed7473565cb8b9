"""The API tests' helpers, now in :mod:`tests.support.api` (kept here for the tests that
import them from this module)."""

from tests.support.api import Game, game_cases, new_game, play_to_end, play_turn

__all__ = ["Game", "game_cases", "new_game", "play_to_end", "play_turn"]
