"""The bot pool's fair order (:class:`~spies_api.table.fairness.FairQueue`), taken by hand:
which waiting decision a free worker takes, with no event loop and no clock."""

from __future__ import annotations

from spies_api.table.fairness import QUANTUM_SECONDS, FairQueue, Ticket, Urgency

UNTIMED, CLOCKED, FORCED = Urgency.UNTIMED, Urgency.CLOCKED, Urgency.FORCED


def serve(queue: FairQueue[str], seconds: float = 0.5) -> list[str]:
    """One worker taking every waiting decision in turn, each thinking ``seconds``."""
    order = []
    while (ticket := queue.pop()) is not None:
        order.append(ticket.item)
        queue.finish(ticket, seconds)
    return order


def test_one_clients_flood_waits_behind_itself_not_in_front_of_another() -> None:
    """Four games of one client queued before another client's one: the other's goes next,
    not fifth (first come, first served made it wait for all four)."""
    queue: FairQueue[str] = FairQueue()
    running = None
    for n in range(1, 5):
        queue.push(f"hog{n}", client="hog", game=f"h{n}", urgency=UNTIMED)
        running = running or queue.pop()  # the first one takes the free worker
    queue.push("other", client="other", game="o", urgency=UNTIMED)
    assert running is not None and running.item == "hog1"
    queue.finish(running, 0.5)
    assert serve(queue) == ["other", "hog2", "hog3", "hog4"]


def test_clients_and_their_games_take_turns() -> None:
    queue: FairQueue[str] = FairQueue()
    for item, client, game in [
        ("a1", "a", "g1"),
        ("a2", "a", "g1"),
        ("a3", "a", "g1"),
        ("a4", "a", "g2"),
        ("b1", "b", "g3"),
        ("b2", "b", "g3"),
    ]:
        queue.push(item, client=client, game=game, urgency=UNTIMED)
    assert len(queue) == 6
    # a's games alternate (g1, g2, g1); the two clients alternate while both wait
    assert serve(queue) == ["a1", "b1", "a4", "b2", "a2", "a3"]
    assert len(queue) == 0


def test_forced_moves_then_clocked_games_go_first() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.push("untimed", client="a", game="g1", urgency=UNTIMED)
    queue.push("clocked", client="b", game="g2", urgency=CLOCKED)
    queue.push("forced", client="c", game="g3", urgency=FORCED)
    queue.push("clocked too", client="a", game="g4", urgency=CLOCKED)
    assert serve(queue, seconds=0.01) == ["forced", "clocked", "clocked too", "untimed"]


def test_clocking_every_game_does_not_let_a_client_starve_the_others() -> None:
    """A client more than the quantum of think time ahead of another waits for it, its
    clocked games' urgency notwithstanding."""
    queue: FairQueue[str] = FairQueue()
    hog = queue.push("hog1", client="hog", game="h1", urgency=CLOCKED)
    assert queue.pop() is hog
    queue.push("other", client="other", game="o", urgency=UNTIMED)  # level with hog: 0 s
    queue.push("hog2", client="hog", game="h2", urgency=CLOCKED)
    queue.finish(hog, QUANTUM_SECONDS + 0.5)  # a long think: hog is ahead by more than that
    assert serve(queue) == ["other", "hog2"]
    # within the quantum, its urgency still counts
    hog = queue.push("hog3", client="hog", game="h1", urgency=CLOCKED)
    assert queue.pop() is hog
    queue.push("other", client="other", game="o", urgency=UNTIMED)
    queue.push("hog4", client="hog", game="h2", urgency=CLOCKED)
    queue.finish(hog, QUANTUM_SECONDS / 2)
    assert serve(queue) == ["hog4", "other"]


def test_no_client_holds_more_workers_than_another_while_it_waits() -> None:
    queue: FairQueue[str] = FairQueue()
    for n in range(3):
        queue.push(f"a{n}", client="a", game=f"a{n}", urgency=UNTIMED)
    first = queue.pop()
    assert first is not None and first.item == "a0"
    queue.finish(first, 5.0)  # a has thought for long, and still the only one waiting
    second = queue.pop()
    assert second is not None and second.item == "a1"  # a worker is never left idle
    queue.push("b0", client="b", game="b0", urgency=UNTIMED)
    queue.push("b1", client="b", game="b1", urgency=UNTIMED)
    third = queue.pop()  # a runs one, b none: b's turn (b came in level with a, 5 s)
    assert third is not None and third.item == "b0"
    fourth = queue.pop()  # one each running, level: a, served longer ago
    assert fourth is not None and fourth.item == "a2"
    last = queue.pop()  # a runs two, b one: b
    assert last is not None and last.item == "b1"
    assert queue.pop() is None


def test_a_client_back_after_a_pause_is_level_with_the_others_not_ahead() -> None:
    """Think time is not saved up while away: a client that comes back gets the think time
    of the least-served client at work now, so it does not shut the others out."""
    queue: FairQueue[str] = FairQueue()
    queue.push("a", client="a", game="a", urgency=UNTIMED)
    assert serve(queue, seconds=0.1) == ["a"]  # a leaves, forgotten
    for n in range(3):
        queue.push(f"b{n}", client="b", game=f"b{n}", urgency=UNTIMED)
    running = queue.pop()
    assert running is not None
    queue.finish(running, 10.0)  # b has 10 s
    queue.push("c0", client="c", game="c", urgency=UNTIMED)  # comes in at b's 10 s
    queue.push("c1", client="c", game="c", urgency=UNTIMED)
    # c is not 10 s behind b: they alternate (c first, served never)
    assert serve(queue, seconds=1.0) == ["c0", "b1", "c1", "b2"]


def test_a_decision_given_up_leaves_the_queue() -> None:
    queue: FairQueue[str] = FairQueue()
    gone = queue.push("gone", client="a", game="g", urgency=UNTIMED)
    queue.push("kept", client="b", game="h", urgency=UNTIMED)
    queue.cancel(gone)
    queue.cancel(gone)  # once is enough
    assert len(queue) == 1
    kept = queue.pop()
    assert kept is not None and kept.item == "kept"
    queue.cancel(kept)  # started: a worker has it, it finishes instead
    queue.finish(kept, 0.1)
    queue.finish(kept, 0.1)  # finished once
    assert queue.pop() is None and len(queue) == 0


def test_a_ticket_says_whose_it_is() -> None:
    queue: FairQueue[str] = FairQueue()
    ticket = queue.push("x", client="203.0.113.9", game="g", urgency=FORCED)
    assert isinstance(ticket, Ticket)
    assert (ticket.client, ticket.game, ticket.urgency, ticket.started) == (
        "203.0.113.9",
        "g",
        FORCED,
        False,
    )
    assert queue.pop() is ticket and ticket.started
