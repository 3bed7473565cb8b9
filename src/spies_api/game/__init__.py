"""The application layer: games on top of the log. Create one (:mod:`.creation`), load its
head (:mod:`.loading`), turn a command (:mod:`.commands`), a timeout, a resume or an abort
(:mod:`.clocks`) or a seat change (:mod:`.seats`) into one append.

A command goes down once: the head is loaded (or kept cached by the caller), the pure step of
:mod:`spies_core.step` decides, and the sealed batch is handed to the store's append, which
alone decides the version, the finished game and the idempotency key. Nothing here or in the
store calls back into the caller. Nothing here knows HTTP.

Who may import it: the rest of ``spies_api``, ``spies_sim`` (``--record`` writes games through
it) and the ``spies-replay`` console program (its ``abort``). It imports ``spies_core`` and
``spies_replay`` only.
"""

from __future__ import annotations

from spies_api.game.clocks import (
    ABORT_ATTEMPTS,
    TimeoutPlan,
    abort_game,
    plan_timeout,
    prepare_abort,
    prepare_resume,
    prepare_timeout,
)
from spies_api.game.commands import (
    CommandResult,
    IdempotencyRequest,
    PreparedCommand,
    check_batch,
    prepare_command,
    submit_command,
)
from spies_api.game.creation import (
    CreatedGame,
    create_game,
    deferred_setup,
    new_game_id,
    seed_from_client,
)
from spies_api.game.loading import Head, load_head, stored_events
from spies_api.game.seats import (
    SEAT_CHANGE_ATTEMPTS,
    PendingDeal,
    PreparedSeatChange,
    SeatChange,
    SeatChoice,
    SeatTable,
    append_seat_change,
    prepare_seat_change,
    read_seats,
)

__all__ = [
    "ABORT_ATTEMPTS",
    "SEAT_CHANGE_ATTEMPTS",
    "CommandResult",
    "CreatedGame",
    "Head",
    "IdempotencyRequest",
    "PendingDeal",
    "PreparedCommand",
    "PreparedSeatChange",
    "SeatChange",
    "SeatChoice",
    "SeatTable",
    "TimeoutPlan",
    "abort_game",
    "append_seat_change",
    "check_batch",
    "create_game",
    "deferred_setup",
    "load_head",
    "new_game_id",
    "plan_timeout",
    "prepare_abort",
    "prepare_command",
    "prepare_resume",
    "prepare_seat_change",
    "prepare_timeout",
    "read_seats",
    "seed_from_client",
    "stored_events",
    "submit_command",
]
