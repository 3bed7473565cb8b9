"""Driving the web client as a person would (clicks on cards and legal moves), the watched
browser contexts the fixtures open, and games set up over the API as another client would."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import BrowserContext, Page, Request

CHROMIUM = Path(os.environ.get("SPIES_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Debian's Chromium (``SPIES_CHROMIUM`` names another), and how it is started."""

APP = "#app"
SCREENSHOT_TIMEOUT_MS = 60_000
"""The deadline of a whole-page screenshot (steps have the contexts' 15 s)."""
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, a devDependency of the web client (``cd web && npm ci`` installs it)."""

AXE_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): `
      + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
}"""


def accessibility_problems(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    assert AXE.exists(), f"{AXE} is missing: run `cd web && npm ci` (axe-core is a devDependency)"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated through the browser's debugging protocol, not as a <script> tag: the
        # server's Content-Security-Policy refuses inline scripts, as it should
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[str] = page.evaluate(AXE_RUN)
    return found


def create_game(base: str, game: str, players: int, seed: str) -> dict[str, Any]:
    """A game created over the API (as another client would), with its tokens."""
    answer = httpx.post(f"{base}/games", json={"game": game, "players": players, "seed": seed})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def summary(base: str, game_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/games/{game_id}")
    assert answer.status_code == 200
    result: dict[str, Any] = answer.json()
    return result


def finish_over_the_api(base: str, game: str, players: int, seed: str) -> dict[str, object]:
    """A game played to its end by another client (the first legal command of a seat to act)."""
    created = create_game(base, game, players, seed)
    if play_over_the_api(base, created, 2000) != "finished":
        raise AssertionError("the game did not end")
    return created


def play_over_the_api(base: str, created: dict[str, Any], moves: int) -> str:
    """Up to ``moves`` moves of the game ``created`` (the answer of ``POST /games``), each the
    first legal command of a seat to act, as another client would; the game's status."""
    game_id = created["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    with httpx.Client(base_url=base, timeout=30.0) as http:  # one kept-alive connection
        for _ in range(moves):
            state = http.get(f"/games/{game_id}").json()
            if state["status"] == "finished":
                return "finished"
            seat = state["to_act"][0]
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = http.get(f"/games/{game_id}/legal", headers=headers).json()
            answer = http.post(
                f"/games/{game_id}/commands",
                headers=headers,
                json={"command": legal["commands"][0]},
            )
            assert answer.status_code == 200, answer.text
        status: str = http.get(f"/games/{game_id}").json()["status"]
        return status


def version(page: Page) -> int:
    return int(page.get_attribute(APP, "data-version") or -1)


def wait_loaded(page: Page) -> None:
    """Until the table shows a view and no command is on its way."""
    page.wait_for_selector(f"{APP}[data-version][data-busy='false']", state="attached")


def wait_past(page: Page, seen: int) -> None:
    """Until the table shows a version after ``seen``."""
    page.wait_for_function(
        "seen => { const app = document.getElementById('app');"
        " return Number(app.dataset.version) > seen && app.dataset.busy === 'false'; }",
        arg=seen,
    )


def commands(page: Page) -> list[dict[str, Any]]:
    """The legal moves the page shows now (its automation hooks)."""
    return [
        json.loads(button.get_attribute("data-command") or "null")
        for button in page.query_selector_all("[data-testid='command']")
    ]


def as_seat(page: Page, seat: int) -> None:
    """Plays as ``seat`` (one of the seats whose token the page holds)."""
    if page.input_value("[data-testid='seat-select']") == str(seat):
        return
    page.select_option("[data-testid='seat-select']", str(seat))
    page.wait_for_selector(f"{APP}[data-seat='{seat}'][data-busy='false']", state="attached")


def click_a_move(page: Page) -> None:
    """Makes one move: the first legal move shown, or cards selected until one shows up."""
    wait_loaded(page)
    before = version(page)
    buttons = page.locator("[data-testid='command']:not([disabled])")
    if buttons.count() == 0:
        cards = page.locator("[data-testid='hand'] button.hand-card[aria-pressed='false']")
        while buttons.count() == 0:
            assert cards.count() > 0, "no legal move appeared for any selection"
            cards.first.click()
    buttons.first.click()
    wait_past(page, before)


def play_moves(page: Page, base: str, game_id: str, moves: int) -> int:
    """Up to ``moves`` moves, each by a seat to act (switched to on the page); the count."""
    made = 0
    while made < moves:
        to_act = summary(base, game_id)["to_act"]
        if not to_act:
            break
        as_seat(page, to_act[0])
        click_a_move(page)
        made += 1
    return made


def screenshots(page: Page, name: str) -> list[Path]:
    """The page at a desktop and a phone width, under build/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    taken = []
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => done(null)))")
        path = SCREENSHOTS / f"{name}-{label}.png"
        # a whole page (a finished game's log is long): seconds of Chromium's CPU on a loaded
        # two-core machine, where the contexts' 15 s for a step ran out
        page.screenshot(path=str(path), full_page=True, timeout=SCREENSHOT_TIMEOUT_MS)
        taken.append(path)
        if label == "phone":
            overflow = page.evaluate("document.documentElement.scrollWidth")
            assert overflow <= PHONE["width"], f"{name}: the page is {overflow} px wide at 375 px"
    page.set_viewport_size(DESKTOP)
    return taken


def create_in_lobby(
    page: Page,
    base: str,
    game: str,
    seats: list[str],
    *,
    name: str = "",
    seed: str = "",
    options: dict[str, str] | None = None,
) -> str:
    """Creates a game in the lobby's form, each seat ``creator``, ``open`` or ``bot:NAME``.

    Returns the new game's id; the page is on its table, or on the lobby's share links when
    a seat is open.
    """
    page.goto(f"{base}/")
    if name:
        page.fill("[data-testid='my-name']", name)
    page.select_option("[data-testid='new-game']", game)
    if page.is_enabled("[data-testid='new-players']"):
        page.fill("[data-testid='new-players']", str(len(seats)))
    for key, value in (options or {}).items():
        page.fill(f"#option-{key}", value)
    for seat, choice in enumerate(seats):
        page.select_option(f"[data-testid='seat-type-{seat}']", choice)
    if seed:
        page.fill("[data-testid='new-seed']", seed)
    page.click("[data-testid='create']")
    if "open" in seats:
        link = page.get_by_test_id("to-table")
        link.wait_for()
        href = link.get_attribute("href") or ""
        return href.rsplit("/", 1)[1]
    page.wait_for_url(re.compile(r"/play/[a-z0-9]+$"))
    wait_loaded(page)
    return page.url.rsplit("/", 1)[1]


MY_TURN_OR_OVER = """() => {
  const app = document.getElementById('app');
  const status = document.querySelector('[data-testid=status]').textContent;
  return app.dataset.busy === 'false'
    && (app.dataset.gameStatus === 'finished' || status.startsWith('Your turn'));
}"""


def play_to_the_end(page: Page, limit: int = 2000) -> int:
    """Clicks a legal move each time the page's seat is to act, until the game ends.

    Returns the moves made (the other seats are bots, playing on the server).
    """
    made = 0
    while made < limit:
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.get_attribute(APP, "data-game-status") == "finished":
            return made
        click_a_move(page)
        made += 1
    raise AssertionError(f"the game did not end in {limit} moves")


CONFLICT = "the server responded with a status of 409 (Conflict)"
"""Chromium's own line for a 409 answer: a move crossing a bot's gets one, and the client
sends the move again when it is still legal (the only console error that is not a bug)."""


VIOLATIONS = "__cspViolations"
"""Where the watching script keeps the page's CSP violations."""

_WATCH_CSP = f"""
window.{VIOLATIONS} = [];
document.addEventListener("securitypolicyviolation", (event) => {{
  const line = `${{event.violatedDirective}} blocked ${{event.blockedURI || "inline"}}`
    + ` at ${{event.sourceFile || event.documentURI}}:${{event.lineNumber}}`;
  window.{VIOLATIONS}.push(line);
  console.error(`CSP violation: ${{line}}`);
}});
"""
"""Added to every page before its own scripts (Playwright's init scripts are not subject to
the page's policy): each violation becomes a console error, which fails the test."""


class Watched:
    """A browser context whose pages report console errors and requests off the server."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.context = context
        self.base = base
        self.errors: list[str] = []
        self.foreign: list[str] = []
        context.add_init_script(_WATCH_CSP)
        context.on("page", self._watch)

    def _watch(self, page: Page) -> None:
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{page.url}: {message.text}")
                if message.type == "error" and CONFLICT not in message.text
                else None
            ),
        )
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on("request", self._request)

    def _request(self, request: Request) -> None:
        url = request.url
        local = url.startswith(self.base + "/") or url.startswith(("data:", f"blob:{self.base}/"))
        if not local:
            self.foreign.append(url)

    def page(self) -> Page:
        return self.context.new_page()
