"""Our rate limiter beside Litestar's ``RateLimitConfig``, in the same run.

Two questions, each answered for both (no server, no sockets: the ASGI apps are called
directly, so what is timed is the layers themselves):

1. **Cost per request.** One Litestar app with one route (``GET /games``, answering a
   small JSON body) is driven ``--requests`` times by ``--clients`` client addresses in
   turn, each at a rate under the limit, so nothing is refused:

   - the app alone (the baseline);
   - wrapped in our ``Edge`` with no limiter (the client address, the log binding, the
     security headers: what our layer costs without its limiter);
   - wrapped in our ``Edge`` with its two token buckets (``--rate``, the server's default
     ``50/second``): the difference from the previous line is the limiter's cost;
   - the app with Litestar's ``RateLimitMiddleware`` at the same rate (its default
     ``MemoryStore``, its rate limit headers on: its defaults).

   Each round times each of them in turn, fresh (new buckets, a new store), over the same
   requests; it prints the best round's microseconds per request and the difference from
   the baseline.

2. **What a window lets through at its edge.** A fixed window of ``N`` per minute (Litestar:
   the window opens at a client's first request and its history is cleared when it ends)
   against a token bucket of the same ``N`` per minute (ours: ``N`` at once, then ``N/60`` a
   second). With a clock under the bench's control, a client asks once at ``t=0``, then as
   often as it is let at ``t=59.5`` and at ``t=60.5``: it prints how many each let through
   in that one second; then, for a client that asks until it is refused every 10 ms for
   five minutes, how many each let through in all and the most in any one second. Both run
   as they do in a server (Litestar's through its middleware, its module's ``time``
   replaced; ours through ``RateLimiter`` with its ``clock``).

It also shows what each counts: a request to a path no route has (a router 404) reaches
Litestar's middleware or not.

It prints and never asserts. Usage::

    python bench/limiter.py [--requests 20000] [--clients 1000] [--rounds 5]
        [--rate 50/second] [--per-minute 600]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any
from unittest.mock import patch

import litestar.middleware.rate_limit as litestar_rate_limit
from litestar import Litestar, get
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.types import ASGIApp, Message

from spies_api.http.edge import Edge, RateLimiter
from spies_api.settings import DEFAULTS, RATE_SECONDS, parse_rate

Run = Callable[[ASGIApp, list[dict[str, Any]]], Awaitable[Counter[int]]]


def _app(*, litestar_limit: tuple[Any, int] | None = None) -> Litestar:
    @get("/games", sync_to_thread=False)
    def games() -> dict[str, Any]:
        return {"games": [], "total": 0}

    middleware = [] if litestar_limit is None else [RateLimitConfig(litestar_limit).middleware]
    return Litestar(route_handlers=[games], middleware=middleware, openapi_config=None)


def _scope(app: Litestar, client: str, path: str = "/games") -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"bench"), (b"accept", b"application/json")],
        "client": (client, 40000),
        "server": ("127.0.0.1", 8000),
        "litestar_app": app,  # as Litestar's own handler sets it; RateLimitMiddleware reads it
    }


async def _receive() -> Any:
    return {"type": "http.request", "body": b"", "more_body": False}


async def drive(app: ASGIApp, scopes: list[dict[str, Any]]) -> Counter[int]:
    """Send each request through ``app``; count the answers by status."""
    statuses: Counter[int] = Counter()

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            statuses[message["status"]] += 1

    for scope in scopes:
        await app(dict(scope), _receive, send)  # type: ignore[arg-type]
    return statuses


def _clients(count: int) -> list[str]:
    return [f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}" for i in range(count)]


async def cost(requests: int, clients: int, rounds: int, rate: str) -> None:
    unit, count = parse_rate(rate)
    addresses = _clients(clients)

    def bare() -> tuple[ASGIApp, Litestar]:
        app = _app()
        return app, app

    def ours(limited: bool) -> Callable[[], tuple[ASGIApp, Litestar]]:
        def make() -> tuple[ASGIApp, Litestar]:
            app = _app()
            buckets = [RateLimiter(count / RATE_SECONDS[unit], count) for _ in range(2)]
            edge = Edge(
                app.asgi_handler,
                limiter=buckets[0] if limited else None,
                free_limiter=buckets[1] if limited else None,
            )
            return edge, app

        return make

    def theirs() -> tuple[ASGIApp, Litestar]:
        app = _app(litestar_limit=(unit, count))
        return app, app

    layers: dict[str, Callable[[], tuple[ASGIApp, Litestar]]] = {
        "the app alone": bare,
        "our Edge, no limiter": ours(False),
        f"our Edge, token buckets {rate}": ours(True),
        f"Litestar RateLimitConfig(({unit!r}, {count}))": theirs,
    }
    print(f"== cost per request: {requests} requests from {clients} clients in turn, {rate}")
    times: dict[str, list[float]] = {name: [] for name in layers}
    for _ in range(rounds):  # the layers in turn each round, each fresh: load hits all alike
        for name, make in layers.items():
            layer, app = make()
            scopes = [_scope(app, addresses[i % clients]) for i in range(requests)]
            started = time.perf_counter()
            statuses = await drive(layer, scopes)
            times[name].append(time.perf_counter() - started)
            if set(statuses) != {200}:
                print(f"   ({name}: answers {dict(statuses)}: some refused, lower --requests)")
    best = {name: min(taken) / requests * 1e6 for name, taken in times.items()}
    base = best["the app alone"]
    for name, micros in best.items():
        print(f"  {name:<48} {micros:7.1f} µs/request  ({micros - base:+5.1f})")


async def window_edge(per_minute: int) -> None:
    print(f"\n== at a window's edge: {per_minute}/minute, one client")
    now = [0.0]
    bucket = RateLimiter(per_minute / 60, per_minute, clock=lambda: now[0])
    # Litestar's window reads its module's time(): the bench's clock instead
    with patch.object(litestar_rate_limit, "time", lambda: now[0]):
        app = _app(litestar_limit=("minute", per_minute))
        scope = _scope(app, "10.0.0.1")

        async def litestar_take() -> bool:
            return (await drive(app, [scope]))[200] == 1

        async def admitted(take: Callable[[], Awaitable[bool]], at: float) -> int:
            now[0] = at
            let = 0
            while await take():
                let += 1
                if let > 10 * per_minute:
                    break
            return let

        async def ours_take() -> bool:
            return bucket.take("10.0.0.1") == 0.0

        for name, take in (
            ("fixed window (Litestar)", litestar_take),
            ("token bucket (ours)", ours_take),
        ):
            now[0] = 0.0
            await take()
            edge = await admitted(take, 59.5) + await admitted(take, 60.5)
            print(f"  {name:<26} let through in t=59.5..60.5: {edge}")
        # a greedy client: every 10 ms for five minutes, asks until it is refused
        fresh = RateLimiter(per_minute / 60, per_minute, clock=lambda: now[0])
        fresh_app = _app(litestar_limit=("minute", per_minute))
        fresh_scope = _scope(fresh_app, "10.0.0.2")

        async def fresh_litestar() -> bool:
            return (await drive(fresh_app, [fresh_scope]))[200] == 1

        async def fresh_ours() -> bool:
            return fresh.take("10.0.0.2") == 0.0

        let: dict[str, list[int]] = {"fixed window (Litestar)": [], "token bucket (ours)": []}
        for step in range(30_000):
            at = 1000.0 + step / 100
            let["fixed window (Litestar)"].append(await admitted(fresh_litestar, at))
            let["token bucket (ours)"].append(await admitted(fresh_ours, at))
        print("  a client asking every 10 ms, until refused, for 5 minutes:")
        for name, steps in let.items():
            # the most let through in any one second (100 steps), and in all
            window = sum(steps[:100])
            most = window
            for step in range(100, len(steps)):
                window += steps[step] - steps[step - 100]
                most = max(most, window)
            print(f"    {name:<26} {sum(steps):6} in all, at most {most} in any one second")


async def unrouted() -> None:
    app = _app(litestar_limit=("minute", 5))
    statuses = await drive(app, [_scope(app, "10.0.0.3", "/no-such-path")] * 20)
    print(
        f"\n== 20 requests to a path no route has, Litestar limited to 5/minute: {dict(statuses)}"
    )
    edge = Edge(_app().asgi_handler, limiter=RateLimiter(5 / 60, 5))
    statuses = await drive(edge, [_scope(_app(), "10.0.0.3", "/no-such-path")] * 20)
    print(f"   the same through our Edge limited to 5/minute: {dict(statuses)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rate", default=DEFAULTS.rate_limit or "50/second")
    parser.add_argument("--per-minute", type=int, default=600)
    args = parser.parse_args()
    asyncio.run(cost(args.requests, args.clients, args.rounds, args.rate))
    asyncio.run(window_edge(args.per_minute))
    asyncio.run(unrouted())


if __name__ == "__main__":
    main()
