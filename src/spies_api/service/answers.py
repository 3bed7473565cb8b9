"""What leaves the server about a game: events as a viewer may see them, public options, and
the answer to a command.

Hidden information: a game in progress leaves only through ``spec.view`` and
:func:`spies_replay.reading.redact_for`; once it is over, its log is public (it can be
exported with the revealed seed), so events are sent whole.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import msgspec

from spies_api.game import PreparedCommand
from spies_api.schemas import DEAL_HIDDEN, CommandResponse, event_out
from spies_core.decider import AnySpec
from spies_replay.meta import GameCreated
from spies_replay.reading import StoredEvent, redact_for
from spies_replay.receipts import Receipt
from spies_replay.store.records import GameStatus

__all__ = ["DEAL_HIDDEN", "command_answer", "outgoing", "public_options"]


_encode: Final = msgspec.json.Encoder().encode


def public_options(options: dict[str, Any], finished: bool) -> dict[str, Any]:
    """Creation options as anyone may see them: an explicit deal only once the game is over.

    The replay log keeps ``deal`` out of the public record since its migration 2; this
    guards games stored before that.
    """
    if finished or "deal" not in options:
        return options
    return {**options, "deal": DEAL_HIDDEN}


def outgoing(
    spec: AnySpec, seat: int | None, events: Iterable[StoredEvent], *, finished: bool
) -> list[Any]:
    """Stored events as sent to ``seat``: redacted while the game is in progress."""
    sent: list[Any] = []
    for stored in events:
        event = stored.event
        if not finished:
            event = redact_for(spec, event, seat)
            if event is None:
                continue
            if isinstance(event, GameCreated) and "deal" in event.options:
                options = public_options(event.options, finished=False)
                event = msgspec.structs.replace(event, options=options)
        sent.append(event_out(event, stored.seq, stored.recorded_at))
    return sent


def command_answer(
    spec: AnySpec, seat: int, prepared: PreparedCommand, receipt: Receipt | None = None
) -> bytes:
    """The answer to an accepted command, as JSON: its events as ``seat`` may see them.

    Built before the append, so that the same bytes are sent and kept under an
    ``Idempotency-Key``.
    """
    finished = prepared.outcome is not None
    return _encode(
        CommandResponse(
            version=prepared.head.version,
            status=GameStatus.FINISHED if finished else GameStatus.ACTIVE,
            events=outgoing(spec, seat, prepared.events, finished=finished),
            outcome=prepared.outcome,
            receipt=receipt,
        )
    )
